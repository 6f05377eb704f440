package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http2.Frames;
import dev.petrel.http2.Http2ErrorCode;
import dev.petrel.http2.Http2Settings;
import dev.petrel.server.Handler;
import dev.petrel.server.config.Http2Config;
import dev.petrel.server.Request;
import dev.petrel.server.Response;
import dev.petrel.server.Server;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;

/**
 * The known HTTP/2 attacks, each run against the server on every transport: the attacking
 * connection is stopped (reset streams, {@code GOAWAY ENHANCE_YOUR_CALM}, a 431) and, in every
 * case, a second client is answered at once, while the attack's connection is still open or just
 * after. The limits are {@link Http2Config}'s defaults unless a test says otherwise.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Http2HardeningTest {
    private static final AtomicInteger RUNNING = new AtomicInteger();
    private static final AtomicInteger MOST_RUNNING = new AtomicInteger();

    /** The test app, and {@code /slow}: holds its thread 300 ms, counting how many run at once. */
    private static Handler handler() {
        return TestApp.routes().get("/slow", (req, res) -> {
            MOST_RUNNING.accumulateAndGet(RUNNING.incrementAndGet(), Math::max);
            try {
                Thread.sleep(300);
                res.send("slow");
            } finally {
                RUNNING.decrementAndGet();
            }
        }).build();
    }

    private static Server start(Transport kind) throws IOException {
        return start(kind, TestServers.config().build());
    }

    private static Server start(Transport kind, dev.petrel.server.config.ServerConfig config) throws IOException {
        return TestServers.builder(kind, config, handler())
                .handler(handlerFor(kind))
                .http2(Http2Config.ENABLED.withClearText(true))
                .start();
    }

    /**
     * The test app as {@code kind} serves it; with nio-inline, every route but {@code /slow} is
     * marked non-blocking: {@code /slow} holds its thread, and says so, so that its streams run
     * side by side as the attacks on handlers that hold threads need.
     */
    private static Handler handlerFor(Transport kind) {
        Handler app = handler();
        if (kind != Transport.NIO_INLINE) return app;
        return new Handler() {
            @Override
            public void handle(Request request, Response response) throws Exception {
                app.handle(request, response);
            }

            @Override
            public boolean mayBlock(Request request) {
                return request.path().equals("/slow");
            }
        };
    }

    /** Another client, on its own connection, is answered. */
    private static void othersAreAnswered(Server server) throws IOException {
        try (H2Client other = H2Client.connect(server.address().getPort())) {
            H2Client.Response response = other.get(1, "/");
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo("HelloWorld");
        }
    }

    /** CVE-2023-44487: streams opened and reset at once, faster than any handler finishes. */
    @PlainHttpTransportTest
    void rapidResetEndsTheConnection(Transport kind) throws Exception {
        RUNNING.set(0);
        MOST_RUNNING.set(0);
        try (Server server = start(kind); H2Client attacker = H2Client.connect(server.address().getPort())) {
            try {
                for (int id = 1; id < 2 * 5000; id += 2) {
                    attacker.headers(id, true, H2Client.get("/slow"));
                    attacker.rst(id, Http2ErrorCode.CANCEL);
                }
            } catch (IOException closedMeanwhile) {
                // the server may have cut the connection while the attack was still being written
            }
            H2Client.Frame goAway = attacker.awaitGoAway();
            assertThat(goAway.errorCode()).isEqualTo(Http2ErrorCode.ENHANCE_YOUR_CALM);
            othersAreAnswered(server);
            // the handlers the attack started were never more than the concurrent stream limit
            assertThat(MOST_RUNNING.get()).isLessThanOrEqualTo(Http2Config.DEFAULT.maxConcurrentStreams());
        }
    }

    /**
     * CVE-2025-8671 (MadeYouReset): streams the server is provoked into resetting itself, here by
     * a window update that overflows the stream's window (RFC 9113 section 6.9.1). Each such reset
     * counts as the client's own would; the handlers it started stay within the stream limit.
     */
    @PlainHttpTransportTest
    void provokedResetsEndTheConnection(Transport kind) throws Exception {
        RUNNING.set(0);
        MOST_RUNNING.set(0);
        try (Server server = start(kind); H2Client attacker = H2Client.connect(server.address().getPort())) {
            try {
                for (int id = 1; id < 2 * 5000; id += 2) {
                    attacker.headers(id, true, H2Client.get("/slow"));
                    attacker.windowUpdate(id, Integer.MAX_VALUE);
                }
            } catch (IOException closedMeanwhile) {
                // cut while writing
            }
            H2Client.Frame goAway = attacker.awaitGoAway();
            assertThat(goAway.errorCode()).isEqualTo(Http2ErrorCode.ENHANCE_YOUR_CALM);
            othersAreAnswered(server);
            assertThat(MOST_RUNNING.get()).isLessThanOrEqualTo(Http2Config.DEFAULT.maxConcurrentStreams());
        }
    }

    /** The 2024 CONTINUATION flood: a header block that never ends, in frames of bytes. */
    @PlainHttpTransportTest
    void continuationFloodIsCutAtTheHeaderSizeLimit(Transport kind) throws Exception {
        try (Server server = start(kind); H2Client attacker = H2Client.connect(server.address().getPort())) {
            byte[] fragment = new byte[1024];
            Arrays.fill(fragment, (byte) 0x40); // literal with indexing, new name: never a complete field at any cut
            int sent = 0;
            try {
                attacker.headersBlock(1, fragment, true, false);
                for (; sent < 10_000; sent++) attacker.continuation(1, fragment, false);
            } catch (IOException closedMeanwhile) {
                // cut while writing: what the test wants
            }
            H2Client.Frame goAway = attacker.awaitGoAway();
            assertThat(goAway.errorCode()).isEqualTo(Http2ErrorCode.ENHANCE_YOUR_CALM);
            othersAreAnswered(server);
        }
    }

    /** The same flood in empty CONTINUATION frames, which add no bytes to count. */
    @PlainHttpTransportTest
    void emptyContinuationFloodIsCut(Transport kind) throws Exception {
        try (Server server = start(kind); H2Client attacker = H2Client.connect(server.address().getPort())) {
            try {
                attacker.headersBlock(1, attacker.block(H2Client.get("/")), true, false);
                for (int i = 0; i < 100_000; i++) attacker.continuation(1, new byte[0], false);
            } catch (IOException closedMeanwhile) {
                // cut while writing
            }
            assertThat(attacker.awaitGoAway().errorCode()).isEqualTo(Http2ErrorCode.ENHANCE_YOUR_CALM);
            othersAreAnswered(server);
        }
    }

    /**
     * An HPACK bomb: one large value put in the dynamic table, then referenced again and again, so
     * that a few bytes decode to a huge list. The list is bounded while decoding: the stream gets a
     * 431 (RFC 9113 section 10.5.1) and the connection goes on.
     */
    @PlainHttpTransportTest
    void hpackBombGetsA431AndTheConnectionGoesOn(Transport kind) throws Exception {
        try (Server server = start(kind); H2Client client = H2Client.connect(server.address().getPort())) {
            String big = "x".repeat(1900); // its entry, 1,937 bytes, fits half the 4,096-byte table: indexed
            String[] fields = H2Client.get("/", "x-big", big);
            String[] bomb = Arrays.copyOf(fields, fields.length + 2 * 200);
            for (int i = fields.length; i < bomb.length; i += 2) {
                bomb[i] = "x-big";
                bomb[i + 1] = big; // an indexed field of one or two bytes each time, once in the table
            }
            byte[] block = client.block(bomb);
            assertThat(block.length).as("the bomb is small on the wire").isLessThan(4000);
            client.headersBlock(1, block, true, true);
            assertThat(client.response(1).status()).isEqualTo(431);
            assertThat(client.get(3, "/").text()).isEqualTo("HelloWorld");
        }
    }

    @PlainHttpTransportTest
    void pingFloodEndsTheConnection(Transport kind) throws Exception {
        try (Server server = start(kind); H2Client attacker = H2Client.connect(server.address().getPort())) {
            try {
                for (int i = 0; i < 20_000; i++) attacker.ping(i);
            } catch (IOException closedMeanwhile) {
                // cut while writing
            }
            assertThat(attacker.awaitGoAway().errorCode()).isEqualTo(Http2ErrorCode.ENHANCE_YOUR_CALM);
            othersAreAnswered(server);
        }
    }

    @PlainHttpTransportTest
    void settingsFloodEndsTheConnection(Transport kind) throws Exception {
        try (Server server = start(kind); H2Client attacker = H2Client.connect(server.address().getPort())) {
            try {
                for (int i = 0; i < 20_000; i++) attacker.settings(Http2Settings.HEADER_TABLE_SIZE, 4096);
            } catch (IOException closedMeanwhile) {
                // cut while writing
            }
            assertThat(attacker.awaitGoAway().errorCode()).isEqualTo(Http2ErrorCode.ENHANCE_YOUR_CALM);
            othersAreAnswered(server);
        }
    }

    @PlainHttpTransportTest
    void emptyDataFloodEndsTheConnection(Transport kind) throws Exception {
        try (Server server = start(kind); H2Client attacker = H2Client.connect(server.address().getPort())) {
            try {
                attacker.headers(1, false, H2Client.request("POST", "/ignore"));
                for (int i = 0; i < 20_000; i++) attacker.data(1, new byte[0], false);
            } catch (IOException closedMeanwhile) {
                // cut while writing
            }
            assertThat(attacker.awaitGoAway().errorCode()).isEqualTo(Http2ErrorCode.ENHANCE_YOUR_CALM);
            othersAreAnswered(server);
        }
    }

    /**
     * A client that never opens its window: the response waits within the write timeout, then its
     * stream is reset; the handler's thread is free again and the connection still serves.
     */
    @PlainHttpTransportTest
    void zeroWindowStallResetsTheStreamAfterTheWriteTimeout(Transport kind) throws Exception {
        try (Server server = start(kind, TestServers.config().writeTimeout(Duration.ofSeconds(1)).build());
             H2Client client = H2Client.connect(server.address().getPort(), Http2Settings.INITIAL_WINDOW_SIZE, 0)) {
            client.headers(1, true, H2Client.get("/stream?100000"));
            H2Client.Frame reset = client.await(f -> f.type() == Frames.RST_STREAM && f.streamId() == 1, "the stalled stream's reset");
            assertThat(reset.errorCode()).isEqualTo(Http2ErrorCode.INTERNAL_ERROR);
            client.settings(Http2Settings.INITIAL_WINDOW_SIZE, 65_535);
            assertThat(client.get(3, "/").text()).isEqualTo("HelloWorld");
            othersAreAnswered(server);
        }
    }

    /**
     * Request bodies the handler never reads still give the connection's window back: after more
     * than the whole connection window went to streams whose handlers ignored it, an upload on the
     * same connection still goes through.
     */
    @PlainHttpTransportTest
    void discardedBodiesStillCreditTheConnectionWindow(Transport kind) throws Exception {
        try (Server server = start(kind); H2Client client = H2Client.connect(server.address().getPort())) {
            byte[] chunk = new byte[16_384];
            int id = 1;
            for (long sent = 0; sent < 2L * Http2Config.DEFAULT.connectionWindowSize(); id += 2) {
                client.headers(id, false, H2Client.request("POST", "/ignore"));
                for (int i = 0; i < 3; i++) client.data(id, chunk, false); // 48 KiB: within the stream's window
                client.data(id, new byte[0], true);
                sent += 3 * chunk.length;
                assertThat(client.response(id).text()).isEqualTo("ignored");
            }
            byte[] upload = new byte[60_000]; // within the stream's own window: this client does not wait for updates
            Arrays.fill(upload, (byte) 'u');
            client.headers(id, false, H2Client.request("POST", "/echo"));
            for (int off = 0; off < upload.length; off += 16_384) {
                client.data(id, Arrays.copyOfRange(upload, off, Math.min(upload.length, off + 16_384)), false);
            }
            client.data(id, new byte[0], true);
            assertThat(client.response(id).body()).isEqualTo(upload);
        }
    }

    /** SETTINGS_MAX_CONCURRENT_STREAMS (default 100): the stream beyond it is refused, the others served. */
    @PlainHttpTransportTest
    void streamsBeyondTheLimitAreRefused(Transport kind) throws Exception {
        try (Server server = start(kind); H2Client client = H2Client.connect(server.address().getPort())) {
            int limit = Http2Config.DEFAULT.maxConcurrentStreams();
            for (int i = 0; i <= limit; i++) client.headers(1 + 2 * i, true, H2Client.get("/slow"));
            int refused = 1 + 2 * limit;
            H2Client.Frame reset = client.await(f -> f.type() == Frames.RST_STREAM, "a refused stream");
            assertThat(reset.streamId()).isEqualTo(refused);
            assertThat(reset.errorCode()).isEqualTo(Http2ErrorCode.REFUSED_STREAM);
            int answered = 0;
            while (answered < limit) {
                H2Client.Frame frame = client.await(f -> f.type() == Frames.DATA && f.has(Frames.FLAG_END_STREAM), "the answers");
                assertThat(frame.streamId()).isLessThan(refused);
                answered++;
            }
        }
    }
}
