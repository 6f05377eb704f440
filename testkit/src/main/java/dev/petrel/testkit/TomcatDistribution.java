package dev.petrel.testkit;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;

/**
 * A Tomcat distribution (the {@code org.apache.tomcat:tomcat} artifact, unpacked by the build of
 * the module whose tests use it; its folder in the system property {@code petrel.tomcat.home}) run
 * as Tomcat users run it: {@code bin/catalina.sh run} with a {@code CATALINA_BASE} of its own, a
 * {@code server.xml} with the connectors a test gives (Petrel's protocols among them), Petrel's
 * jars in {@code lib/} and the webapps and wars the test deploys. A child process of this JVM,
 * stopped by its pid (SIGTERM, then SIGKILL), its base folder removed.
 *
 * <pre>{@code
 * try (TomcatDistribution tomcat = TomcatDistribution.start(connectors, List.of("examples"), List.of(), port)) {
 *     // http://127.0.0.1:port/examples/
 * }
 * }</pre>
 */
public final class TomcatDistribution implements AutoCloseable {
    private static final String HOME_PROPERTY = "petrel.tomcat.home";
    private final Path base;
    private final boolean ownsBase;
    private final Process process;

    private TomcatDistribution(Path base, boolean ownsBase, Process process) {
        this.base = base;
        this.ownsBase = ownsBase;
        this.process = process;
    }

    /** The distribution, or null when the build did not unpack one (a run outside Maven). */
    public static Path home() {
        String home = System.getProperty(HOME_PROPERTY);
        return home != null && Files.isExecutable(Path.of(home, "bin", "catalina.sh")) ? Path.of(home) : null;
    }

    /** A loopback port free at the moment of asking. */
    public static int freePort() throws IOException {
        return LoopbackDaemon.freePort();
    }

    /**
     * Starts the distribution with {@code connectors} (the {@code <Connector .../>} elements of
     * its one service), the given webapps of the distribution and {@code wars} deployed, and
     * waits until {@code readyPort} answers.
     */
    public static TomcatDistribution start(String connectors, List<String> webapps, List<Path> wars, int readyPort)
            throws IOException, InterruptedException {
        if (home() == null) throw new IOException("no Tomcat distribution at " + System.getProperty(HOME_PROPERTY));
        Path base = prepareBase(home(), Files.createTempDirectory("petrel-catalina-base"), connectors, webapps, wars);
        return launch(home(), base, true, readyPort, "-Xmx256m");
    }

    /**
     * Starts the distribution at {@code home} on a {@code CATALINA_BASE} made by {@link #prepareBase} and kept by
     * {@link #close()} (so that a test can stop and start the same Tomcat again), with
     * {@code catalinaOptions} as {@code CATALINA_OPTS}, and waits until {@code readyPort} answers.
     */
    public static TomcatDistribution run(Path home, Path base, int readyPort, String catalinaOptions)
            throws IOException, InterruptedException {
        if (!Files.isExecutable(home.resolve("bin/catalina.sh"))) throw new IOException("no Tomcat distribution at " + home);
        return launch(home, base, false, readyPort, catalinaOptions);
    }

    private static TomcatDistribution launch(Path home, Path base, boolean ownsBase, int readyPort, String catalinaOptions)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(home.resolve("bin/catalina.sh").toString(), "run");
        Map<String, String> env = pb.environment();
        env.put("CATALINA_HOME", home.toString());
        env.put("CATALINA_BASE", base.toString());
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("CATALINA_OPTS", catalinaOptions);
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.appendTo(base.resolve("logs/console.log").toFile()));
        TomcatDistribution tomcat = new TomcatDistribution(base, ownsBase, pb.start());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!tomcat.process.isAlive()) {
                String log = tomcat.console();
                tomcat.close();
                throw new IOException("Tomcat exited: " + log);
            }
            if (answers(readyPort)) return tomcat;
            Thread.sleep(100);
        }
        String log = tomcat.console();
        tomcat.close();
        throw new IOException("Tomcat did not answer on " + readyPort + " within 60 s: " + log);
    }

    /**
     * Makes {@code base} a {@code CATALINA_BASE} for the distribution at {@code home}: its {@code conf/}
     * files, a {@code server.xml} with {@code connectors} in its one service, the named webapps of
     * the distribution and {@code wars} deployed (under their file names), and Petrel's jars in
     * {@code lib/}, taken from this JVM's class path as a user drops them there. The lab runs
     * {@code catalina.sh run} on such a base itself.
     */
    public static Path prepareBase(Path home, Path base, String connectors, List<String> webapps, List<Path> wars)
            throws IOException {
        return prepareBase(home, base, connectors, webapps, wars, null, "");
    }

    /**
     * {@link #prepareBase(Path, Path, String, List, List)} with an {@code <Engine>} that has the
     * given {@code jvmRoute} (the suffix of its session ids, by which a balancer keeps a session on
     * it; null for none) and {@code engineContent} inside it before the {@code <Host>}: a
     * {@code <Cluster>} for session replication, say.
     */
    public static Path prepareBase(Path home, Path base, String connectors, List<String> webapps, List<Path> wars,
            String jvmRoute, String engineContent) throws IOException {
        for (String dir : new String[] {"conf", "lib", "logs", "temp", "webapps", "work"}) {
            Files.createDirectories(base.resolve(dir));
        }
        for (String file : new String[] {"web.xml", "context.xml", "catalina.properties", "logging.properties", "tomcat-users.xml"}) {
            Files.copy(home.resolve("conf").resolve(file), base.resolve("conf").resolve(file));
        }
        for (String webapp : webapps) copyTree(home.resolve("webapps").resolve(webapp), base.resolve("webapps").resolve(webapp));
        for (Path war : wars) Files.copy(war, base.resolve("webapps").resolve(war.getFileName()));
        Files.writeString(base.resolve("conf/server.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <Server port="-1" shutdown="SHUTDOWN">
                  <Listener className="org.apache.catalina.startup.VersionLoggerListener"/>
                  <Service name="Catalina">
                %s
                    <Engine name="Catalina" defaultHost="localhost"%s>
                %s
                      <Host name="localhost" appBase="webapps" unpackWARs="true" autoDeploy="false"/>
                    </Engine>
                  </Service>
                </Server>
                """.formatted(connectors.indent(4), jvmRoute == null ? "" : " jvmRoute=\"" + jvmRoute + "\"",
                engineContent.indent(6)));
        installPetrel(base.resolve("lib"));
        return base;
    }

    /** Whether a GET of {@code /} on the port gets any HTTP answer (Catalina is up, not just bound). */
    private static boolean answers(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 500);
            s.setSoTimeout(2000);
            OutputStream out = s.getOutputStream();
            out.write("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            return s.getInputStream().read() == 'H';
        } catch (IOException notYet) {
            return false;
        }
    }

    /**
     * Petrel's jars into {@code lib/}, as a user drops them there: from the test's class path,
     * where each is a jar or (within the reactor) a classes folder, jarred here.
     */
    private static void installPetrel(Path lib) throws IOException {
        int found = 0;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path path = Path.of(entry);
            String module = petrelModule(path);
            if (module == null) continue;
            Path jar = lib.resolve("petrel-" + module + ".jar");
            if (Files.isDirectory(path)) jarFolder(path, jar);
            else Files.copy(path, jar);
            found++;
        }
        if (found < 6) throw new IOException("Petrel's http, http2, websocket, ajp, server and tomcat jars were not all on the class path");
    }

    private static String petrelModule(Path path) {
        String text = path.toString();
        for (String module : new String[] {"http", "http2", "websocket", "ajp", "server", "tomcat"}) { // docs/tomcat.md's recipe: petrel-server needs http2 and websocket
            String name = path.getFileName().toString();
            // not a module's test jar (petrel-server's, for the tests' leak check): a user's lib/ holds none
            if (text.endsWith("/" + module + "/target/classes") || name.matches("petrel-" + module + "-[0-9].*\\.jar") && !name.endsWith("-tests.jar")) {
                return module;
            }
        }
        return null;
    }

    private static void jarFolder(Path folder, Path jar) throws IOException {
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar)); Stream<Path> files = Files.walk(folder)) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                out.putNextEntry(new ZipEntry(folder.relativize(file).toString().replace(File.separatorChar, '/')));
                Files.copy(file, out);
                out.closeEntry();
            }
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) Files.createDirectories(target);
                else Files.copy(file, target);
            }
        }
    }

    /** What Tomcat printed to its console (catalina.sh run sends its log there). */
    public String console() {
        try {
            return Files.readString(base.resolve("logs/console.log"));
        } catch (IOException e) {
            return "(no console: " + e.getMessage() + ")";
        }
    }

    /** The pid of Tomcat's JVM ({@code catalina.sh run} execs it). */
    public long pid() {
        return process.pid();
    }

    /** The {@code CATALINA_BASE} this Tomcat runs on. */
    public Path base() {
        return base;
    }

    /**
     * Stops Tomcat as its users do (SIGTERM: catalina.sh run exec'd java, whose shutdown hook stops
     * Catalina: connectors paused, applications stopped, connectors closed), SIGKILL after 30 s.
     * Returns once the process is gone; the base is kept.
     */
    public void stop() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Ends Tomcat at once (SIGKILL), as a crash or the kernel's OOM killer does; returns once it is gone. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether Tomcat's process still runs. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** {@link #stop()}, then the base removed when {@link #start} made it (not one given to {@link #run}). */
    @Override
    public void close() {
        stop();
        if (!ownsBase) return;
        try (Stream<Path> files = Files.walk(base)) {
            List<Path> all = new ArrayList<>();
            files.sorted(Comparator.reverseOrder()).forEach(all::add);
            all.forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // a temporary folder left behind
        }
    }
}
