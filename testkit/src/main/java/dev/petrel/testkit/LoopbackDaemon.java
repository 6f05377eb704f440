package dev.petrel.testkit;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A front end run for one test in the foreground, as a child of this JVM: its config and output
 * in a private temporary folder, listening on a free loopback port, stopped by its pid and its
 * folder removed. What {@link Haproxy} and {@link Nginx} share; each writes its own config.
 */
final class LoopbackDaemon implements AutoCloseable {
    static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final String OUTPUT = "output.log";

    private final String name;
    private final Path dir;
    private final int port;
    private final Process process;

    private LoopbackDaemon(String name, Path dir, int port, Process process) {
        this.name = name;
        this.dir = dir;
        this.port = port;
        this.process = process;
    }

    /** A new private folder for a daemon's config and output. */
    static Path folder(String name) throws IOException {
        return Files.createTempDirectory("petrel-" + name);
    }

    /** A loopback port free at the moment of asking. */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, LOOPBACK)) {
            return s.getLocalPort();
        }
    }

    /**
     * Starts {@code command} in {@code dir} (its stdout and stderr to a file there) and waits up
     * to 10 s until {@code port} accepts connections. When the process exits first or the port
     * stays closed, stops it, removes the folder and throws with what it printed.
     */
    static LoopbackDaemon start(String name, Path dir, int port, List<String> command) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.redirectErrorStream(true);
        pb.redirectOutput(dir.resolve(OUTPUT).toFile());
        LoopbackDaemon daemon = new LoopbackDaemon(name, dir, port, pb.start());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (!daemon.process.isAlive()) {
                String output = daemon.output();
                daemon.close();
                throw new IOException(name + " exited " + daemon.process.exitValue() + ": " + output);
            }
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress(LOOPBACK, port), 200);
                return daemon;
            } catch (IOException notYet) {
                sleep(50);
            }
        }
        String output = daemon.output();
        daemon.close();
        throw new IOException(name + " did not listen on " + port + " within 10 s: " + output);
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    /** What the daemon printed so far. */
    String output() {
        try {
            return Files.readString(dir.resolve(OUTPUT), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    /** SIGTERM, SIGKILL after 5 s, then the folder removed. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                // nginx's workers follow their master; a master gone by SIGKILL leaves them to init
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // a temporary folder left behind
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + ", port " + port + ")";
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
