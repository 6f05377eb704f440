package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The websocket scenario's C floor (bench/baseline/ws-echo.c, compiled here with gcc as the lab
 * does) under the lab's own WebSocket clients: the load tool's check, round trips and rate, and
 * the idle-session client. Both sides are checked at once: a fault in either fails the echo.
 * Counts are small and limits generous: nothing here measures.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WebSocketFloorTest {
    private static final Duration LIMIT = Duration.ofSeconds(30);

    @TempDir
    static Path dir;
    private static Process floor;
    private static int port;

    @BeforeAll
    static void startTheFloor() throws Exception {
        assumeTrue(Lab.onPath("gcc"), "gcc builds the floor");
        Path binary = dir.resolve("ws-echo");
        Process gcc = new ProcessBuilder("gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-o", binary.toString(), "baseline/ws-echo.c")
                .redirectErrorStream(true).start();
        String said = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(gcc.waitFor()).as("gcc: %s", said).isZero();
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        floor = new ProcessBuilder(binary.toString(), Integer.toString(port)).redirectErrorStream(true)
                .redirectOutput(dir.resolve("floor.log").toFile()).start();
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (true) {
            try (Socket probe = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                if (System.nanoTime() > deadline || !floor.isAlive()) throw notYet;
                Thread.sleep(20);
            }
        }
    }

    @AfterAll
    static void stopTheFloor() throws InterruptedException {
        if (floor == null) return;
        floor.destroy(); // SIGTERM, by its PID
        assertThat(floor.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(floor.exitValue()).as("a clean stop on SIGTERM").isZero();
    }

    @Test
    void answersHttpWithHelloWorldAsTheHttpFloorDoes() throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5000);
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String response = new String(readAtLeast(socket.getInputStream(), 100), StandardCharsets.US_ASCII);

            assertThat(response).startsWith("HTTP/1.1 200 OK\r\n").contains("Content-Length: 10\r\n").endsWith("\r\n\r\nHelloWorld");
        }
    }

    @Test
    void passesTheLoadToolsCheckRoundTripsAndRate() {
        WebSocketLoad.Config config = WebSocketLoad.Config.parse(new String[] {Integer.toString(port), "/ws/echo", "60",
                Long.toString(floor.pid()), "check", "round-trip:text:10:50:200", "round-trip:binary:65536:5:20",
                "rate:10:text:10:100:300"});
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        boolean ok = WebSocketLoad.run(config, new PrintStream(out, true, StandardCharsets.UTF_8));

        WebSocketLoadOutput output = WebSocketLoadOutput.parse(out.toString(StandardCharsets.UTF_8));
        assertThat(ok).as(out.toString(StandardCharsets.UTF_8)).isTrue();
        assertThat(output.step("check").figure("messages")).isEqualTo(5);
        assertThat(output.step("round-trip:text:10:50:200").figure("count")).isEqualTo(200);
        assertThat(output.step("round-trip:binary:65536:5:20").figure("mean_us")).isPositive();
        WebSocketLoadOutput.StepResult rate = output.step("rate:10:text:10:100:300");
        assertThat(rate.figure("messages")).isPositive();
        assertThat(rate.figure("errors")).isZero();
        assertThat(rate.figure("server_cpu_ticks")).isNotNegative();
    }

    @Test
    void holdsIdleSessionsAndHearsAnEchoFromEachAgain() throws IOException {
        try (WebSocketIdleClient client = new WebSocketIdleClient(new InetSocketAddress("127.0.0.1", port), "/ws/echo")) {
            WebSocketIdleClient.Round open = client.open(60, 8, LIMIT, LIMIT, LIMIT);

            assertThat(open.attempted()).isEqualTo(60);
            assertThat(open.connected()).isEqualTo(60);
            assertThat(open.answered()).isEqualTo(60);
            assertThat(open.failureText()).isEqualTo("none");
            assertThat(client.held()).isEqualTo(60);

            WebSocketIdleClient.Round again = client.again(LIMIT, LIMIT);

            assertThat(again.answered()).isEqualTo(60);
            assertThat(client.held()).isEqualTo(60);
        }
    }

    @Test
    void theIdleClientCountsAnUpgradeRefusedElsewhere() throws IOException {
        try (WebSocketIdleClient client = new WebSocketIdleClient(new InetSocketAddress("127.0.0.1", port), "/not-the-echo")) {
            WebSocketIdleClient.Round open = client.open(3, 3, LIMIT, LIMIT, LIMIT);

            assertThat(open.answered()).isZero();
            assertThat(open.failed()).containsEntry(WebSocketIdleClient.Failure.NOT_UPGRADED, 3);
        }
    }

    @Test
    void closesASessionWhoseClientSendsAnUnmaskedFrame() throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5000);
            WebSocketHandshake handshake = new WebSocketHandshake("127.0.0.1", port, "/ws/echo", new java.util.SplittableRandom());
            socket.getOutputStream().write(handshake.request());
            InputStream in = socket.getInputStream();
            byte[] head = new byte[1024];
            int n = 0;
            while (WebSocketHandshake.headEnd(head, n) < 0) n += in.read(head, n, head.length - n);
            handshake.check(new String(head, 0, n, StandardCharsets.ISO_8859_1));

            socket.getOutputStream().write(new byte[] {(byte) 0x81, 0x01, 0x41});

            assertThat(in.read()).as("closed without an answer").isEqualTo(-1);
        }
    }

    private static byte[] readAtLeast(InputStream in, int atLeast) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        while (bytes.size() < atLeast) {
            int n = in.read(buffer);
            if (n < 0) break;
            bytes.write(buffer, 0, n);
            if (new String(bytes.toByteArray(), StandardCharsets.US_ASCII).endsWith("HelloWorld")) break;
        }
        return bytes.toByteArray();
    }

}
