package dev.petrel.bench.lab;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/** A server process the lab started, pinned to a CPU, until {@link #stop()}. */
final class RunningServer implements AutoCloseable {
    private final ServerSpec spec;
    private final Process process;
    private final int port;

    private RunningServer(ServerSpec spec, Process process, int port) {
        this.spec = spec;
        this.process = process;
        this.port = port;
    }

    /**
     * Starts {@code spec} on {@code port} pinned to {@code cpu}, logging to {@code log}, and waits
     * until it answers {@code GET /} with 200, for at most {@code readyLimit}.
     */
    static RunningServer start(ServerSpec spec, int port, int cpu, Path log, Duration readyLimit)
            throws IOException, InterruptedException {
        Files.createDirectories(log.getParent());
        Process process = new ProcessBuilder(Commands.pinned(cpu, spec.command().apply(port)))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        ProcessRegistry.add(process);
        RunningServer server = new RunningServer(spec, process, port);
        long deadline = System.nanoTime() + readyLimit.toNanos();
        while (true) {
            if (!process.isAlive()) {
                ProcessRegistry.remove(process);
                throw new IOException(spec.name() + " exited with " + process.exitValue() + " before it was ready (see " + log + ")");
            }
            try {
                String response = server.fetchRoot();
                if (response.startsWith("HTTP/1.1 200") || response.startsWith("HTTP/1.0 200")) return server;
            } catch (IOException notYet) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                server.stop();
                throw new IOException(spec.name() + " did not answer GET / within " + readyLimit.toSeconds() + " s (see " + log + ")");
            }
            Thread.sleep(50);
        }
    }

    ServerSpec spec() {
        return spec;
    }

    long pid() {
        return process.pid();
    }

    /**
     * Sends {@code GET / HTTP/1.1} on a fresh connection and returns the exact response (head and
     * body, read by its Content-Length, or to the end of the stream): the sample of each server's
     * bytes that the report shows.
     */
    String fetchRoot() throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            socket.setSoTimeout(2000);
            OutputStream out = socket.getOutputStream();
            out.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream response = new ByteArrayOutputStream();
            int headEnd = -1;
            long bodyLength = -1;
            byte[] buffer = new byte[4096];
            while (true) {
                if (headEnd >= 0 && bodyLength >= 0 && response.size() >= headEnd + bodyLength) break;
                int n = in.read(buffer);
                if (n < 0) break;
                response.write(buffer, 0, n);
                if (headEnd < 0) {
                    String text = response.toString(StandardCharsets.ISO_8859_1);
                    int end = text.indexOf("\r\n\r\n");
                    if (end >= 0) {
                        headEnd = end + 4;
                        bodyLength = contentLength(text.substring(0, end));
                    }
                }
            }
            return response.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private static long contentLength(String head) {
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).strip().toLowerCase(Locale.ROOT).equals("content-length")) {
                return Long.parseLong(line.substring(colon + 1).strip());
            }
        }
        return -1;
    }

    /** Stops the server by its PID: SIGTERM, then SIGKILL after 10 s. */
    void stop() {
        ProcessRegistry.stop(process, Duration.ofSeconds(10));
    }

    @Override
    public void close() {
        stop();
    }
}
