package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http2.Frames;
import dev.petrel.http2.Http2ErrorCode;
import dev.petrel.http2.Http2Settings;
import dev.petrel.server.Handler;
import dev.petrel.server.config.Http2Config;
import dev.petrel.server.config.TransportKind;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Streams whose route never blocks run inline on the connection's reader, as an event-loop
 * server runs them; a handler that has to wait there after all hands reading to another thread
 * first, so the connection keeps reading (and answering) while that stream waits for the client.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Http2InlineTest {
    private static final int BIG = 50_000; // more than a window of 0, less than the connection's 65,535

    private static Server start(Transport kind, Duration writeTimeout) throws IOException {
        byte[] big = new byte[BIG];
        Arrays.fill(big, (byte) 'b');
        Router router = Router.builder()
                .get("/thread", Handler.nonBlocking((req, res) -> res.send(thread())))
                .get("/blocking-thread", (req, res) -> res.send(thread()))
                .get("/big", Handler.nonBlocking((req, res) -> res.send(big)))
                .get("/detach", Handler.nonBlocking((req, res) -> res.detach(Duration.ofSeconds(1))))
                .build();
        return TestServers.builder(kind, TestServers.config().writeTimeout(writeTimeout).build(), router)
                .http2(Http2Config.ENABLED.withClearText(true))
                .start();
    }

    /**
     * The thread a handler runs on, by its identity: a virtual thread's {@code toString()} names
     * the carrier it runs on at that moment too, which may change between two requests.
     */
    private static String thread() {
        Thread current = Thread.currentThread();
        return (current.isVirtual() ? "VirtualThread #" : "Thread #") + current.threadId() + " " + current.getName();
    }

    /** Ten requests for a non-blocking route, sent together, are answered on the reader, not on threads of their own. */
    @PlainHttpTransportTest
    void nonBlockingRoutesRunOnTheReader(Transport kind) throws Exception {
        try (Server server = start(kind, Duration.ofSeconds(10));
             H2Client client = H2Client.connect(server.address().getPort())) {
            for (int id = 1; id <= 19; id += 2) client.headers(id, true, H2Client.get("/thread"));
            Set<String> threads = new HashSet<>();
            for (int id = 1; id <= 19; id += 2) threads.add(client.response(id).text());
            assertThat(threads).allSatisfy(thread -> assertThat(thread).doesNotContain("petrel-h2-stream"));
            // the connection's reader: one thread for its life on a thread-per-connection transport; on nio a
            // connection left idle after a read goes back to the loop, and the next read may be another worker's
            if (kind.kind() != TransportKind.NIO) assertThat(threads).hasSize(1);

            // a route that may block runs on a stream thread of its own (but with nio-inline every route is marked non-blocking)
            String blocking = client.get(21, "/blocking-thread").text();
            if (kind != Transport.NIO_INLINE) assertThat(blocking).contains("petrel-h2-stream");
        }
    }

    /**
     * An inline response larger than the client's window: the handler waits for the window on its
     * own thread, while the connection reads on, answers a PING and serves another stream; once
     * the window opens, the response arrives whole.
     */
    @PlainHttpTransportTest
    void anInlineHandlerThatMustWaitHandsReadingOn(Transport kind) throws Exception {
        try (Server server = start(kind, Duration.ofSeconds(10));
             H2Client client = H2Client.connect(server.address().getPort(), Http2Settings.INITIAL_WINDOW_SIZE, 0)) {
            client.headers(1, true, H2Client.get("/big"));
            client.await(f -> f.type() == Frames.HEADERS && f.streamId() == 1, "the head of the stalled response");
            client.ping(42);
            H2Client.Frame pong = client.await(f -> f.type() == Frames.PING, "the PING's answer");
            assertThat(pong.has(Frames.FLAG_ACK)).isTrue();
            assertThat(pong.payload()).isEqualTo(java.nio.ByteBuffer.allocate(8).putLong(42).array());

            client.headers(3, true, H2Client.get("/thread"));
            client.await(f -> f.type() == Frames.HEADERS && f.streamId() == 3, "the head of the second response");
            client.settings(Http2Settings.INITIAL_WINDOW_SIZE, 65_535); // opens both streams' windows
            ByteArrayOutputStream[] bodies = {new ByteArrayOutputStream(), new ByteArrayOutputStream()};
            for (int ended = 0; ended < 2; ) {
                H2Client.Frame frame = client.await(f -> f.streamId() == 1 || f.streamId() == 3, "both responses");
                assertThat(frame.type()).as("stream %d's frame", frame.streamId()).isEqualTo(Frames.DATA);
                bodies[frame.streamId() / 2].writeBytes(frame.payload());
                if (frame.has(Frames.FLAG_END_STREAM)) ended++;
            }
            assertThat(bodies[0].size()).isEqualTo(BIG);
            assertThat(bodies[1].toString(StandardCharsets.UTF_8)).startsWith("VirtualThread").doesNotContain("petrel-h2-stream");
            assertThat(client.get(5, "/thread").text()).isNotEmpty();
        }
    }

    /** An inline handler stalled by a window that never opens is reset after the write timeout; the connection goes on. */
    @PlainHttpTransportTest
    void aStalledInlineResponseIsResetAndTheConnectionGoesOn(Transport kind) throws Exception {
        try (Server server = start(kind, Duration.ofSeconds(1));
             H2Client client = H2Client.connect(server.address().getPort(), Http2Settings.INITIAL_WINDOW_SIZE, 0)) {
            client.headers(1, true, H2Client.get("/big"));
            H2Client.Frame reset = client.await(f -> f.type() == Frames.RST_STREAM && f.streamId() == 1, "the stalled stream's reset");
            assertThat(reset.errorCode()).isEqualTo(Http2ErrorCode.INTERNAL_ERROR);
            client.settings(Http2Settings.INITIAL_WINDOW_SIZE, 65_535);
            assertThat(client.get(3, "/thread").text()).isNotEmpty();
        }
    }

    /** A handler inline on the reader must not detach its response (it would hold the reader): it gets a 500. */
    @PlainHttpTransportTest
    void anInlineHandlerCannotDetach(Transport kind) throws Exception {
        try (Server server = start(kind, Duration.ofSeconds(10));
             H2Client client = H2Client.connect(server.address().getPort())) {
            assertThat(client.get(1, "/detach").status()).isEqualTo(500);
            assertThat(new String(client.get(3, "/thread").body(), StandardCharsets.UTF_8)).isNotEmpty();
        }
    }
}
