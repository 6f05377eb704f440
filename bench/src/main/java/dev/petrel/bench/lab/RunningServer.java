package dev.petrel.bench.lab;

import java.io.ByteArrayOutputStream;
import dev.petrel.bench.servers.LabUnavailable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

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
     * until it answers {@code GET /} with 200, for at most {@code readyLimit}. With {@code tls} (and
     * a server that can), it also listens for HTTPS on {@code port + 1}; see {@link #awaitHttps}.
     */
    static RunningServer start(ServerSpec spec, int port, LabCertificate tls, int cpu, Path log, Duration readyLimit)
            throws IOException, InterruptedException {
        return start(spec, port, tls, false, cpu, log, readyLimit);
    }

    /**
     * {@link #start(ServerSpec, int, LabCertificate, int, Path, Duration)}, and with {@code ajp} (and a
     * server that can) an AJP listener on {@code port + 2}, which {@link #awaitAjp} waits for. The
     * server's own folder is a sibling of its log named after it.
     */
    static RunningServer start(ServerSpec spec, int port, LabCertificate tls, boolean ajp, int cpu, Path log,
                               Duration readyLimit) throws IOException, InterruptedException {
        return start(spec, port, tls, ajp, cpu, log, log.resolveSibling(spec.name()), readyLimit);
    }

    /**
     * {@link #start(ServerSpec, int, LabCertificate, boolean, int, Path, Duration)} with {@code folder}
     * as the server's own folder ({@link ServerSpec.Command#line}); a server that needs it makes it.
     */
    static RunningServer start(ServerSpec spec, int port, LabCertificate tls, boolean ajp, int cpu, Path log, Path folder,
                               Duration readyLimit) throws IOException, InterruptedException {
        return start(spec, port, tls, ajp, false, cpu, log, folder, readyLimit);
    }

    /**
     * {@link #start(ServerSpec, int, LabCertificate, boolean, int, Path, Path, Duration)}, and with
     * {@code h2} HTTP/2 too where the server speaks it: prior knowledge on {@code port}, ALPN on
     * {@code port + 1} ({@link ServerSpec.Command#line}). The readiness checks stay on HTTP/1.1.
     */
    static RunningServer start(ServerSpec spec, int port, LabCertificate tls, boolean ajp, boolean h2, int cpu, Path log,
                               Path folder, Duration readyLimit) throws IOException, InterruptedException {
        return start(spec, port, tls, ajp, h2, false, cpu, log, folder, readyLimit);
    }

    /**
     * {@link #start(ServerSpec, int, LabCertificate, boolean, boolean, int, Path, Path, Duration)}, and
     * with {@code webSocket} the lab's WebSocket echo too where the server speaks WebSocket
     * ({@link ServerSpec.Command#line}). The readiness check stays {@code GET /}.
     */
    static RunningServer start(ServerSpec spec, int port, LabCertificate tls, boolean ajp, boolean h2, boolean webSocket,
                               int cpu, Path log, Path folder, Duration readyLimit) throws IOException, InterruptedException {
        Files.createDirectories(log.getParent());
        List<String> command = spec.command().line(port, spec.tls() ? tls : null, ajp && spec.ajp(), h2, webSocket, folder);
        Process process = new ProcessBuilder(Commands.pinned(cpu, command))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        ProcessRegistry.add(process);
        RunningServer server = new RunningServer(spec, process, port);
        long deadline = System.nanoTime() + readyLimit.toNanos();
        while (true) {
            if (!process.isAlive()) {
                ProcessRegistry.remove(process);
                if (process.exitValue() == LabUnavailable.EXIT) {
                    String reason = unavailableReason(log);
                    if (reason != null) throw new ServerUnavailableException(spec.name(), reason);
                }
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

    /**
     * The reason a server gave for {@link LabUnavailable#EXIT}: the last line of its log that
     * starts with {@link LabUnavailable#PREFIX}, or {@code null} when there is none (another program
     * that happened to exit with the same status).
     */
    static String unavailableReason(Path log) throws IOException {
        String reason = null;
        for (String line : Files.readAllLines(log, java.nio.charset.StandardCharsets.UTF_8)) {
            if (line.startsWith(LabUnavailable.PREFIX)) reason = line.substring(LabUnavailable.PREFIX.length()).strip();
        }
        return reason == null || reason.isEmpty() ? null : reason;
    }

    ServerSpec spec() {
        return spec;
    }

    long pid() {
        return process.pid();
    }

    /**
     * The CPU times of the server's process and of every process under it now: a JVM is one
     * process, nginx a master and its worker ({@link ProcessCpu#sample}).
     */
    ProcessCpu.Sample cpuSample() throws IOException {
        return ProcessCpu.sample(process.pid(), descendants());
    }

    /** The PIDs of the processes under the server's (nginx's worker), as they are now. */
    List<Long> descendants() {
        return process.descendants().map(ProcessHandle::pid).toList();
    }

    /**
     * Waits until the HTTPS port ({@code port + 1}) answers {@code GET /} with 200 over a TLS
     * connection that trusts {@code client}'s certificate only. The HTTP readiness check says
     * nothing of the second listener, and a server's first TLS handshakes are its slowest (JSSE
     * loads and initializes then), so this runs before any HTTPS load.
     *
     * @throws IOException naming the last failure when the port has not answered within {@code limit}
     */
    void awaitHttps(SSLContext client, Duration limit) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        String last = "no attempt";
        while (true) {
            if (!process.isAlive()) throw new IOException(spec.name() + " exited with " + process.exitValue());
            try {
                String response = fetchRootHttps(client);
                if (response.startsWith("HTTP/1.1 200") || response.startsWith("HTTP/1.0 200")) return;
                last = "answered " + response.lines().findFirst().orElse("nothing");
            } catch (IOException e) {
                last = e.toString();
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("HTTPS on port " + (port + 1) + " did not answer GET / with 200 within "
                        + limit.toSeconds() + " s (last: " + last + ")");
            }
            Thread.sleep(100);
        }
    }

    /**
     * Waits until the AJP port ({@code port + 2}) accepts a TCP connection, which is closed again
     * at once without a packet: the HTTP readiness check says nothing of a third listener.
     *
     * @throws IOException naming the last failure when the port has not accepted within {@code limit}
     */
    void awaitAjp(Duration limit) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        String last = "no attempt";
        while (true) {
            if (!process.isAlive()) throw new IOException(spec.name() + " exited with " + process.exitValue());
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port + 2), 1000);
                return;
            } catch (IOException e) {
                last = e.toString();
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("AJP on port " + (port + 2) + " did not accept a connection within "
                        + limit.toSeconds() + " s (last: " + last + ")");
            }
            Thread.sleep(100);
        }
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
            return exchangeRoot(socket);
        }
    }

    /**
     * {@link #fetchRoot()} over TLS on {@code port + 1}; handshake and read each get 5 s, as a cold
     * JVM's first handshake is slow.
     */
    String fetchRootHttps(SSLContext client) throws IOException {
        try (Socket plain = new Socket()) {
            plain.connect(new InetSocketAddress("127.0.0.1", port + 1), 1000);
            plain.setSoTimeout(5000);
            try (SSLSocket tls = (SSLSocket) client.getSocketFactory().createSocket(plain, "127.0.0.1", port + 1, true)) {
                tls.startHandshake();
                return exchangeRoot(tls);
            }
        }
    }

    /** Sends {@code GET /} on {@code socket} and reads the response, within the socket's read timeout. */
    private static String exchangeRoot(Socket socket) throws IOException {
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

    private static long contentLength(String head) {
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).strip().toLowerCase(Locale.ROOT).equals("content-length")) {
                return Long.parseLong(line.substring(colon + 1).strip());
            }
        }
        return -1;
    }

    /**
     * Stops the server by its PID: SIGTERM, then SIGKILL after 10 s. A server that runs processes of
     * its own (nginx's worker) stops them on SIGTERM; any still alive after it ended (it was killed)
     * are killed by their PIDs, taken before it was stopped, since they would no longer be its children.
     */
    void stop() {
        List<ProcessHandle> under = process.descendants().toList();
        ProcessRegistry.stop(process, Duration.ofSeconds(10));
        for (ProcessHandle left : under) {
            if (left.isAlive()) left.destroyForcibly();
        }
    }

    @Override
    public void close() {
        stop();
    }
}
