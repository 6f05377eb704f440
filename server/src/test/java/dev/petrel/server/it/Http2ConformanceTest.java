package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http2.Frames;
import dev.petrel.http2.Http2ErrorCode;
import dev.petrel.http2.Http2Settings;
import dev.petrel.server.Handler;
import dev.petrel.server.config.Http2Config;
import dev.petrel.server.Server;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * RFC 9113 case by case against a running server, with frames no well-behaved client sends:
 * which breaches reset a stream and which end the connection, with which code, and that the
 * connection goes on after a stream error. The section of the RFC is in each test's name. The
 * engine is the same on every transport; these run on nio, and {@link Http2Test} runs real
 * clients on all of them.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class Http2ConformanceTest {
    private static Server start() throws IOException {
        return TestServers.builder(Transport.NIO, TestServers.config().build(), TestApp.handler())
                .http2(Http2Config.ENABLED.withClearText(true)).start();
    }

    private static H2Client connect(Server server) throws IOException {
        return H2Client.connect(server.address().getPort());
    }

    private static void assertStreamError(H2Client client, int streamId, Http2ErrorCode code) throws IOException {
        H2Client.Frame reset = client.await(f -> f.type() == Frames.RST_STREAM && f.streamId() == streamId, "RST_STREAM " + streamId);
        assertThat(reset.errorCode()).isEqualTo(code);
    }

    /**
     * Sends a PING and returns the codes of the RST_STREAM frames on {@code streamId} that come
     * before its answer: the server answers frames in the order they came, so these are its
     * answers to the frames sent before the PING.
     */
    private static List<Http2ErrorCode> resetsBeforePong(H2Client client, int streamId) throws IOException {
        client.ping(0x5A5A);
        List<Http2ErrorCode> codes = new ArrayList<>();
        while (true) {
            H2Client.Frame frame = client.await(f -> f.type() == Frames.PING
                    || f.type() == Frames.RST_STREAM && f.streamId() == streamId, "the PING's answer");
            if (frame.type() == Frames.PING) return codes;
            codes.add(frame.errorCode());
        }
    }

    /** A server whose GET /hold waits for {@code release}: its stream stays open while the test sends frames on it. */
    private static Server startHolding(CountDownLatch release) throws IOException {
        return TestServers.builder(Transport.NIO, TestServers.config().build(), TestApp.routes()
                .get("/hold", (req, res) -> {
                    release.await(20, TimeUnit.SECONDS);
                    res.send("released");
                })
                .get("/answer-then-hold", (req, res) -> {
                    res.send("answered"); // the last frame leaves; the handler has not returned
                    release.await(20, TimeUnit.SECONDS);
                }).build()).http2(Http2Config.ENABLED.withClearText(true)).start();
    }

    /** The connection goes on after a stream error: the next stream is answered. */
    private static void stillServes(H2Client client, int streamId) throws IOException {
        assertThat(client.get(streamId, "/").text()).isEqualTo("HelloWorld");
    }

    @Test
    void section3_4_anInvalidPrefaceEndsTheConnection() throws Exception {
        try (Server server = start(); java.net.Socket socket = new java.net.Socket("127.0.0.1", server.address().getPort())) {
            socket.setSoTimeout(5000);
            // a preface with a wrong last line: the plain port chose HTTP/2 by its first line
            socket.getOutputStream().write("PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] all = socket.getInputStream().readAllBytes();
            assertThat(all.length).isGreaterThan(Frames.HEADER_LENGTH);
            assertThat(new String(all, StandardCharsets.ISO_8859_1)).doesNotContain("HelloWorld");
        }
    }

    @Test
    void section4_2_aFrameLargerThanAdvertisedIsAConnectionError() throws Exception {
        try (Server server = start(); H2Client client = connect(server)) {
            client.headers(1, false, H2Client.request("POST", "/echo"));
            client.data(1, new byte[Frames.DEFAULT_MAX_FRAME_SIZE + 1], true);
            assertThat(client.awaitGoAway().errorCode()).isEqualTo(Http2ErrorCode.FRAME_SIZE_ERROR);
        }
    }

    @Test
    void section5_1_dataOnAnIdleStreamIsAConnectionError() throws Exception {
        try (Server server = start(); H2Client client = connect(server)) {
            client.data(5, new byte[] {1}, true);
            assertThat(client.awaitGoAway().errorCode()).isEqualTo(Http2ErrorCode.PROTOCOL_ERROR);
        }
    }

    @Test
    void section5_1_1_aClientCannotOpenAnEvenNumberedStream() throws Exception {
        try (Server server = start(); H2Client client = connect(server)) {
            client.headers(2, true, H2Client.get("/"));
            assertThat(client.awaitGoAway().errorCode()).isEqualTo(Http2ErrorCode.PROTOCOL_ERROR);
        }
    }

    @Test
    void section5_1_1_aStreamIdLowerThanOneUsedIsAConnectionError() throws Exception {
        try (Server server = start(); H2Client client = connect(server)) {
            stillServes(client, 5);
            client.headers(3, true, H2Client.get("/"));
            assertThat(client.awaitGoAway().errorCode()).isEqualTo(Http2ErrorCode.STREAM_CLOSED);
        }
    }

    @Test
    void section6_5_2_anInitialWindowAbove2To31IsAFlowControlError() throws Exception {
        try (Server server = start(); H2Client client = connect(server)) {
            ByteBuffer frame = ByteBuffer.allocate(Frames.HEADER_LENGTH + 6);
            frame.put(new byte[] {0, 0, 6, Frames.SETTINGS, 0, 0, 0, 0, 0});
            frame.putShort((short) Http2Settings.INITIAL_WINDOW_SIZE).putInt(0x80000000);
            client.raw(frame.array());
            assertThat(client.awaitGoAway().errorCode()).isEqualTo(Http2ErrorCode.FLOW_CONTROL_ERROR);
        }
    }

    @Test
    void section6_7_aPingIsAnsweredWithTheSameData() throws Exception {
        try (Server server = start(); H2Client client = connect(server)) {
            client.ping(0x0123456789ABCDEFL);
            H2Client.Frame pong = client.await(f -> f.type() == Frames.PING, "the PING ACK");
            assertThat(pong.has(Frames.FLAG_ACK)).isTrue();
            assertThat(ByteBuffer.wrap(pong.payload()).getLong()).isEqualTo(0x0123456789ABCDEFL);
        }
    }

    @Test
    void section6_9_1_aConnectionWindowBeyond2To31IsAFlowControlError() throws Exception {
        try (Server server = start(); H2Client client = connect(server)) {
            client.windowUpdate(0, Integer.MAX_VALUE);
            assertThat(client.awaitGoAway().errorCode()).isEqualTo(Http2ErrorCode.FLOW_CONTROL_ERROR);
        }
    }

    @Test
    void section6_9_aZeroIncrementOnAStreamIsAStreamError() throws Exception {
        try (Server server = start(); H2Client client = connect(server)) {
            client.headers(1, false, H2Client.request("POST", "/echo"));
            client.frame(Frames.WINDOW_UPDATE, 0, 1, new byte[4]);
            assertStreamError(client, 1, Http2ErrorCode.PROTOCOL_ERROR);
            stillServes(client, 3);
        }
    }

    @Test
    void section6_10_anInterleavedFrameInAHeaderBlockIsAConnectionError() throws Exception {
        try (Server server = start(); H2Client client = connect(server)) {
            client.headersBlock(1, client.block(H2Client.get("/")), true, false);
            client.ping(1);
            assertThat(client.awaitGoAway().errorCode()).isEqualTo(Http2ErrorCode.PROTOCOL_ERROR);
        }
    }

    @Test
    void section8_1_1_dataBeyondContentLengthIsMalformed() throws Exception {
        try (Server server = start(); H2Client client = connect(server)) {
            client.headers(1, false, H2Client.request("POST", "/echo", "content-length", "3"));
            client.data(1, "four".getBytes(StandardCharsets.US_ASCII), true);
            assertStreamError(client, 1, Http2ErrorCode.PROTOCOL_ERROR);
            stillServes(client, 3);
        }
    }

    @Test
    void section8_2_1_anUppercaseFieldNameIsMalformed() throws Exception {
        try (Server server = start(); H2Client client = connect(server)) {
            client.headers(1, true, H2Client.get("/", "X-Upper", "1"));
            assertStreamError(client, 1, Http2ErrorCode.PROTOCOL_ERROR);
            stillServes(client, 3);
        }
    }

    @Test
    void section8_2_2_aConnectionSpecificFieldIsMalformed() throws Exception {
        try (Server server = start(); H2Client client = connect(server)) {
            client.headers(1, true, H2Client.get("/", "connection", "keep-alive"));
            assertStreamError(client, 1, Http2ErrorCode.PROTOCOL_ERROR);
            client.headers(3, true, H2Client.get("/", "te", "gzip"));
            assertStreamError(client, 3, Http2ErrorCode.PROTOCOL_ERROR);
            client.headers(5, true, H2Client.get("/", "te", "trailers"));
            assertThat(client.response(5).text()).isEqualTo("HelloWorld");
        }
    }

    @Test
    void section8_3_1_aRequestWithoutPathIsMalformed() throws Exception {
        try (Server server = start(); H2Client client = connect(server)) {
            client.headers(1, true, ":method", "GET", ":scheme", "http", ":authority", "localhost");
            assertStreamError(client, 1, Http2ErrorCode.PROTOCOL_ERROR);
            stillServes(client, 3);
        }
    }

    @Test
    void section8_3_1_aHostThatDiffersFromTheAuthorityIsMalformed() throws Exception {
        try (Server server = start(); H2Client client = connect(server)) {
            client.headers(1, true, H2Client.get("/", "host", "elsewhere.example"));
            assertStreamError(client, 1, Http2ErrorCode.PROTOCOL_ERROR);
            stillServes(client, 3);
        }
    }

    @Test
    void section8_1_headHasNoBodyAndKeepsItsLength() throws Exception {
        try (Server server = start(); H2Client client = connect(server)) {
            client.headers(1, true, H2Client.request("HEAD", "/"));
            H2Client.Frame head = client.await(f -> f.type() == Frames.HEADERS && f.streamId() == 1, "the HEAD answer");
            assertThat(head.field(":status")).isEqualTo("200");
            assertThat(head.field("content-length")).isEqualTo("10");
            assertThat(head.has(Frames.FLAG_END_STREAM)).isTrue();
        }
    }

    @Test
    void section8_1_aBodyOfUnknownLengthAndTrailersReachTheHandler() throws Exception {
        try (Server server = TestServers.builder(Transport.NIO, TestServers.config().build(), TestApp.routes()
                .post("/trailers", (req, res) -> {
                    byte[] body = req.bodyBytes();
                    res.send(body.length + " " + req.trailers().first("x-checksum"));
                }).build()).http2(Http2Config.ENABLED.withClearText(true)).start();
             H2Client client = connect(server)) {
            client.headers(1, false, H2Client.request("POST", "/trailers"));
            client.data(1, new byte[1000], false);
            client.data(1, new byte[234], false);
            client.headers(1, true, "x-checksum", "abc");
            assertThat(client.response(1).text()).isEqualTo("1234 abc");
        }
    }

    /**
     * Section 8.1: a response before a body that cannot end within the window the client has asks
     * it to stop with RST_STREAM NO_ERROR: at once when content-length says so, else once the
     * window is spent. What the client sent before it saw the reset, trailers too, is ignored.
     */
    @Test
    void section8_1_aResponseBeforeABodyThatCannotEndInItsWindowEndsTheStreamWithNoError() throws Exception {
        try (Server server = start(); H2Client client = connect(server)) {
            client.headers(1, false, H2Client.request("POST", "/ignore", "content-length", "1000000"));
            assertThat(client.response(1).text()).isEqualTo("ignored");
            assertStreamError(client, 1, Http2ErrorCode.NO_ERROR);

            client.headers(3, false, H2Client.request("POST", "/ignore"));
            assertThat(client.response(3).text()).isEqualTo("ignored");
            for (int i = 0; i < 3; i++) client.data(3, new byte[16_384], false);
            assertThat(resetsBeforePong(client, 3)).as("window not yet spent").isEmpty();
            client.data(3, new byte[16_383], false); // 65,535: the default window, spent
            assertThat(resetsBeforePong(client, 3)).containsExactly(Http2ErrorCode.NO_ERROR);
            client.headers(3, true, ":method", "POST"); // malformed trailers, in flight meanwhile: ignored
            assertThat(resetsBeforePong(client, 3)).isEmpty();
            stillServes(client, 5);
        }
    }

    /**
     * Section 8.1 and 5.1: a response before a body that can still end within the client's window
     * leaves the stream half closed (local), so the rest is taken in and the stream ends with no
     * reset, and its trailers are checked: a pseudo-header among them is malformed (section
     * 8.1.2.1 of RFC 7540, h2spec's http2/8.1.2.1/3, whose handler may answer before they come).
     */
    @Test
    void section8_1_aBodyThatEndsInItsWindowAfterTheResponseIsTakenInAndItsTrailersChecked() throws Exception {
        try (Server server = start(); H2Client client = connect(server)) {
            client.headers(1, false, H2Client.request("POST", "/ignore"));
            assertThat(client.response(1).text()).isEqualTo("ignored");
            client.data(1, new byte[100], false);
            assertThat(resetsBeforePong(client, 1)).isEmpty();
            client.headers(1, true, ":method", "POST");
            assertThat(resetsBeforePong(client, 1)).containsExactly(Http2ErrorCode.PROTOCOL_ERROR);

            client.headers(3, false, H2Client.request("POST", "/ignore", "content-length", "200"));
            assertThat(client.response(3).text()).isEqualTo("ignored");
            client.data(3, new byte[100], false);
            client.data(3, new byte[100], true);
            assertThat(resetsBeforePong(client, 3)).as("a body that ends as declared").isEmpty();

            client.headers(5, false, H2Client.request("POST", "/ignore", "content-length", "200"));
            assertThat(client.response(5).text()).isEqualTo("ignored");
            client.data(5, new byte[100], false);
            client.headers(5, true, "x-checksum", "abc");
            assertThat(resetsBeforePong(client, 5)).as("less DATA than content-length")
                    .containsExactly(Http2ErrorCode.PROTOCOL_ERROR);
            stillServes(client, 7);
        }
    }

    /** Section 8.1: trailers follow the DATA as a last HEADERS block that ends the stream. */
    @Test
    void section8_1_responseTrailersEndTheStream() throws Exception {
        try (Server server = TestServers.builder(Transport.NIO, TestServers.config().build(), TestApp.routes()
                .get("/with-trailers", (req, res) -> {
                    res.trailer("x-checksum", "c0ffee");
                    try (var body = res.body()) {
                        body.write("part one, ".getBytes(StandardCharsets.US_ASCII));
                        body.flush();
                        body.write("part two".getBytes(StandardCharsets.US_ASCII));
                    }
                }).build()).http2(Http2Config.ENABLED.withClearText(true)).start();
             H2Client client = connect(server)) {
            client.headers(1, true, H2Client.get("/with-trailers"));
            StringBuilder body = new StringBuilder();
            H2Client.Frame frame;
            do {
                frame = client.await(f -> f.streamId() == 1, "the response");
                if (frame.type() == Frames.DATA) body.append(new String(frame.payload(), StandardCharsets.US_ASCII));
            } while (!frame.has(Frames.FLAG_END_STREAM));
            assertThat(frame.type()).isEqualTo(Frames.HEADERS);
            assertThat(frame.field("x-checksum")).isEqualTo("c0ffee");
            assertThat(frame.field(":status")).isNull();
            assertThat(body.toString()).isEqualTo("part one, part two");
        }
    }

    /** Section 5.2: a large response flows as the client opens its windows, to the last byte. */
    @Test
    void section5_2_aLargeResponseFlowsWithTheClientsWindows() throws Exception {
        try (Server server = start(); H2Client client = connect(server)) {
            H2Client.Response response = client.get(1, "/stream?1000000");
            assertThat(response.body()).hasSize(1_000_000);
            stillServes(client, 3);
        }
    }

    /** Section 8.1 and RFC 9110 section 10.1.1: the 100 comes before the client sends the body. */
    @Test
    void section8_1_expectContinueGetsAnInterim100() throws Exception {
        try (Server server = start(); H2Client client = connect(server)) {
            client.headers(1, false, H2Client.request("POST", "/echo", "expect", "100-continue"));
            H2Client.Frame interim = client.await(f -> f.type() == Frames.HEADERS && f.streamId() == 1, "the 100");
            assertThat(interim.field(":status")).isEqualTo("100");
            client.data(1, "body".getBytes(StandardCharsets.US_ASCII), true);
            assertThat(client.response(1).text()).isEqualTo("body");
        }
    }

    /** Section 5.1, "closed": DATA after the client's RST_STREAM, while the handler still runs, is a STREAM_CLOSED error. */
    @Test
    void section5_1_dataAfterTheClientsResetIsAStreamError() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (Server server = startHolding(release); H2Client client = connect(server)) {
            try {
                client.headers(1, false, H2Client.get("/hold"));
                client.rst(1, Http2ErrorCode.CANCEL);
                client.data(1, "test".getBytes(StandardCharsets.US_ASCII), true);
                assertThat(resetsBeforePong(client, 1)).containsExactly(Http2ErrorCode.STREAM_CLOSED);
            } finally {
                release.countDown();
            }
            stillServes(client, 3);
        }
    }

    /** The same once the response is complete: the stream was half closed (local) when the client reset it. */
    @Test
    void section5_1_dataAfterTheClientsResetOfAnAnsweredStreamIsAStreamError() throws Exception {
        try (Server server = start(); H2Client client = connect(server)) {
            client.headers(1, false, H2Client.get("/"));
            assertThat(client.response(1).text()).isEqualTo("HelloWorld");
            client.rst(1, Http2ErrorCode.CANCEL);
            client.data(1, "test".getBytes(StandardCharsets.US_ASCII), true);
            assertThat(resetsBeforePong(client, 1)).containsExactly(Http2ErrorCode.STREAM_CLOSED);
            stillServes(client, 3);
        }
    }

    /** Section 5.1, "closed": HEADERS after the client's RST_STREAM are a STREAM_CLOSED error, whatever they hold. */
    @Test
    void section5_1_headersAfterTheClientsResetIsAStreamError() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (Server server = startHolding(release); H2Client client = connect(server)) {
            try {
                client.headers(1, false, H2Client.get("/hold"));
                client.rst(1, Http2ErrorCode.CANCEL);
                client.headers(1, true, H2Client.get("/hold")); // a request's fields, as h2spec sends: not even valid trailers
                assertThat(resetsBeforePong(client, 1)).containsExactly(Http2ErrorCode.STREAM_CLOSED);
            } finally {
                release.countDown();
            }
            stillServes(client, 3);
        }
    }

    /**
     * Section 5.1, "half-closed (remote)": a second HEADERS on a stream the client ended, while its
     * handler still runs (h2spec's http2/5.1/6 against a handler that does not answer on the reader,
     * as Catalina's through the Tomcat connector), is STREAM_CLOSED whatever the block holds.
     */
    @Test
    void section5_1_headersOnAStreamTheClientEndedIsAStreamError() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (Server server = startHolding(release); H2Client client = connect(server)) {
            try {
                client.headers(1, true, H2Client.get("/hold"));
                client.headers(1, true, H2Client.get("/hold")); // a request's fields again: not even valid trailers
                assertThat(resetsBeforePong(client, 1)).containsExactly(Http2ErrorCode.STREAM_CLOSED);
            } finally {
                release.countDown();
            }
            stillServes(client, 3);
        }
    }

    /**
     * Section 5.1, "closed": HEADERS on a stream both sides ended is a connection error, also while
     * its handler has not yet returned (h2spec's http2/5.1/12 through Catalina, whose request
     * thread may still be finishing when the client has the response's END_STREAM).
     */
    @Test
    void section5_1_headersOnAStreamBothSidesEndedIsAConnectionErrorWhileItsHandlerRuns() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (Server server = startHolding(release); H2Client client = connect(server)) {
            try {
                client.headers(1, true, H2Client.get("/answer-then-hold"));
                assertThat(client.response(1).text()).isEqualTo("answered");
                client.headers(1, true, H2Client.get("/"));
                assertThat(client.awaitGoAway().errorCode()).isEqualTo(Http2ErrorCode.STREAM_CLOSED);
            } finally {
                release.countDown();
            }
        }
    }

    /**
     * Section 5.1, "half-closed (local)": a complete response does not close a stream the client
     * has not ended and sent no body on. The client ends it with an empty DATA frame, and no
     * RST_STREAM follows; if it sends body bytes instead, nobody reads them, and while they fit the
     * window it has they are taken in and dropped, as section 8.1 allows. A stream left half
     * closed does not keep the connection from its idle timeout.
     */
    @Test
    void section5_1_anAnsweredStreamStaysHalfClosedUntilTheClientEndsIt() throws Exception {
        try (Server server = TestServers.builder(Transport.NIO, TestServers.config().idleTimeout(Duration.ofSeconds(1)).build(),
                TestApp.handler()).http2(Http2Config.ENABLED.withClearText(true)).start();
             H2Client client = connect(server)) {
            client.headers(1, false, H2Client.get("/"));
            assertThat(client.response(1).text()).isEqualTo("HelloWorld");
            client.data(1, new byte[0], true);
            assertThat(resetsBeforePong(client, 1)).isEmpty();

            client.headers(3, false, H2Client.get("/"));
            assertThat(client.response(3).text()).isEqualTo("HelloWorld");
            client.data(3, new byte[100], false);
            assertThat(resetsBeforePong(client, 3)).as("a body within the window is taken in").isEmpty();
            client.data(3, new byte[100], true);
            assertThat(resetsBeforePong(client, 3)).isEmpty();

            client.headers(5, false, H2Client.get("/"));
            assertThat(client.response(5).text()).isEqualTo("HelloWorld");
            assertThat(client.awaitGoAway().errorCode()).isEqualTo(Http2ErrorCode.NO_ERROR); // idle, stream 5 still half closed
        }
    }

    /** Section 6.9.1: a stream window raised beyond 2^31-1 is a FLOW_CONTROL_ERROR, once the response is complete too. */
    @Test
    void section6_9_1_aStreamWindowBeyond2To31IsAFlowControlErrorOnAnAnsweredStream() throws Exception {
        try (Server server = start(); H2Client client = connect(server)) {
            client.headers(1, false, H2Client.get("/"));
            assertThat(client.response(1).text()).isEqualTo("HelloWorld");
            client.windowUpdate(1, Integer.MAX_VALUE);
            client.windowUpdate(1, Integer.MAX_VALUE);
            assertThat(resetsBeforePong(client, 1)).containsExactly(Http2ErrorCode.FLOW_CONTROL_ERROR);
            stillServes(client, 3);
        }
    }

    /** Section 8.1.1: more DATA than content-length is malformed, on a stream already answered too. */
    @Test
    void section8_1_1_dataBeyondContentLengthOnAnAnsweredStreamIsMalformed() throws Exception {
        try (Server server = start(); H2Client client = connect(server)) {
            client.headers(1, false, H2Client.request("POST", "/ignore", "content-length", "1"));
            assertThat(client.response(1).text()).isEqualTo("ignored");
            client.data(1, "test".getBytes(StandardCharsets.US_ASCII), true);
            assertThat(resetsBeforePong(client, 1)).containsExactly(Http2ErrorCode.PROTOCOL_ERROR);
            stillServes(client, 3);
        }
    }

    /**
     * Section 6.5.3 and 6.9.2: a new SETTINGS_INITIAL_WINDOW_SIZE opens the windows of the streams
     * in progress, and its acknowledgement leaves before the DATA it lets out, so that a client
     * sees its settings in force before their effect. Repeated, since the order used to depend on
     * which of two threads ran first.
     */
    @PlainHttpTransportTest
    void section6_9_2_aNewInitialWindowIsAcknowledgedBeforeTheDataItLetsOut(Transport kind) throws Exception {
        try (Server server = TestServers.builder(kind, TestServers.config().build(),
                Handler.nonBlocking((req, res) -> res.send("x"))).http2(Http2Config.ENABLED.withClearText(true)).start();
             H2Client client = connect(server)) {
            for (int id = 1; id <= 61; id += 2) {
                client.settings(Http2Settings.INITIAL_WINDOW_SIZE, 0);
                client.await(f -> f.type() == Frames.SETTINGS && f.has(Frames.FLAG_ACK), "the first SETTINGS ACK");
                client.headers(id, true, H2Client.get("/"));
                int stream = id;
                client.await(f -> f.type() == Frames.HEADERS && f.streamId() == stream, "the head of stream " + id);
                client.settings(Http2Settings.INITIAL_WINDOW_SIZE, 1);
                H2Client.Frame first = client.await(f -> f.type() == Frames.SETTINGS || f.streamId() == stream, "the ACK or the DATA");
                assertThat(first.type()).as("the first frame after the new window, stream %d", id).isEqualTo(Frames.SETTINGS);
                H2Client.Frame data = client.await(f -> f.streamId() == stream, "the DATA");
                assertThat(data.type()).isEqualTo(Frames.DATA);
                assertThat(data.payload()).hasSize(1);
                assertThat(data.has(Frames.FLAG_END_STREAM)).isTrue();
            }
        }
    }

    /** Section 6.8: a stopping server says GOAWAY and finishes the stream in flight. */
    @Test
    void section6_8_aGracefulStopFinishesTheStreamsInFlight() throws Exception {
        Server server = TestServers.builder(Transport.NIO, TestServers.config().build(), TestApp.routes()
                .get("/wait", (req, res) -> {
                    Thread.sleep(500);
                    res.send("finished");
                }).build()).http2(Http2Config.ENABLED.withClearText(true)).start();
        try (H2Client client = connect(server)) {
            client.headers(1, true, H2Client.get("/wait"));
            Thread.sleep(100); // the stream is in its handler
            Thread stopper = Thread.ofPlatform().start(() -> server.stop(Duration.ofSeconds(5)));
            H2Client.Frame goAway = client.await(f -> f.type() == Frames.GOAWAY, "the GOAWAY");
            assertThat(goAway.errorCode()).isEqualTo(Http2ErrorCode.NO_ERROR);
            assertThat(goAway.lastStreamId()).isEqualTo(1);
            assertThat(client.response(1).text()).isEqualTo("finished");
            client.awaitClosed();
            stopper.join();
        } finally {
            server.close();
        }
    }
}
