package dev.petrel.server.it;

import static dev.petrel.server.it.WebSocketClients.client;
import static dev.petrel.server.it.WebSocketClients.uri;
import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.server.WebSocketHandler;
import dev.petrel.server.WebSocketMessage;
import dev.petrel.server.config.WebSocketConfig;
import dev.petrel.server.it.WebSocketClients.Recorder;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;

/**
 * WebSocket (RFC 6455) over HTTP/1.1 on every transport and over TLS: sessions driven by the JDK's
 * own WebSocket client, and the handshake's refusals and the protocol's failures by hand.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WebSocketTest {
    /** RFC 6455 section 1.3's example key, and the accept key it gives. */
    private static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";
    private static final String ACCEPT = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";

    private static final WebSocketHandler ECHO = socket -> {
        for (WebSocketMessage message; (message = socket.receive()) != null; ) {
            switch (message) {
                case WebSocketMessage.Text text -> socket.sendText(text.text());
                case WebSocketMessage.Binary binary -> socket.sendBinary(binary.bytes());
            }
        }
    };

    private static Server start(Transport kind, WebSocketConfig config, WebSocketHandler handler) throws IOException {
        Router router = Router.builder()
                .get("/", (request, response) -> response.send("plain"))
                .websocket("/ws", config, handler)
                .build();
        return TestServers.start(kind, router);
    }

    @TransportTest
    void echoesTextAndBinaryMessagesAndAnswersPings(Transport kind) throws Exception {
        try (Server server = start(kind, WebSocketConfig.DEFAULT, ECHO);
             HttpClient http = client(kind)) {
            Recorder recorder = new Recorder();
            WebSocket socket = http.newWebSocketBuilder().buildAsync(uri(server, kind), recorder).get(10, TimeUnit.SECONDS);
            socket.sendText("hello", true).get(5, TimeUnit.SECONDS);
            assertThat(recorder.next()).isEqualTo("text:hello");
            socket.sendText("frag", false).get(5, TimeUnit.SECONDS);
            socket.sendText("mented ✓", true).get(5, TimeUnit.SECONDS);
            assertThat(recorder.next()).isEqualTo("text:fragmented ✓");
            socket.sendBinary(ByteBuffer.wrap(new byte[] {1, 2, 3}), true).get(5, TimeUnit.SECONDS);
            assertThat(recorder.next()).isEqualTo("binary:[1, 2, 3]");
            socket.sendPing(ByteBuffer.wrap("are you there".getBytes(StandardCharsets.UTF_8))).get(5, TimeUnit.SECONDS);
            assertThat(recorder.next()).isEqualTo("pong:are you there");
            String large = "x".repeat(300_000); // many reads and writes, past every buffer
            socket.sendText(large, true).get(5, TimeUnit.SECONDS);
            assertThat(recorder.next()).isEqualTo("text:" + large);
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(5, TimeUnit.SECONDS);
            assertThat(recorder.next()).isEqualTo("close:1000");
            TestServers.awaitLiveConnections(server, 0);
        }
    }

    @TransportTest
    void aHandlerThatReturnsClosesTheSessionWith1000AndOneThatThrowsWith1011(Transport kind) throws Exception {
        WebSocketHandler greetThenFail = socket -> {
            socket.sendText("hello " + socket.path() + " " + socket.query());
            if ("fail".equals(socket.query())) throw new IllegalStateException("the handler's bug");
        };
        try (Server server = start(kind, WebSocketConfig.DEFAULT, greetThenFail);
             HttpClient http = client(kind)) {
            Recorder done = new Recorder();
            http.newWebSocketBuilder().buildAsync(URI.create(uri(server, kind) + "?ok"), done).get(10, TimeUnit.SECONDS);
            assertThat(done.next()).isEqualTo("text:hello /ws ok");
            assertThat(done.next()).isEqualTo("close:1000");
            Recorder failed = new Recorder();
            http.newWebSocketBuilder().buildAsync(URI.create(uri(server, kind) + "?fail"), failed).get(10, TimeUnit.SECONDS);
            assertThat(failed.next()).isEqualTo("text:hello /ws fail");
            assertThat(failed.next()).isEqualTo("close:1011");
        }
    }

    @TransportTest
    void aStoppingServerClosesEverySessionWith1001(Transport kind) throws Exception {
        Server server = start(kind, WebSocketConfig.DEFAULT, ECHO);
        try (HttpClient http = client(kind)) {
            Recorder recorder = new Recorder();
            WebSocket socket = http.newWebSocketBuilder().buildAsync(uri(server, kind), recorder).get(10, TimeUnit.SECONDS);
            socket.sendText("before", true).get(5, TimeUnit.SECONDS);
            assertThat(recorder.next()).isEqualTo("text:before");
            assertThat(server.stop(Duration.ofSeconds(5))).as("stopped within the grace").isTrue();
            assertThat(recorder.next()).isEqualTo("close:1001");
        } finally {
            server.close();
        }
    }

    @TransportTest
    void theSubprotocolIsTheServersFirstChoiceAmongTheClients(Transport kind) throws Exception {
        WebSocketHandler tell = socket -> socket.sendText(String.valueOf(socket.subprotocol()));
        try (Server server = start(kind, WebSocketConfig.DEFAULT.withSubprotocols("v2.chat", "v1.chat"), tell);
             HttpClient http = client(kind)) {
            Recorder recorder = new Recorder();
            WebSocket socket = http.newWebSocketBuilder().subprotocols("v1.chat", "v2.chat")
                    .buildAsync(uri(server, kind), recorder).get(10, TimeUnit.SECONDS);
            assertThat(socket.getSubprotocol()).isEqualTo("v2.chat");
            assertThat(recorder.next()).isEqualTo("text:v2.chat");
        }
    }

    @TransportTest
    void aRequestThatIsNoValidHandshakeGetsTheStatusThatSaysWhy(Transport kind) throws Exception {
        try (Server server = start(kind, WebSocketConfig.DEFAULT.withAllowedOrigins("https://app.example"), ECHO);
             RawClient client = RawClient.connect(server)) {
            RawResponse plain = client.send("GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").read();
            assertThat(plain.status()).isEqualTo(426);
            assertThat(plain.header("Upgrade")).isEqualTo("websocket");
            RawResponse version = client.send(handshake("Sec-WebSocket-Version: 8\r\n", KEY, null)).read();
            assertThat(version.status()).isEqualTo(426);
            assertThat(version.header("Sec-WebSocket-Version")).isEqualTo("13");
            assertThat(client.send(handshake("Sec-WebSocket-Version: 13\r\n", "c2hvcnQ=", null)).read().status())
                    .as("a key of 5 bytes").isEqualTo(400);
            assertThat(client.send(handshake("Sec-WebSocket-Version: 13\r\n", KEY, "https://evil.example")).read().status())
                    .as("a page of another site").isEqualTo(403);
            assertThat(client.send("POST /ws HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n").read().status()).isEqualTo(405);
            RawResponse head = client.send(handshake("Sec-WebSocket-Version: 13\r\n", KEY, null).replaceFirst("GET", "HEAD")).readHead();
            assertThat(head.status()).as("HEAD, even with the handshake's fields: what a GET without them gets").isEqualTo(426);
            assertThat(head.header("Upgrade")).isEqualTo("websocket");
            assertThat(client.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n").read().text())
                    .as("the connection stays HTTP/1.1 after each refusal").isEqualTo("plain");
        }
        try (Server server = start(kind, WebSocketConfig.DEFAULT.withAllowedOrigins("https://app.example"), ECHO)) {
            String host = "127.0.0.1:" + server.address().getPort();
            String own = (kind.tls() ? "https://" : "http://") + host;
            for (String origin : List.of(own, "https://app.example")) {
                try (RawClient client = RawClient.connect(server)) {
                    RawResponse head = client.send(handshake("Sec-WebSocket-Version: 13\r\n", KEY, origin).replace("Host: a", "Host: " + host))
                            .readHead();
                    assertThat(head.status()).as(origin).isEqualTo(101);
                    assertThat(head.header("Sec-WebSocket-Accept")).isEqualTo(ACCEPT);
                }
            }
        }
    }

    @TransportTest
    void overHttp2AGetOnTheRouteIsToldToUseAnExtendedConnect(Transport kind) throws Exception {
        Assumptions.assumeTrue(kind.tls(), "HTTP/2 is offered by ALPN on HTTPS");
        try (Server server = start(kind, WebSocketConfig.DEFAULT, ECHO);
             HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                     .sslContext(TestCertificate.get().clientContext()).connectTimeout(Duration.ofSeconds(5)).build()) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                    URI.create("https://127.0.0.1:" + server.address().getPort() + "/ws")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(response.statusCode()).as("RFC 8441: a WebSocket opens with CONNECT over HTTP/2").isEqualTo(400);
            assertThat(response.body()).contains("extended CONNECT");
        }
    }

    @TransportTest
    void aClientThatBreaksTheProtocolIsClosedWithTheRfcsCode(Transport kind) throws Exception {
        try (Server server = start(kind, WebSocketConfig.DEFAULT.withMaxMessageSize(1000), ECHO)) {
            // an unmasked frame from a client (section 5.1): 1002
            assertThat(closeCodeAfter(server, new byte[] {(byte) 0x81, 0x02, 'h', 'i'})).isEqualTo(1002);
            // a length with the most significant bit set (section 5.2): 1002
            assertThat(closeCodeAfter(server, new byte[] {(byte) 0x82, (byte) 0xFF, (byte) 0x80, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4}))
                    .isEqualTo(1002);
            // a message over the route's limit: 1009
            byte[] big = new byte[2 + 2 + 4 + 2000];
            big[0] = (byte) 0x82;
            big[1] = (byte) (0x80 | 126);
            big[2] = (byte) (2000 >> 8);
            big[3] = (byte) (2000 & 0xFF);
            assertThat(closeCodeAfter(server, big)).isEqualTo(1009);
            // invalid UTF-8 in a text message: 1007
            assertThat(closeCodeAfter(server, new byte[] {(byte) 0x81, (byte) 0x82, 0, 0, 0, 0, (byte) 0xC0, (byte) 0xAF}))
                    .isEqualTo(1007);
        }
    }

    /** Opens a session by hand, sends {@code frames}, and reads the server's close frame's code; the connection must end after it. */
    private static int closeCodeAfter(Server server, byte[] frames) throws IOException {
        try (RawClient client = RawClient.connect(server)) {
            assertThat(client.send(handshake("Sec-WebSocket-Version: 13\r\n", KEY, null)).readHead().status()).isEqualTo(101);
            client.send(frames);
            DataInputStream in = new DataInputStream(client.input());
            int first = in.readUnsignedByte();
            int length = in.readUnsignedByte();
            assertThat(first).as("a close frame, final").isEqualTo(0x88);
            assertThat(length).as("unmasked, with a code").isBetween(2, 125);
            int code = in.readUnsignedShort();
            in.skipNBytes(length - 2);
            assertThat(client.readToEnd()).as("nothing after the close").isEmpty();
            return code;
        }
    }

    private static String handshake(String version, String key, String origin) {
        return "GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + key + "\r\n"
                + version + (origin == null ? "" : "Origin: " + origin + "\r\n") + "\r\n";
    }
}
