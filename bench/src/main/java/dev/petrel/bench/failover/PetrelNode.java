package dev.petrel.bench.failover;

import dev.petrel.bench.support.ChildProcesses;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A stateless backend of the failover scenario: {@code petrel serve} (the demo site, Petrel's own
 * handler API) with an AJP listener for httpd, the PROXY protocol on its HTTP port for HAProxy and
 * an admin port whose {@code /health} says when it serves. A child process, stopped by its pid.
 */
final class PetrelNode implements Backend {
    private final String route;
    private final List<String> command;
    private final int proxyPort;
    private final int ajpPort;
    private final int adminPort;
    private final Path log;
    private Process process;

    PetrelNode(String route, Path java, Path libraries, Path dir, int proxyPort, int ajpPort, int adminPort) {
        this.route = route;
        this.proxyPort = proxyPort;
        this.ajpPort = ajpPort;
        this.adminPort = adminPort;
        this.log = dir.resolve(route + ".log");
        this.command = List.of(java.toString(), "-Xmx256m", "-cp", libraries + File.separator + "*", "dev.petrel.server.cli.Main",
                "serve", "--host", "127.0.0.1", "--port", Integer.toString(proxyPort), "--proxy-protocol", "--trusted-proxy", "127.0.0.1/32",
                "--ajp-port", Integer.toString(ajpPort), "--ajp-no-secret", "--admin-port", Integer.toString(adminPort),
                "--shutdown-grace", "10");
    }

    @Override
    public String route() {
        return route;
    }

    @Override
    public int proxyPort() {
        return proxyPort;
    }

    @Override
    public int ajpPort() {
        return ajpPort;
    }

    @Override
    public void start() throws IOException, InterruptedException {
        if (process != null && process.isAlive()) throw new IllegalStateException(route + " runs already");
        Files.createDirectories(log.getParent());
        process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) throw new IOException("petrel serve (" + route + ") exited: " + Files.readString(log));
            if (healthy()) return;
            Thread.sleep(50);
        }
        kill();
        throw new IOException("petrel serve (" + route + ") did not answer within 30 s: " + Files.readString(log));
    }

    /** Whether its admin port says it serves ({@code /health} 200; 503 while draining). */
    private boolean healthy() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", adminPort), 500);
            s.setSoTimeout(2000);
            OutputStream out = s.getOutputStream();
            out.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            return new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII).equals("HTTP/1.1 200");
        } catch (IOException notYet) {
            return false;
        }
    }

    @Override
    public void stop() {
        end(false);
    }

    @Override
    public void kill() {
        end(true);
    }

    private void end(boolean kill) {
        ChildProcesses.end(process, kill);
    }

    @Override
    public String toString() {
        return route + " (petrel serve, proxy " + proxyPort + ", ajp " + ajpPort + ", admin " + adminPort + ")";
    }
}
