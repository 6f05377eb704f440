package dev.petrel.bench.lab;

import dev.petrel.bench.model.ServerInfo.Group;
import dev.petrel.bench.servers.LabAjp;
import dev.petrel.bench.servers.LabH2;
import dev.petrel.bench.servers.LabWebSocket;
import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TransportKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The servers under test: the C baseline, Petrel once per transport (and again with its native TLS
 * engine), the peers, and nginx as the non-Java reference. Every JVM server runs on the lab's own
 * JDK with the same heap flags and otherwise its defaults.
 */
final class ServerCatalog {
    /** Heap flags every JVM server gets, so that none wins by memory alone. */
    static final List<String> JVM_OPTIONS = List.of("-Xms512m", "-Xmx512m", "--enable-native-access=ALL-UNNAMED");

    /** The system property that asks a JVM server for HTTPS (servers/LabTls; keep the two in step). */
    static final String TLS_PROPERTY = "petrel.bench.tls";

    /**
     * The system property that asks a JVM server for HTTP/2 ({@code true}): h2c with prior knowledge on
     * its HTTP port, h2 by ALPN on its HTTPS port (servers/LabH2; one constant for both).
     */
    static final String H2_PROPERTY = LabH2.PROPERTY;

    /** The system property that asks a JVM server for the WebSocket echo ({@code true}; servers/LabWebSocket). */
    static final String WEBSOCKET_PROPERTY = LabWebSocket.PROPERTY;

    /** The WebSocket scenario's C floor, the only server that scenario alone runs. */
    static final String WEBSOCKET_FLOOR = "baseline-c-ws";

    /** The system property that asks Petrel or Tomcat for AJP; its value is the AJP port (HTTP port + 2). */
    static final String AJP_PROPERTY = LabAjp.PROPERTY;

    /** Why ab cannot measure Helidon. */
    static final String HELIDON_AND_AB = "Helidon 4 serves HTTP/1.1 only and answers ab's HTTP/1.0 requests with 505";

    /** What the names of the servers with Petrel's native TLS engine add to their twins' (petrel-nio-native). */
    static final String NATIVE_SUFFIX = "-native";
    /** What names another build's Petrel servers (--before): {@code before-petrel-nio}. */
    static final String BEFORE_PREFIX = "before-";

    /** PetrelHello's argument for the native engine. */
    static final String NATIVE_ENGINE_ARGUMENT = "tls-engine=" + TlsConfig.NATIVE;

    private ServerCatalog() {}

    static List<ServerSpec> all(LabPaths paths) {
        return all(paths, null);
    }

    /** The server of this build that {@code name} is, another build's ({@code before-petrel-nio}) or this one's. */
    static String sameServerNow(String name) {
        return name.startsWith(BEFORE_PREFIX) ? name.substring(BEFORE_PREFIX.length()) : name;
    }

    /**
     * Every server, and with {@code before} (another build's {@code bench/target/lib}) that build's
     * Petrel servers too, as {@code before-petrel-*}: the same hello classes and JVM options, only
     * Petrel's code differs, so that a change is measured against its parent in one run.
     */
    static List<ServerSpec> all(LabPaths paths, Path before) {
        List<ServerSpec> servers = new ArrayList<>();
        servers.add(new ServerSpec("baseline-c", Group.BASELINE,
                "do-nothing C server (epoll, one thread, fixed responses): the physical floor",
                (port, tls, ajp, h2, webSocket, folder) -> List.of(paths.baselineBinary().toString(), Integer.toString(port), paths.page().toString()),
                false, false));
        // the websocket scenario's floor: a C server like the one above that echoes WebSocket frames
        servers.add(new ServerSpec(WEBSOCKET_FLOOR, Group.BASELINE,
                "do-nothing C WebSocket echo (epoll, one thread, frames echoed as they are read): the WebSocket floor",
                (port, tls, ajp, h2, webSocket, folder) -> List.of(paths.webSocketFloorBinary().toString(), Integer.toString(port)),
                false, false).onlyIn(WebSocketScenario.NAME));
        for (TransportKind kind : TransportKind.values()) {
            servers.add(java(paths, "petrel-" + kind.cliName(), Group.PETREL, "Petrel " + kind.cliName() + " transport",
                    true, "PetrelHello", kind.cliName()));
        }
        // The answers come from memory: marked non-blocking, they run on the event loop, as Undertow's,
        // Netty's and Vert.x's handlers here do; plain petrel-nio runs them on virtual threads.
        servers.add(java(paths, "petrel-nio-inline", Group.PETREL,
                "Petrel nio transport, handlers marked non-blocking and run inline on the event loop",
                true, "PetrelHello", "nio", "inline"));
        // The same servers with the native TLS engine (module tls-native): measured over TLS only
        String boringSsl = "native TLS engine, BoringSSL (netty-tcnative " + version(paths, "netty-tcnative-classes") + ")";
        for (TransportKind kind : TransportKind.values()) {
            servers.add(java(paths, "petrel-" + kind.cliName() + NATIVE_SUFFIX, Group.PETREL, "Petrel " + kind.cliName() + " transport, " + boringSsl,
                    "PetrelHello", kind.cliName(), NATIVE_ENGINE_ARGUMENT).onlyOverTls(ONLY_TLS_ENGINE));
        }
        servers.add(java(paths, "petrel-nio-inline" + NATIVE_SUFFIX, Group.PETREL,
                "Petrel nio transport, handlers inline on the event loop, " + boringSsl,
                "PetrelHello", "nio", "inline", NATIVE_ENGINE_ARGUMENT).onlyOverTls(ONLY_TLS_ENGINE));
        if (before != null) {
            for (TransportKind kind : TransportKind.values()) {
                servers.add(java(paths, before, BEFORE_PREFIX + "petrel-" + kind.cliName(), Group.PETREL,
                        "Petrel " + kind.cliName() + " transport, the build in " + before, true, "PetrelHello", kind.cliName()));
            }
            servers.add(java(paths, before, BEFORE_PREFIX + "petrel-nio-inline", Group.PETREL,
                    "Petrel nio transport inline, the build in " + before, true, "PetrelHello", "nio", "inline"));
            for (TransportKind kind : TransportKind.values()) {
                servers.add(java(paths, before, BEFORE_PREFIX + "petrel-" + kind.cliName() + NATIVE_SUFFIX, Group.PETREL,
                        "Petrel " + kind.cliName() + " transport, " + boringSsl + ", the build in " + before,
                        false, "PetrelHello", kind.cliName(), NATIVE_ENGINE_ARGUMENT).onlyOverTls(ONLY_TLS_ENGINE));
            }
        }
        String tomcat = "Tomcat " + version(paths, "tomcat-embed-core");
        // Every peer runs with its defaults, as its users get them; see each servers/*Hello class.
        // The ajp scenario measures Tomcat's AJP connector as seeds 002 did: AjpNioProtocol, so on tomcat-nio only.
        servers.add(java(paths, "tomcat-nio", Group.PEER, tomcat + " embedded, NIO connector", true, "TomcatHello", "nio"));
        for (TransportKind kind : TransportKind.values()) {
            // Catalina as above, on Petrel's connector: what a Tomcat user gets by changing one attribute
            servers.add(java(paths, "tomcat-petrel-" + kind.cliName(), Group.PETREL, tomcat + " embedded, Petrel "
                    + kind.cliName() + " connector (PetrelHttp11Protocol)", true, "TomcatHello", "petrel-" + kind.cliName()));
        }
        servers.add(java(paths, "tomcat-nio2", Group.PEER, tomcat + " embedded, NIO2 connector", "TomcatHello", "nio2"));
        servers.add(java(paths, "tomcat-virtual", Group.PEER, tomcat + " embedded, NIO with virtual threads", "TomcatHello", "virtual"));
        servers.add(java(paths, "jetty", Group.PEER, "Jetty " + version(paths, "jetty-server") + ", core handler", "JettyHello"));
        servers.add(java(paths, "undertow", Group.PEER, "Undertow " + version(paths, "undertow-core") + ", handler on the I/O thread", "UndertowHello"));
        String netty = "Netty " + version(paths, "netty-codec-http");
        // Netty's TLS provider is named, so that BoringSSL on the class path changes neither of the first two
        servers.add(java(paths, "netty-epoll", Group.PEER, netty + ", epoll transport", "NettyHello", "epoll", "jdk"));
        // io_uring where the kernel allows it; where not, NettyHello says why and the cells are n/a
        servers.add(java(paths, "netty-io_uring", Group.PEER, netty + ", io_uring transport", "NettyHello", "io_uring", "jdk"));
        servers.add(java(paths, "netty-nio", Group.PEER, netty + ", NIO transport", "NettyHello", "nio", "jdk"));
        servers.add(java(paths, "netty-epoll-boringssl", Group.PEER, netty + ", epoll transport, TLS by BoringSSL "
                + "(SslProvider.OPENSSL, netty-tcnative " + version(paths, "netty-tcnative-classes") + ")", "NettyHello", "epoll",
                "openssl").onlyOverTls(ONLY_TLS_ENGINE));
        servers.add(java(paths, "vertx", Group.PEER, "Vert.x " + version(paths, "vertx-core"), "VertxHello"));
        servers.add(java(paths, "jdk-httpserver", Group.PEER, "JDK com.sun.net.httpserver, virtual-thread executor", "JdkHello"));
        // Helidon 4 serves HTTP/1.1 only (servers/HelidonHello): every scenario measured with ab is n/a for it
        servers.add(java(paths, "helidon", Group.PEER, "Helidon SE " + version(paths, "helidon-webserver"), "HelidonHello")
                .unmeasurableBy(LoadTool.AB, HELIDON_AND_AB));
        // a C server with OpenSSL, last so that the do-nothing C server stays the first baseline
        servers.add(Nginx.spec(paths));
        servers.addAll(applications(paths));
        return servers;
    }

    /**
     * Why a server that differs from another only in its TLS engine (petrel-nio-native from
     * petrel-nio, netty-epoll-boringssl from netty-epoll) has no plain-HTTP figure. One reason for
     * all of them, so that a report lists them under one line.
     */
    static final String ONLY_TLS_ENGINE = "its TLS engine is all that sets it apart, and that changes nothing without TLS";

    /** Names of the tomcat scenarios' servers that run the executable jar, and the war. */
    static final String JAR = "boot-jar-";
    static final String WAR = "boot-war-";

    /**
     * The tomcat scenarios' servers: the Spring Boot HelloWorld of {@code examples/spring-boot} as
     * an executable jar and as a war in Tomcat's distribution, on Tomcat's NIO connector and on
     * Petrel's per transport. The same application everywhere; only the connector differs.
     */
    private static List<ServerSpec> applications(LabPaths paths) {
        List<ServerSpec> servers = new ArrayList<>();
        String boot = "Spring Boot " + versionInJar(paths.helloJar(), "spring-boot");
        String embedded = boot + " jar, embedded Tomcat " + embeddedTomcatVersion(paths);
        servers.add(bootJar(paths, JAR + "tomcat-nio", Group.PEER, embedded + ", NIO connector", null));
        for (TransportKind kind : TransportKind.values()) {
            servers.add(bootJar(paths, JAR + "petrel-" + kind.cliName(), Group.PETREL,
                    embedded + ", Petrel " + kind.cliName() + " connector (petrel-spring-boot)", kind));
        }
        String standalone = boot + " war in Tomcat " + distributionVersion(paths);
        servers.add(bootWar(paths, WAR + "tomcat-nio", Group.PEER, standalone + ", NIO connector", null));
        for (TransportKind kind : TransportKind.values()) {
            servers.add(bootWar(paths, WAR + "petrel-" + kind.cliName(), Group.PETREL,
                    standalone + ", Petrel " + kind.cliName() + " connector (PetrelHttp11Protocol)", kind));
        }
        return servers;
    }

    /** Whether a tomcat scenario server runs the war (in Tomcat's distribution) rather than the jar. */
    static boolean isWar(ServerSpec spec) {
        return spec.name().startsWith(WAR);
    }

    /** {@code java -jar hello.jar}, Petrel on the given transport or, for {@code null}, switched off. */
    private static ServerSpec bootJar(LabPaths paths, String name, Group group, String description, TransportKind petrel) {
        return new ServerSpec(name, group, description, (port, tls, ajp, h2, webSocket, folder) -> {
            List<String> command = new ArrayList<>();
            command.add(paths.java().toString());
            command.addAll(JVM_OPTIONS);
            command.addAll(List.of("-jar", paths.helloJar().toString(), "--server.port=" + port, "--server.address=127.0.0.1",
                    petrel == null ? "--petrel.enabled=false" : "--petrel.transport=" + petrel.cliName()));
            return command;
        }, true, false, false, true);
    }

    /**
     * {@code catalina.sh run} on a fresh {@code CATALINA_BASE} whose {@code server.xml} has an HTTP
     * and an HTTPS connector of the given kind ({@link StandaloneTomcat}).
     */
    private static ServerSpec bootWar(LabPaths paths, String name, Group group, String description, TransportKind petrel) {
        return new ServerSpec(name, group, description,
                (port, tls, ajp, h2, webSocket, folder) -> StandaloneTomcat.command(paths, name, port, tls, petrel), true, true, false, true);
    }

    /** The version of Tomcat embedded in the example's jar, e.g. {@code 11.0.22}. */
    static String embeddedTomcatVersion(LabPaths paths) {
        return versionInJar(paths.helloJar(), "tomcat-embed-core");
    }

    /** The version of Tomcat's distribution the build unpacked, e.g. {@code 11.0.24}. */
    static String distributionVersion(LabPaths paths) {
        Path home = paths.tomcatHome();
        return home == null ? "(not unpacked)" : home.getFileName().toString().substring("apache-tomcat-".length());
    }

    /** The version in the name of a library inside a Spring Boot jar ({@code BOOT-INF/lib/}). */
    private static String versionInJar(Path jar, String artifact) {
        String prefix = "BOOT-INF/lib/" + artifact + "-";
        try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(jar.toFile())) {
            return zip.stream().map(java.util.zip.ZipEntry::getName)
                    .filter(n -> n.startsWith(prefix) && n.endsWith(".jar") && Character.isDigit(n.charAt(prefix.length())))
                    .map(n -> n.substring(prefix.length(), n.length() - 4))
                    .findFirst().orElse("(version unknown)");
        } catch (IOException e) {
            return "(not built)";
        }
    }

    private static ServerSpec java(LabPaths paths, String name, Group group, String description, String mainClass,
                                   String... args) {
        return java(paths, name, group, description, false, mainClass, args);
    }

    private static ServerSpec java(LabPaths paths, String name, Group group, String description, boolean ajpCapable,
                                   String mainClass, String... args) {
        return java(paths, paths.libraries(), name, group, description, ajpCapable, mainClass, args);
    }

    private static ServerSpec java(LabPaths paths, Path libraries, String name, Group group, String description,
                                   boolean ajpCapable, String mainClass, String... args) {
        return new ServerSpec(name, group, description, (port, tls, ajp, h2, webSocket, folder) -> {
            List<String> command = new ArrayList<>();
            command.add(paths.java().toString());
            command.addAll(JVM_OPTIONS);
            // servers/LabTls reads this: HTTPS on port + 1 with the lab certificate in that folder
            if (tls != null) command.add("-D" + TLS_PROPERTY + "=" + tls.directory());
            // servers/LabAjp reads this: AJP on port + 2, the lab's secret required
            if (ajp) command.add("-D" + AJP_PROPERTY + "=" + (port + 2));
            // servers/LabH2 reads this: h2c on the HTTP port, h2 by ALPN on the HTTPS one
            if (h2) command.add("-D" + H2_PROPERTY + "=true");
            // servers/LabWebSocket reads this: the echo on the HTTP port
            if (webSocket) command.add("-D" + WEBSOCKET_PROPERTY + "=true");
            command.add("-cp");
            command.add(libraries + "/*");
            command.add("dev.petrel.bench.servers." + mainClass);
            command.add(Integer.toString(port));
            command.addAll(List.of(args));
            return command;
        }, true, true, ajpCapable);
    }

    /** The version in the name of the library's jar in the lab's class path, e.g. {@code 11.0.14}. */
    static String version(LabPaths paths, String artifact) {
        try (Stream<Path> jars = Files.list(paths.libraries())) {
            return jars.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith(artifact + "-") && n.endsWith(".jar")
                            && Character.isDigit(n.charAt(artifact.length() + 1)))
                    .map(n -> n.substring(artifact.length() + 1, n.length() - 4))
                    .findFirst().orElse("(version unknown)");
        } catch (IOException e) {
            return "(version unknown)";
        }
    }
}
