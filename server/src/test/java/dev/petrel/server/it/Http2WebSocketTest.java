package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http2.Frames;
import dev.petrel.http2.Http2ErrorCode;
import dev.petrel.http2.Http2Settings;
import dev.petrel.server.Handler;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.server.WebSocketHandler;
import dev.petrel.server.WebSocketMessage;
import dev.petrel.server.config.Http2Config;
import dev.petrel.server.config.WebSocketConfig;
import dev.petrel.websocket.MessageEncoder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * WebSocket over HTTP/2 (RFC 8441) with a raw HTTP/2 client, on every transport, over h2c with
 * prior knowledge and over TLS with {@code h2} by ALPN: {@code SETTINGS_ENABLE_CONNECT_PROTOCOL}
 * only where a WebSocket route is, the extended CONNECT answered {@code 200}, masked frames in
 * {@code DATA} both ways within the windows, the close handshake and {@code END_STREAM}, a reset
 * that aborts the session, and the refusals.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Http2WebSocketTest {
    private static final WebSocketHandler ECHO = socket -> {
        for (WebSocketMessage message; (message = socket.receive()) != null; ) {
            switch (message) {
                case WebSocketMessage.Text text -> socket.sendText(text.text());
                case WebSocketMessage.Binary binary -> socket.sendBinary(binary.bytes());
            }
        }
    };

    private final MessageEncoder client = new MessageEncoder(true, null);

    private static Server start(Transport kind, Handler handler) throws IOException {
        return TestServers.builder(kind, TestServers.config().build(), handler)
                .http2(Http2Config.ENABLED.withClearText(true))
                .start();
    }

    private static Server start(Transport kind, WebSocketConfig config, WebSocketHandler handler) throws IOException {
        return start(kind, Router.builder()
                .get("/", (request, response) -> response.send("plain"))
                .websocket("/ws", config, handler)
                .build());
    }

    private static H2Client connect(Server server, Transport kind) throws IOException {
        return kind.tls() ? H2Client.connectTls(server.httpsAddress().getPort(), TestCertificate.get().clientContext())
                : H2Client.connect(server.address().getPort());
    }

    /** An extended CONNECT's fields for {@code path}, then {@code extra} ones. */
    private static String[] extendedConnect(Transport kind, String path, String... extra) {
        List<String> all = new ArrayList<>(List.of(":method", "CONNECT", ":protocol", "websocket",
                ":scheme", kind.tls() ? "https" : "http", ":path", path, ":authority", "localhost"));
        all.addAll(List.of(extra));
        return all.toArray(String[]::new);
    }

    /** The server's first SETTINGS, by identifier. */
    private static Map<Integer, Long> serverSettings(H2Client h2) throws IOException {
        H2Client.Frame frame = h2.await(f -> f.type() == Frames.SETTINGS && !f.has(Frames.FLAG_ACK), "the server's SETTINGS");
        Map<Integer, Long> settings = new HashMap<>();
        ByteBuffer payload = ByteBuffer.wrap(frame.payload());
        while (payload.remaining() >= 6) settings.put(payload.getShort() & 0xFFFF, payload.getInt() & 0xFFFF_FFFFL);
        return settings;
    }

    /** Opens a session on stream {@code id} and returns the 200's HEADERS frame. */
    private static H2Client.Frame open(H2Client h2, Transport kind, int id, String... extra) throws IOException {
        String[] fields = extendedConnect(kind, "/ws", concat(new String[] {"sec-websocket-version", "13"}, extra));
        h2.headers(id, false, fields);
        return h2.await(f -> f.streamId() == id && (f.type() == Frames.HEADERS || f.type() == Frames.RST_STREAM), "the answer");
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    /** A WebSocket frame the server sent. */
    private record WsFrame(int opcode, byte[] payload) {}

    /**
     * The client's side of a session on stream {@code id}: sends WebSocket frames in DATA frames
     * of at most 16 KiB within the stream's send window, and reads the server's from its DATA,
     * giving the windows back as it goes.
     */
    private static final class Session {
        private final H2Client h2;
        private final int id;
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
        private long window = 65_535; // the server's initial stream window (Http2Config's default)
        private boolean ended;

        Session(H2Client h2, int id) {
            this.h2 = h2;
            this.id = id;
        }

        void send(ByteBuffer frame) throws IOException {
            byte[] bytes = new byte[frame.remaining()];
            frame.get(bytes);
            int off = 0;
            while (off < bytes.length) {
                if (window == 0) {
                    H2Client.Frame update = h2.await(f -> f.type() == Frames.WINDOW_UPDATE && f.streamId() == id, "a WINDOW_UPDATE");
                    window += update.windowIncrement();
                    continue;
                }
                int n = (int) Math.min(Math.min(16_384, window), bytes.length - off);
                h2.data(id, Arrays.copyOfRange(bytes, off, off + n), false);
                off += n;
                window -= n;
            }
        }

        WsFrame next() throws IOException {
            while (true) {
                byte[] have = pending.toByteArray();
                WsFrame frame = parse(have);
                if (frame != null) return frame;
                if (ended) throw new AssertionError("END_STREAM before a whole frame");
                H2Client.Frame data = h2.await(f -> f.streamId() == id, "DATA on stream " + id);
                if (data.type() == Frames.RST_STREAM) throw new AssertionError("reset: " + data.errorCode());
                if (data.type() == Frames.WINDOW_UPDATE) window += data.windowIncrement();
                if (data.type() != Frames.DATA) continue;
                pending.writeBytes(data.payload());
                if (data.payload().length > 0) {
                    h2.windowUpdate(0, data.payload().length);
                    h2.windowUpdate(id, data.payload().length);
                }
                ended = data.has(Frames.FLAG_END_STREAM);
            }
        }

        /** Waits for the server's END_STREAM on the stream. */
        void awaitEnd() throws IOException {
            while (!ended) {
                H2Client.Frame data = h2.await(f -> f.streamId() == id, "END_STREAM on stream " + id);
                assertThat(data.type()).as("a frame ending the stream").isNotEqualTo(Frames.RST_STREAM);
                if (data.type() == Frames.DATA) {
                    assertThat(data.payload()).as("nothing after the close frame").isEmpty();
                    ended = data.has(Frames.FLAG_END_STREAM);
                }
            }
        }

        private WsFrame parse(byte[] b) {
            if (b.length < 2) return null;
            assertThat(b[1] & 0x80).as("a server's frames are unmasked").isZero();
            int length = b[1] & 0x7F;
            int header = 2;
            if (length == 126) {
                if (b.length < 4) return null;
                length = ((b[2] & 0xFF) << 8) | (b[3] & 0xFF);
                header = 4;
            } else if (length == 127) {
                if (b.length < 10) return null;
                length = (int) ByteBuffer.wrap(b, 2, 8).getLong();
                header = 10;
            }
            if (b.length < header + length) return null;
            pending.reset();
            pending.write(b, header + length, b.length - header - length);
            return new WsFrame(b[0] & 0x0F, Arrays.copyOfRange(b, header, header + length));
        }
    }

    @TransportTest
    void anExtendedConnectOpensASessionCarriedInDataFrames(Transport kind) throws Exception {
        try (Server server = start(kind, WebSocketConfig.DEFAULT, ECHO);
             H2Client h2 = connect(server, kind)) {
            assertThat(serverSettings(h2)).containsEntry(Http2Settings.ENABLE_CONNECT_PROTOCOL, 1L);
            H2Client.Frame head = open(h2, kind, 1);
            assertThat(head.type()).isEqualTo(Frames.HEADERS);
            assertThat(head.field(":status")).isEqualTo("200");
            assertThat(head.has(Frames.FLAG_END_STREAM)).as("the stream stays open").isFalse();
            assertThat(head.field("sec-websocket-accept")).as("no accept key over HTTP/2").isNull();
            assertThat(head.field("content-length")).isNull();

            Session frames = new Session(h2, 1);
            frames.send(client.text("hello"));
            WsFrame text = frames.next();
            assertThat(text.opcode()).isEqualTo(1);
            assertThat(new String(text.payload(), StandardCharsets.UTF_8)).isEqualTo("hello");

            // a message larger than the stream's window: both sides wait for WINDOW_UPDATEs
            byte[] large = new byte[150_000];
            for (int i = 0; i < large.length; i++) large[i] = (byte) (i * 31);
            frames.send(client.binary(ByteBuffer.wrap(large)));
            WsFrame binary = frames.next();
            assertThat(binary.opcode()).isEqualTo(2);
            assertThat(binary.payload()).isEqualTo(large);

            frames.send(client.close(1000, ""));
            WsFrame close = frames.next();
            assertThat(close.opcode()).isEqualTo(8);
            assertThat(close.payload()).startsWith(0x03, 0xE8);
            frames.awaitEnd();
            h2.data(1, new byte[0], true);

            H2Client.Response plain = h2.get(3, "/");
            assertThat(plain.status()).as("the connection goes on").isEqualTo(200);
            assertThat(plain.text()).isEqualTo("plain");
        }
    }

    @TransportTest
    void withoutAWebSocketRouteNeitherTheSettingNorProtocolIsAccepted(Transport kind) throws Exception {
        Handler plain = Router.builder().get("/ws", (request, response) -> response.send("plain")).build();
        try (Server server = start(kind, plain);
             H2Client h2 = connect(server, kind)) {
            assertThat(serverSettings(h2)).containsKey(Http2Settings.MAX_CONCURRENT_STREAMS)
                    .doesNotContainKey(Http2Settings.ENABLE_CONNECT_PROTOCOL);
            H2Client.Frame answer = open(h2, kind, 1);
            assertThat(answer.type()).as("RFC 8441 section 3: malformed without the setting").isEqualTo(Frames.RST_STREAM);
            assertThat(answer.errorCode()).isEqualTo(Http2ErrorCode.PROTOCOL_ERROR);
            assertThat(h2.get(3, "/ws").status()).as("a stream error: the connection goes on").isEqualTo(200);
        }
    }

    @Test
    void anExtendedConnectElsewhereIsAnsweredAsAnyConnect() throws Exception {
        Transport kind = Transport.VIRTUAL;
        try (Server server = start(kind, WebSocketConfig.DEFAULT, ECHO);
             H2Client h2 = connect(server, kind)) {
            h2.headers(1, false, extendedConnect(kind, "/", "sec-websocket-version", "13"));
            H2Client.Response plainRoute = h2.response(1);
            assertThat(plainRoute.status()).as("a route without WebSocket").isEqualTo(405);
            h2.headers(3, false, extendedConnect(kind, "/nowhere", "sec-websocket-version", "13"));
            assertThat(h2.response(3).status()).isEqualTo(404);
            // another protocol than websocket on the WebSocket route: CONNECT, which it does not serve
            String[] other = extendedConnect(kind, "/ws", "sec-websocket-version", "13");
            other[3] = "webtransport";
            h2.headers(5, false, other);
            assertThat(h2.response(5).status()).isEqualTo(405);
            // a plain GET on the WebSocket route over HTTP/2
            H2Client.Response get = h2.get(7, "/ws");
            assertThat(get.status()).isEqualTo(400);
            assertThat(get.text()).contains("extended CONNECT");
            // a plain CONNECT (RFC 9113 section 8.5: :authority, no :path), a tunnel this server never
            // makes: no path, so no route matches, and the fallback answers
            h2.headers(9, false, ":method", "CONNECT", ":authority", "localhost:443");
            assertThat(h2.response(9).status()).isEqualTo(404);
            assertThat(h2.get(11, "/").status()).as("the connection goes on").isEqualTo(200);
        }
    }

    @Test
    void theHandshakeIsCheckedAsOverHttp1() throws Exception {
        Transport kind = Transport.NIO;
        WebSocketConfig config = WebSocketConfig.DEFAULT.withSubprotocols("chat").withAllowedOrigins("https://allowed.example");
        try (Server server = start(kind, config, ECHO);
             H2Client h2 = connect(server, kind)) {
            h2.headers(1, false, extendedConnect(kind, "/ws", "sec-websocket-version", "8"));
            H2Client.Response version = h2.response(1);
            assertThat(version.status()).isEqualTo(400);
            assertThat(version.fields()).anySatisfy(f -> assertThat(f).containsExactly("sec-websocket-version", "13"));

            h2.headers(3, false, extendedConnect(kind, "/ws", "sec-websocket-version", "13", "origin", "https://evil.example"));
            assertThat(h2.response(3).status()).isEqualTo(403);

            h2.headers(5, true, extendedConnect(kind, "/ws", "sec-websocket-version", "13"));
            assertThat(h2.response(5).status()).as("END_STREAM on the CONNECT").isEqualTo(400);

            H2Client.Frame head = open(h2, kind, 7, "origin", "https://allowed.example", "sec-websocket-protocol", "other, chat",
                    "sec-websocket-extensions", "permessage-deflate; client_max_window_bits");
            assertThat(head.field(":status")).isEqualTo("200");
            assertThat(head.field("sec-websocket-protocol")).isEqualTo("chat");
            assertThat(head.field("sec-websocket-extensions")).startsWith("permessage-deflate");
            h2.rst(7, Http2ErrorCode.CANCEL);
            assertThat(h2.get(9, "/").status()).isEqualTo(200);
        }
    }

    @Test
    void aResetByTheClientAbortsTheSession() throws Exception {
        Transport kind = Transport.BLOCKING;
        CountDownLatch ended = new CountDownLatch(1);
        List<Object> outcome = new ArrayList<>();
        WebSocketHandler handler = socket -> {
            try {
                outcome.add(socket.receive());
            } catch (IOException e) {
                outcome.add(e);
            } finally {
                ended.countDown();
            }
        };
        try (Server server = start(kind, WebSocketConfig.DEFAULT, handler);
             H2Client h2 = connect(server, kind)) {
            assertThat(open(h2, kind, 1).field(":status")).isEqualTo("200");
            h2.rst(1, Http2ErrorCode.CANCEL);
            assertThat(ended.await(10, TimeUnit.SECONDS)).as("the handler's receive ended").isTrue();
            assertThat(outcome).singleElement().isInstanceOf(IOException.class);
            assertThat(h2.get(3, "/").status()).isEqualTo(200);
        }
    }

    @Test
    void theSessionEndsWithTheClientsEndStream() throws Exception {
        Transport kind = Transport.VIRTUAL_TLS;
        CountDownLatch ended = new CountDownLatch(1);
        List<Object> outcome = new ArrayList<>();
        WebSocketHandler handler = socket -> {
            outcome.add(socket.receive());
            outcome.add(socket.closeCode());
            ended.countDown();
        };
        try (Server server = start(kind, WebSocketConfig.DEFAULT, handler);
             H2Client h2 = connect(server, kind)) {
            assertThat(open(h2, kind, 1).field(":status")).isEqualTo("200");
            h2.data(1, new byte[0], true); // gone without a close frame
            assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(outcome).containsExactly(null, 1006);
            H2Client.Frame last = h2.await(f -> f.streamId() == 1 && (f.type() == Frames.RST_STREAM || f.has(Frames.FLAG_END_STREAM)),
                    "the server's end of the stream");
            assertThat(last.type()).isIn(Frames.RST_STREAM, Frames.DATA);
            assertThat(h2.get(3, "/").status()).isEqualTo(200);
        }
    }
}
