package dev.petrel.server.it;

import static dev.petrel.server.it.ClientFrames.BINARY;
import static dev.petrel.server.it.ClientFrames.CONTINUATION;
import static dev.petrel.server.it.ClientFrames.FIN;
import static dev.petrel.server.it.ClientFrames.PING;
import static dev.petrel.server.it.ClientFrames.RSV1;
import static dev.petrel.server.it.ClientFrames.TEXT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.server.WebSocketHandler;
import dev.petrel.server.WebSocketMessage;
import dev.petrel.server.config.WebSocketConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.zip.Deflater;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Attacks on the WebSocket server, each written by hand on a raw connection, and each followed by
 * the proof that the server is still well: a fresh session echoes and a plain HTTP request is
 * answered. Each attacker must see the close code the RFC gives, or be cut.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WebSocketHardeningTest {
    /** The close code of each session as its handler saw it when it returned (0: the session was still open then). */
    private final BlockingQueue<Integer> closeCodes = new LinkedBlockingQueue<>();

    private Server start(Transport kind, WebSocketConfig config, WebSocketHandler handler) throws IOException {
        Router router = Router.builder()
                .get("/", (request, response) -> response.send("plain"))
                .websocket("/ws", config, socket -> {
                    try {
                        handler.serve(socket);
                    } finally {
                        closeCodes.add(socket.closeCode());
                    }
                })
                .build();
        return TestServers.start(kind, router);
    }

    private static final WebSocketHandler ECHO = socket -> {
        for (WebSocketMessage message; (message = socket.receive()) != null; ) {
            switch (message) {
                case WebSocketMessage.Text text -> socket.sendText(text.text());
                case WebSocketMessage.Binary binary -> socket.sendBinary(binary.bytes());
            }
        }
    };

    /** Opens a session by hand on a fresh connection. */
    private static RawClient open(Server server, String extraHeaders, int receiveBuffer) throws IOException {
        RawClient client = RawClient.connect(server, receiveBuffer);
        RawResponse head = client.send(ClientFrames.handshake(extraHeaders)).readHead();
        assertThat(head.status()).as("the handshake's answer").isEqualTo(101);
        return client;
    }

    /** Sends {@code frames} on a fresh session; the server's close code, the connection having ended after it. */
    private static int closeCodeAfter(Server server, byte[] frames) throws IOException {
        try (RawClient client = open(server, "", 0)) {
            client.send(frames);
            int code = ClientFrames.readCloseCode(client.input());
            assertThat(client.readToEnd()).as("nothing after the close, then the end").isEmpty();
            return code;
        }
    }

    /** The server still serves others: a fresh session echoes and closes cleanly, and plain HTTP is answered. */
    private static void assertStillServes(Server server) throws IOException {
        try (RawClient client = open(server, "", 0)) {
            client.send(ClientFrames.text("still there?"));
            ClientFrames.ServerFrame echo = ClientFrames.read(client.input());
            assertThat(echo.first()).as("a final text frame").isEqualTo(FIN | TEXT);
            assertThat(echo.text()).isEqualTo("still there?");
            client.send(ClientFrames.close(1000));
            assertThat(ClientFrames.readCloseCode(client.input())).isEqualTo(1000);
        }
        try (RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(Requests.get("/")).read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo("plain");
        }
    }

    private int nextCloseCode() throws InterruptedException {
        Integer code = closeCodes.poll(10, TimeUnit.SECONDS);
        assertThat(code).as("the handler's session ended within 10 s").isNotNull();
        return code;
    }

    /**
     * A peer that vanishes without a close (the soak's WEBSOCKET_VANISH, issue 42) ends its session
     * with 1006, and the blocking handler's receive() failing under it is not logged as a handler
     * failure: no WARNING with a stack trace for what clients do every day.
     */
    @TransportTest
    void aPeerThatResetsEndsTheSessionWith1006AndNoHandlerFailureIsLogged(Transport kind) throws Exception {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger("dev.petrel.server.websocket");
        java.util.List<java.util.logging.LogRecord> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler recorder = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                if (record.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) warnings.add(record);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        logger.addHandler(recorder);
        try (Server server = start(kind, WebSocketConfig.DEFAULT, ECHO)) {
            try (RawClient client = open(server, "", 0)) {
                client.send(ClientFrames.text("here"));
                assertThat(ClientFrames.read(client.input()).text()).isEqualTo("here");
                client.reset();
            }
            assertThat(nextCloseCode()).as("the session's close code").isEqualTo(1006);
            assertStillServes(server);
            assertThat(warnings).as("warnings logged").extracting(java.util.logging.LogRecord::getMessage).isEmpty();
        } finally {
            logger.removeHandler(recorder);
        }
    }

    @TransportTest
    void aFrameClaiming2To63BytesIsAProtocolErrorAndOneClaimingJustLessIsTooBig(Transport kind) throws Exception {
        try (Server server = start(kind, WebSocketConfig.DEFAULT, ECHO)) {
            // a 64-bit length with its most significant bit set (section 5.2)
            assertThat(closeCodeAfter(server, ClientFrames.header(FIN | BINARY, Long.MIN_VALUE))).isEqualTo(1002);
            assertThat(nextCloseCode()).isEqualTo(1002);
            assertThat(closeCodeAfter(server, ClientFrames.header(FIN | BINARY, Long.MAX_VALUE))).isEqualTo(1009);
            assertThat(nextCloseCode()).isEqualTo(1009);
            assertStillServes(server);
        }
    }

    @TransportTest
    void aFragmentedPingAndAPingOver125BytesAreProtocolErrors(Transport kind) throws Exception {
        try (Server server = start(kind, WebSocketConfig.DEFAULT, ECHO)) {
            assertThat(closeCodeAfter(server, ClientFrames.frame(PING, new byte[] {'x'}))).as("FIN=0").isEqualTo(1002);
            assertThat(nextCloseCode()).isEqualTo(1002);
            assertThat(closeCodeAfter(server, ClientFrames.frame(FIN | PING, new byte[126]))).as("126 bytes").isEqualTo(1002);
            assertThat(nextCloseCode()).isEqualTo(1002);
            assertStillServes(server);
        }
    }

    @TransportTest
    void invalidUtf8InTheMiddleOfAFragmentedTextIsRefusedWith1007BeforeItsEnd(Transport kind) throws Exception {
        try (Server server = start(kind, WebSocketConfig.DEFAULT, ECHO)) {
            ByteArrayOutputStream frames = new ByteArrayOutputStream();
            frames.writeBytes(ClientFrames.frame(TEXT, "héllo, ".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            frames.writeBytes(ClientFrames.frame(CONTINUATION, new byte[] {'o', 'k', (byte) 0xC0, (byte) 0xAF, 'x'}));
            // no final fragment: the server must not wait for one to find the message invalid
            assertThat(closeCodeAfter(server, frames.toByteArray())).isEqualTo(1007);
            assertThat(nextCloseCode()).isEqualTo(1007);
            assertStillServes(server);
        }
    }

    /**
     * 100,000 pings of 125 bytes, and none of the pongs read: 12.7 MB of pongs that cannot all
     * fit in the sockets' buffers. The server answers each as it reads it, so it stops reading
     * when it cannot write (the client's writes block in turn) and queues nothing; the pong that
     * waits past the send timeout ends the session with 1008.
     */
    @TransportTest
    void aPingFloodThatReadsNoPongIsCutAtTheSendTimeout(Transport kind) throws Exception {
        WebSocketConfig config = WebSocketConfig.DEFAULT.withSendTimeout(Duration.ofSeconds(1));
        try (Server server = start(kind, config, ECHO);
             RawClient attacker = open(server, "", 4096)) {
            byte[] batch = repeated(ClientFrames.frame(FIN | PING, new byte[125]), 1_000);
            Thread flood = Thread.ofPlatform().daemon(true).start(() -> {
                try {
                    for (int i = 0; i < 100; i++) attacker.send(batch);
                } catch (IOException e) {
                    // the server reset the connection: the flood is over
                }
            });
            assertThat(nextCloseCode()).as("the session's end, as its handler saw it").isEqualTo(1008);
            flood.join(TimeUnit.SECONDS.toMillis(10));
            assertThat(flood.isAlive()).as("the flood's writes ended with the connection").isFalse();
            TestServers.awaitLiveConnections(server, 0);
            assertStillServes(server);
        }
    }

    /** A message of 1 GiB of zeros, deflated to about 1 MB, to a route that takes 2 MiB: the server inflates no more than that. */
    @TransportTest
    void anInflateBombIsRefusedWith1009(Transport kind) throws Exception {
        WebSocketConfig config = WebSocketConfig.DEFAULT.withMaxMessageSize(2 << 20);
        try (Server server = start(kind, config, ECHO);
             RawClient attacker = open(server, "Sec-WebSocket-Extensions: permessage-deflate\r\n", 0)) {
            byte[] bomb = InflateBomb.FRAME;
            Thread sender = Thread.ofPlatform().daemon(true).start(() -> {
                try {
                    attacker.send(bomb);
                } catch (IOException e) {
                    // the server closed before it had all: fine
                }
            });
            assertThat(ClientFrames.readCloseCode(attacker.input())).isEqualTo(1009);
            assertThat(nextCloseCode()).isEqualTo(1009);
            sender.join(TimeUnit.SECONDS.toMillis(10));
            assertThat(sender.isAlive()).isFalse();
            TestServers.awaitLiveConnections(server, 0);
            assertStillServes(server);
        }
    }

    /** 1 GiB of zeros deflated once for all the variants, in one masked binary frame with RSV1 (permessage-deflate). */
    private static final class InflateBomb {
        static final byte[] FRAME = build();

        private static byte[] build() {
            Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
            ByteArrayOutputStream compressed = new ByteArrayOutputStream(1 << 20);
            byte[] zeros = new byte[1 << 20];
            byte[] out = new byte[64 * 1024];
            try {
                for (int i = 0; i < 1024; i++) {
                    deflater.setInput(zeros);
                    while (!deflater.needsInput()) compressed.write(out, 0, deflater.deflate(out, 0, out.length, Deflater.NO_FLUSH));
                }
                int n;
                while ((n = deflater.deflate(out, 0, out.length, Deflater.SYNC_FLUSH)) > 0) compressed.write(out, 0, n);
            } finally {
                deflater.end();
            }
            byte[] payload = compressed.toByteArray();
            // permessage-deflate leaves out the flush's empty block, 00 00 ff ff (RFC 7692 section 7.2.1)
            payload = Arrays.copyOf(payload, payload.length - 4);
            return ClientFrames.frame(FIN | RSV1 | BINARY, payload);
        }
    }

    /**
     * A client that reads nothing while its handler sends 256 KiB messages: the send that cannot
     * be written within the route's send timeout (1 s) fails, saying so, and ends the session
     * with 1008; receive() then returns null, and the connection is freed.
     */
    @TransportTest
    void aClientThatReadsNothingIsCutAtTheSendTimeoutWith1008(Transport kind) throws Exception {
        BlockingQueue<Object> outcome = new LinkedBlockingQueue<>();
        try (Server server = start(kind, WebSocketConfig.DEFAULT.withSendTimeout(Duration.ofSeconds(1)), floodOnAsking(outcome));
             RawClient idle = open(server, "X-Flood: yes\r\n", 4096)) {
            assertFloodCut(server, outcome, "within the send timeout");
        }
    }

    /**
     * The same client, cut this time by the server's own write timeout (1 s, below the route's
     * send timeout of 30 s), on the blocking transports by their write watchdog: the session ends
     * with 1008 all the same.
     */
    @TransportTest
    void aClientThatReadsNothingIsCutAtTheServersWriteTimeoutWith1008Too(Transport kind) throws Exception {
        BlockingQueue<Object> outcome = new LinkedBlockingQueue<>();
        Router router = Router.builder()
                .get("/", (request, response) -> response.send("plain"))
                .websocket("/ws", WebSocketConfig.DEFAULT, socket -> {
                    try {
                        floodOnAsking(outcome).serve(socket);
                    } finally {
                        closeCodes.add(socket.closeCode());
                    }
                })
                .build();
        try (Server server = TestServers.start(kind, TestServers.config().writeTimeout(Duration.ofSeconds(1)).build(), router);
             RawClient idle = open(server, "X-Flood: yes\r\n", 4096)) {
            assertFloodCut(server, outcome, "within the server's write timeout");
        }
    }

    /** A handler that sends 256 KiB messages until a send fails when the client asks with {@code X-Flood}; an echo otherwise. */
    private static WebSocketHandler floodOnAsking(BlockingQueue<Object> outcome) {
        return socket -> {
            if (socket.header("X-Flood") == null) { // the others the server still serves
                ECHO.serve(socket);
                return;
            }
            byte[] message = new byte[256 * 1024];
            for (int i = 0; i < 10_000; i++) {
                long start = System.nanoTime();
                try {
                    socket.sendBinary(message);
                } catch (IOException e) {
                    outcome.add(Duration.ofNanos(System.nanoTime() - start));
                    outcome.add(e);
                    outcome.add(String.valueOf(socket.receive()));
                    return;
                }
            }
            outcome.add("all sent");
        };
    }

    /** The flood's send failed after waiting about 1 s, saying {@code why}; the session ended with 1008 and the server serves others. */
    private void assertFloodCut(Server server, BlockingQueue<Object> outcome, String why) throws Exception {
        Object first = outcome.poll(15, TimeUnit.SECONDS);
        assertThat(first).as("a send failed within 15 s").isInstanceOf(Duration.class);
        assertThat((Duration) first).as("the failed send's wait").isBetween(Duration.ofMillis(900), Duration.ofMillis(2_500));
        assertThat(outcome.poll(1, TimeUnit.SECONDS)).asInstanceOf(InstanceOfAssertFactories.THROWABLE)
                .isInstanceOf(IOException.class).hasMessageContaining(why);
        assertThat(outcome.poll(5, TimeUnit.SECONDS)).as("receive() after the cut").isEqualTo("null");
        assertThat(nextCloseCode()).isEqualTo(1008);
        TestServers.awaitLiveConnections(server, 0);
        assertStillServes(server);
    }

    /**
     * Close handshakes left half done. A client that sends its close and then neither reads nor
     * closes: the server answers, and ends the connection at the end of its linger (2 s). And a
     * server's close the client never answers: the same.
     */
    @TransportTest
    void aCloseHandshakeLeftHalfDoneEndsTheConnectionWithinTheLinger(Transport kind) throws Exception {
        WebSocketHandler oneMessage = socket -> {
            WebSocketMessage message = socket.receive();
            if (message instanceof WebSocketMessage.Text text) socket.sendText(text.text());
        };
        try (Server server = start(kind, WebSocketConfig.DEFAULT, oneMessage)) {
            try (RawClient client = open(server, "", 0)) {
                long start = System.nanoTime();
                client.send(ClientFrames.close(1000));
                assertThat(nextCloseCode()).as("the client's code").isEqualTo(1000);
                TestServers.awaitLiveConnections(server, 0);
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(4_500));
                assertThat(ClientFrames.readCloseCode(client.input())).as("the answer, read late").isEqualTo(1000);
                assertThat(client.readToEnd()).isEmpty();
            }
            try (RawClient client = open(server, "", 0)) {
                client.send(ClientFrames.text("bye"));
                assertThat(ClientFrames.read(client.input()).text()).isEqualTo("bye");
                long start = System.nanoTime(); // the handler returns: the server sends its close, which is never answered
                assertThat(nextCloseCode()).as("still open as the handler returned").isZero();
                TestServers.awaitLiveConnections(server, 0);
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(4_500));
                assertThat(ClientFrames.readCloseCode(client.input())).isEqualTo(1000);
                assertThat(client.readToEnd()).isEmpty();
            }
            assertStillServes(server);
        }
    }

    private static final int IDLE_SESSIONS = 10_000;

    /**
     * 10,000 sessions opened and left idle: all are upgraded and held, each still echoes, others
     * are served meanwhile, and all are freed once their clients go. The clients run in a process
     * of their own ({@link IdleWebSocketClients}), so that this JVM needs a file descriptor per
     * session, not two. HotSpot raises its soft open-file limit to the hard one on Linux, so the
     * hard limit ({@code ulimit -Hn}) is what counts.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Transport.class, names = {"NIO", "VIRTUAL"})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void tenThousandIdleSessionsAreHeldAndStillEchoWhileOthersAreServed(Transport kind) throws Exception {
        long limit = ((com.sun.management.UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getMaxFileDescriptorCount();
        Assumptions.assumeTrue(limit >= IDLE_SESSIONS + 1_000, () -> "the open-file limit is " + limit + " (ulimit -Hn):"
                + " 10,000 sessions need about 11,000, in this JVM and in the clients' process each");
        Router router = Router.builder()
                .get("/", (request, response) -> response.send("plain"))
                .websocket("/ws", ECHO)
                .build();
        try (Server server = TestServers.builder(kind, TestServers.config().build(), router).maxConnections(IDLE_SESSIONS + 100).start()) {
            Process clients = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
                    "-cp", System.getProperty("java.class.path"), IdleWebSocketClients.class.getName(),
                    String.valueOf(server.address().getPort()), String.valueOf(IDLE_SESSIONS))
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            try {
                BlockingQueue<String> lines = new LinkedBlockingQueue<>();
                Thread.ofPlatform().daemon(true).start(() -> clients.inputReader().lines().forEach(lines::add));
                assertThat(lines.poll(45, TimeUnit.SECONDS)).as("the clients' report within 45 s").isEqualTo("opened " + IDLE_SESSIONS);
                assertThat(server.liveConnections()).isEqualTo(IDLE_SESSIONS);
                assertStillServes(server);
                clients.outputWriter().append("echo\n").flush();
                assertThat(lines.poll(20, TimeUnit.SECONDS)).as("the echoes within 20 s").isEqualTo("echoed " + IDLE_SESSIONS);
                clients.outputWriter().append("close\n").flush();
                assertThat(clients.waitFor(10, TimeUnit.SECONDS)).as("the clients closed all and ended").isTrue();
                assertThat(clients.exitValue()).isZero();
                TestServers.awaitCondition("every session freed (" + server.liveConnections() + " left)", Duration.ofSeconds(20),
                        () -> server.liveConnections() == 0);
            } finally {
                clients.destroyForcibly();
            }
        }
    }

    private static byte[] repeated(byte[] frame, int times) {
        byte[] all = new byte[frame.length * times];
        for (int i = 0; i < times; i++) System.arraycopy(frame, 0, all, i * frame.length, frame.length);
        return all;
    }
}
