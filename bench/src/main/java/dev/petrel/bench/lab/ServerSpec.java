package dev.petrel.bench.lab;

import dev.petrel.bench.model.ServerInfo;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A server the lab can run: its name, its role, and the command that starts it on a port.
 * Adding a server to the lab is one of these in {@link ServerCatalog}.
 *
 * @param name short name used on the command line and in reports
 * @param group Petrel, a peer, or the baseline
 * @param description what it is, with its version
 * @param command the command line (without CPU pinning)
 * @param jvm whether it runs on the lab's JDK, so that {@code jcmd} can read its heap
 * @param tls whether it can also serve HTTPS (on the port after its HTTP port, see
 *     {@link Command}); the C baseline cannot
 * @param ajp whether it can also speak AJP/1.3 (on the HTTP port plus two, see {@link Command}):
 *     Petrel and the lab's Tomcat with its NIO connector
 * @param application whether it serves the tomcat scenarios' Spring Boot application (seeds 000,
 *     003) rather than the lab's HelloWorld: only those scenarios run it, and only it
 * @param unmeasurableBy the load tools that cannot measure it, each with the reason in a few words
 *     (Helidon answers ab's HTTP/1.0 with 505): a scenario that uses one of them marks it not
 *     applicable rather than running it ({@link Applicability})
 * @param onlyOverTls why this server is measured over TLS only, or {@code null} for one measured
 *     everywhere: a server that differs from another only in its TLS engine (petrel-nio-native is
 *     petrel-nio with BoringSSL) would only repeat that one's figures over plain HTTP, so its
 *     plain-HTTP cells are not applicable ({@link Scenario#overTls})
 * @param onlyIn the one scenario this server is for, or {@code null} for a server of every scenario
 *     of its kind: the WebSocket floor serves the websocket scenario alone, so that no other
 *     scenario runs it or lists it in its report ({@link Applicability})
 */
record ServerSpec(String name, ServerInfo.Group group, String description, Command command, boolean jvm,
                  boolean tls, boolean ajp, boolean application, Map<LoadTool, String> unmeasurableBy,
                  String onlyOverTls, String onlyIn) {

    ServerSpec {
        unmeasurableBy = Map.copyOf(unmeasurableBy);
    }

    /** A server of every scenario of its kind. */
    ServerSpec(String name, ServerInfo.Group group, String description, Command command, boolean jvm, boolean tls,
               boolean ajp, boolean application, Map<LoadTool, String> unmeasurableBy, String onlyOverTls) {
        this(name, group, description, command, jvm, tls, ajp, application, unmeasurableBy, onlyOverTls, null);
    }

    /** A server measured over plain HTTP and TLS alike. */
    ServerSpec(String name, ServerInfo.Group group, String description, Command command, boolean jvm, boolean tls,
               boolean ajp, boolean application, Map<LoadTool, String> unmeasurableBy) {
        this(name, group, description, command, jvm, tls, ajp, application, unmeasurableBy, null);
    }

    /** A server every load tool can measure. */
    ServerSpec(String name, ServerInfo.Group group, String description, Command command, boolean jvm, boolean tls,
               boolean ajp, boolean application) {
        this(name, group, description, command, jvm, tls, ajp, application, Map.of());
    }

    /** A HelloWorld server. */
    ServerSpec(String name, ServerInfo.Group group, String description, Command command, boolean jvm, boolean tls,
               boolean ajp) {
        this(name, group, description, command, jvm, tls, ajp, false);
    }

    /** A server that speaks no AJP. */
    ServerSpec(String name, ServerInfo.Group group, String description, Command command, boolean jvm, boolean tls) {
        this(name, group, description, command, jvm, tls, false);
    }

    /** This server, declared unmeasurable by {@code tool} for {@code reason}. */
    ServerSpec unmeasurableBy(LoadTool tool, String reason) {
        Map<LoadTool, String> tools = new EnumMap<>(LoadTool.class);
        tools.putAll(unmeasurableBy);
        tools.put(tool, reason);
        return new ServerSpec(name, group, description, command, jvm, tls, ajp, application, tools, onlyOverTls, onlyIn);
    }

    /** This server, measured over TLS only for {@code reason} (see {@link #onlyOverTls()}). */
    ServerSpec onlyOverTls(String reason) {
        if (!tls) throw new IllegalArgumentException(name + " serves no TLS, so it cannot be measured over TLS only");
        return new ServerSpec(name, group, description, command, jvm, tls, ajp, application, unmeasurableBy, reason, onlyIn);
    }

    /** This server, run by the scenario named {@code scenario} alone (see {@link #onlyIn()}). */
    ServerSpec onlyIn(String scenario) {
        return new ServerSpec(name, group, description, command, jvm, tls, ajp, application, unmeasurableBy, onlyOverTls, scenario);
    }

    /** Whether the scenario named {@code scenario} may run this server at all. */
    boolean servesScenario(String scenario) {
        return onlyIn == null || onlyIn.equals(scenario);
    }

    /** How to start a server. */
    @FunctionalInterface
    interface Command {
        /**
         * The command line for HTTP on {@code port}; when {@code tls} is not {@code null} (only
         * asked of a server whose {@link ServerSpec#tls()} is true), HTTPS on {@code port + 1} with
         * that certificate; with {@code ajp} (only asked of a server whose {@link ServerSpec#ajp()}
         * is true), AJP/1.3 on {@code port + 2} with the lab's secret. {@code folder} is the server's
         * own folder under the run's results, which it may make and write into (nginx keeps its
         * configuration, PID file, error log and temporary files there); most servers need none. With
         * {@code h2} (asked of every server a scenario runs when it measures HTTP/2), a server that speaks
         * HTTP/2 also takes it with prior knowledge on {@code port} and by ALPN on {@code port + 1};
         * others ignore it. With {@code webSocket} (asked of every server the websocket scenario
         * runs), a server that speaks WebSocket also serves the lab's echo on {@code port}
         * (servers/LabWebSocket); others ignore it.
         */
        List<String> line(int port, LabCertificate tls, boolean ajp, boolean h2, boolean webSocket, Path folder);

        /** {@link #line(int, LabCertificate, boolean, boolean, boolean, Path)} without the WebSocket echo. */
        default List<String> line(int port, LabCertificate tls, boolean ajp, boolean h2, Path folder) {
            return line(port, tls, ajp, h2, false, folder);
        }

        /** {@link #line(int, LabCertificate, boolean, boolean, Path)} without HTTP/2. */
        default List<String> line(int port, LabCertificate tls, boolean ajp, Path folder) {
            return line(port, tls, ajp, false, folder);
        }
    }
}
