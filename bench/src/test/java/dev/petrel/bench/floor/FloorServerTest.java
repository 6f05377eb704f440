package dev.petrel.bench.floor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each floor server on its own port (chosen by the kernel) on 127.0.0.1, spoken to over a raw socket:
 * the exact bytes dummy.c answers, connections kept or closed as it does.
 */
class FloorServerTest {
    private static final String HEAD = "HTTP/1.1 200 OK\r\n"
            + "Content-Type: text/plain;charset=UTF-8\r\n"
            + "Content-Length: 10\r\n"
            + "Date: Sun, 22 Nov 2026 12:00:00 GMT\r\n";
    private static final String PLAIN = HEAD + "\r\nHelloWorld";
    private static final String KEEP_ALIVE = HEAD + "Connection: keep-alive\r\n\r\nHelloWorld";
    private static final int LIMIT_MILLIS = 5000;

    private FloorServer server;
    private Thread loop;

    @AfterEach
    void stop() throws InterruptedException {
        if (server == null) return;
        server.close();
        loop.join(LIMIT_MILLIS);
        assertThat(loop.isAlive()).as("the loop ended after close()").isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "ffm-epoll", "ffm-epoll-edge", "ffm-io_uring"})
    void answersTwoKeepAliveRequestsAndKeepsTheConnection(String kind) throws IOException {
        try (Socket socket = connect(kind)) {
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();

            out.write(ascii("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
            assertThat(read(in, PLAIN.length())).isEqualTo(PLAIN);
            out.write(ascii("GET /other HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
            assertThat(read(in, PLAIN.length())).isEqualTo(PLAIN);

            socket.setSoTimeout(300);
            assertThatThrownBy(in::read).as("still open, nothing more to read").isInstanceOf(SocketTimeoutException.class);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "ffm-epoll", "ffm-epoll-edge", "ffm-io_uring"})
    void answersAnHttp10RequestWithoutKeepAliveThenCloses(String kind) throws IOException {
        try (Socket socket = connect(kind)) {
            socket.getOutputStream().write(ascii("GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n"));

            assertThat(new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo(PLAIN);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "ffm-epoll", "ffm-epoll-edge", "ffm-io_uring"})
    void answersHttp10KeepAliveAsAbDoesWithTheHeader(String kind) throws IOException {
        try (Socket socket = connect(kind)) {
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();

            out.write(ascii("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\nHost: 127.0.0.1\r\n\r\n"));
            assertThat(read(in, KEEP_ALIVE.length())).isEqualTo(KEEP_ALIVE);
            out.write(ascii("GET / HTTP/1.1\r\nConnection: close\r\n\r\n"));
            assertThat(new String(in.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo(PLAIN);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "ffm-epoll", "ffm-epoll-edge", "ffm-io_uring"})
    void answersPipelinedAndSplitHeadsOnceEachAndSkipsABody(String kind) throws IOException, InterruptedException {
        try (Socket socket = connect(kind)) {
            OutputStream out = socket.getOutputStream();
            out.write(ascii("GET / HTTP/1.1\r\n\r\nHEAD / HTTP/1.1\r\n\r\nPOST / HTTP/1.1\r\nContent-Length: 18\r\n\r\nGET / HTTP/1.1\r\n\r\nGET / HT"));
            out.flush();
            Thread.sleep(50); // the rest of the last head comes in a read of its own
            out.write(ascii("TP/1.0\r\n\r\n"));

            String head = HEAD + "\r\n";
            assertThat(new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII))
                    .as("GET, HEAD, POST (its body, a request's bytes, skipped), then the split HTTP/1.0 GET, which closes")
                    .isEqualTo(PLAIN + head + PLAIN + PLAIN);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "ffm-epoll", "ffm-epoll-edge", "ffm-io_uring"})
    void answersEveryRequestOfAClientThatReadsLateStoppingWhileItsOutputWaits(String kind) throws Exception {
        int requests = 100_000; // about 12 MB of answers: far past a small receive window and a send buffer (4 MB at most by default)
        try (Socket socket = connect(kind, 8192)) {
            Thread writer = Thread.ofPlatform().name("pipelining-client").start(() -> {
                try {
                    OutputStream out = socket.getOutputStream();
                    byte[] request = ascii("GET / HTTP/1.1\r\n\r\n");
                    for (int i = 0; i < requests; i++) out.write(request);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            Thread.sleep(200); // the server's output fills before anything is read

            InputStream in = socket.getInputStream();
            byte[] expected = ascii(PLAIN);
            for (int i = 0; i < requests; i++) {
                byte[] got = in.readNBytes(expected.length);
                assertThat(got).as("answer %d of %d", i + 1, requests).isEqualTo(expected);
            }
            writer.join(LIMIT_MILLIS);
            assertThat(writer.isAlive()).as("the client wrote everything").isFalse();
        }
    }

    private Socket connect(String kind) throws IOException {
        return connect(kind, 0);
    }

    /** Starts a {@code kind} floor and connects to it, with a receive buffer this small unless 0. */
    private Socket connect(String kind, int receiveBuffer) throws IOException {
        server = switch (kind) {
            case "nio" -> new NioFloor(0);
            case "ffm-epoll" -> new FfmEpollFloor(0, false);
            case "ffm-epoll-edge" -> new FfmEpollFloor(0, true);
            case "ffm-io_uring" -> ioUringOrSkip();
            default -> throw new IllegalArgumentException(kind);
        };
        loop = Thread.ofPlatform().name("floor-" + kind).daemon().start(() -> {
            try {
                server.run();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        Socket socket = new Socket();
        if (receiveBuffer > 0) socket.setReceiveBufferSize(receiveBuffer);
        socket.connect(new java.net.InetSocketAddress(FloorServer.HOST, server.port()), LIMIT_MILLIS);
        socket.setSoTimeout(LIMIT_MILLIS);
        return socket;
    }

    /**
     * The io_uring floor, or the test skipped where the kernel refuses io_uring (a seccomp policy,
     * {@code kernel.io_uring_disabled}): that is the machine's choice, not a fault of the floor.
     */
    private static FloorServer ioUringOrSkip() throws IOException {
        try {
            return new FfmIoUringFloor(0);
        } catch (IOException e) {
            String message = String.valueOf(e.getMessage());
            org.junit.jupiter.api.Assumptions.assumeFalse(message.startsWith("io_uring_setup"), "io_uring refused here: " + message);
            throw e;
        }
    }

    /** Exactly {@code length} bytes, as ASCII; fails on an early end. */
    private static String read(InputStream in, int length) throws IOException {
        byte[] bytes = in.readNBytes(length);
        assertThat(bytes).as("bytes before the end").hasSize(length);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
