package dev.petrel.bench.soak;

import dev.petrel.bench.support.ChildProcesses;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A server under soak: a child JVM running {@link SoakPetrel} or {@link SoakTomcat} with a fixed
 * heap ({@code -Xms} = {@code -Xmx}, touched at start, so that its resident set does not grow just
 * because the heap did) and native memory tracking on, stopped by its pid.
 */
final class SoakServer implements AutoCloseable {
    /** The servers the soak runs: the name on the command line and its main class. */
    enum Kind {
        PETREL("petrel", SoakPetrel.class.getName(), true),
        TOMCAT_NIO("tomcat-nio", SoakTomcat.class.getName(), false);

        final String label;
        final String mainClass;
        /** Petrel: both TLS engines, the PROXY protocol and an admin listener with its resource counts. */
        final boolean petrel;

        Kind(String label, String mainClass, boolean petrel) {
            this.label = label;
            this.mainClass = mainClass;
            this.petrel = petrel;
        }

        static Kind named(String label) {
            for (Kind k : values()) if (k.label.equals(label)) return k;
            return null;
        }
    }

    /** The heap of every soak server: enough for the traffic, small enough that a leak shows. */
    static final String HEAP = "256m";

    private final Kind kind;
    private final SoakPorts ports;
    private final List<String> command;
    private final Path log;
    private Process process;

    SoakServer(Kind kind, SoakPorts ports, Path java, Path libraries, Path files, Path cert, Path key, int maxConnections, Path log) {
        this.kind = kind;
        this.ports = ports;
        this.log = log;
        List<String> c = new ArrayList<>(List.of(java.toString(), "-Xms" + HEAP, "-Xmx" + HEAP, "-XX:+AlwaysPreTouch",
                "-XX:NativeMemoryTracking=summary", "-Dpetrel.resourceAccounting=true",
                "-cp", libraries + File.separator + "*", kind.mainClass));
        c.addAll(ports.arguments());
        c.addAll(List.of("--files", files.toString(), "--cert", cert.toString(), "--key", key.toString(),
                "--max-connections", Integer.toString(maxConnections)));
        this.command = List.copyOf(c);
    }

    Kind kind() {
        return kind;
    }

    SoakPorts ports() {
        return ports;
    }

    /** Starts the JVM and returns once its plain port answers {@code /ping}, within 60 s. */
    void start() throws IOException, InterruptedException {
        Files.createDirectories(log.getParent());
        process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) throw new IOException(kind.label + " exited at start: " + tail());
            if (answersPing()) return;
            Thread.sleep(100);
        }
        close();
        throw new IOException(kind.label + " did not answer within 60 s: " + tail());
    }

    private boolean answersPing() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", ports.plain()), 500);
            s.setSoTimeout(2000);
            s.getOutputStream().write("GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            return new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII).equals("HTTP/1.1 200");
        } catch (IOException notYet) {
            return false;
        }
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process != null && process.isAlive();
    }

    /** The last lines of its console, for a message. */
    String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** SIGTERM, then SIGKILL after 30 s. */
    @Override
    public void close() {
        ChildProcesses.end(process, false);
    }

    @Override
    public String toString() {
        return kind.label + " (pid " + (process == null ? "-" : process.pid()) + ", " + ports + ")";
    }
}
