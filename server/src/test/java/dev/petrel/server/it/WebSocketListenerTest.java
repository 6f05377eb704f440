package dev.petrel.server.it;

import static dev.petrel.server.it.WebSocketClients.client;
import static dev.petrel.server.it.WebSocketClients.uri;
import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.server.WebSocket;
import dev.petrel.server.WebSocketListener;
import dev.petrel.server.WebSocketMessage;
import dev.petrel.server.config.TransportKind;
import dev.petrel.server.config.WebSocketConfig;
import dev.petrel.server.it.WebSocketClients.Recorder;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * The listener style of WebSocket ({@link WebSocketListener}) on every transport: called back with
 * each message, inline on the {@code nio} transport's event loop (no thread per session), on the
 * connection's thread elsewhere; its open, close, failure, idle timeout and the server's stop.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WebSocketListenerTest {
    /** Echoes each message; says where it runs when asked "where"; records its close. */
    private static final class Echo implements WebSocketListener {
        final BlockingQueue<String> events = new LinkedBlockingQueue<>();

        @Override
        public void onOpen(WebSocket socket) throws IOException {
            socket.sendText("open " + socket.path());
        }

        @Override
        public void onMessage(WebSocket socket, WebSocketMessage message) throws IOException {
            switch (message) {
                case WebSocketMessage.Text text when text.text().equals("fail") -> throw new IllegalStateException("the listener's bug");
                case WebSocketMessage.Text text when text.text().equals("where") ->
                        
                        socket.sendText(Thread.currentThread().getName().startsWith("petrel-nio-loop-") ? "event loop" : "a thread of its own");
                case WebSocketMessage.Text text -> socket.sendText(text.text());
                case WebSocketMessage.Binary binary -> socket.sendBinary(binary.bytes());
            }
        }

        @Override
        public void onClose(WebSocket socket, int code) {
            events.add("closed:" + code);
        }

        String nextEvent() throws InterruptedException {
            String event = events.poll(10, TimeUnit.SECONDS);
            assertThat(event).as("a listener event within 10 s").isNotNull();
            return event;
        }
    }

    private static Server start(Transport kind, WebSocketConfig config, WebSocketListener listener) throws IOException {
        return TestServers.start(kind, Router.builder().websocket("/ws", config, listener).build());
    }

    @TransportTest
    void echoesEveryMessageOnTheEventLoopOfNioAndOnTheConnectionsThreadElsewhere(Transport kind) throws Exception {
        Echo echo = new Echo();
        try (Server server = start(kind, WebSocketConfig.DEFAULT, echo);
             HttpClient http = client(kind)) {
            Recorder recorder = new Recorder();
            java.net.http.WebSocket socket = http.newWebSocketBuilder().buildAsync(uri(server, kind), recorder).get(10, TimeUnit.SECONDS);
            assertThat(recorder.next()).isEqualTo("text:open /ws");
            socket.sendText("where", true).get(5, TimeUnit.SECONDS);
            assertThat(recorder.next()).isEqualTo(kind.kind() == TransportKind.NIO ? "text:event loop" : "text:a thread of its own");
            socket.sendText("frag", false).get(5, TimeUnit.SECONDS);
            socket.sendText("mented ✓", true).get(5, TimeUnit.SECONDS);
            assertThat(recorder.next()).isEqualTo("text:fragmented ✓");
            socket.sendBinary(ByteBuffer.wrap(new byte[] {1, 2, 3}), true).get(5, TimeUnit.SECONDS);
            assertThat(recorder.next()).isEqualTo("binary:[1, 2, 3]");
            socket.sendPing(ByteBuffer.wrap("are you there".getBytes(StandardCharsets.UTF_8))).get(5, TimeUnit.SECONDS);
            assertThat(recorder.next()).isEqualTo("pong:are you there");
            String large = "x".repeat(300_000); // many reads, the large read buffer and back
            socket.sendText(large, true).get(5, TimeUnit.SECONDS);
            assertThat(recorder.next()).isEqualTo("text:" + large);
            socket.sendText("after", true).get(5, TimeUnit.SECONDS);
            assertThat(recorder.next()).isEqualTo("text:after");
            socket.sendClose(java.net.http.WebSocket.NORMAL_CLOSURE, "done").get(5, TimeUnit.SECONDS);
            assertThat(recorder.next()).isEqualTo("close:1000");
            assertThat(echo.nextEvent()).isEqualTo("closed:1000");
            TestServers.awaitLiveConnections(server, 0);
        }
    }

    @TransportTest
    void aListenerThatThrowsClosesItsSessionWith1011AndHearsOfTheClose(Transport kind) throws Exception {
        Echo echo = new Echo();
        try (Server server = start(kind, WebSocketConfig.DEFAULT, echo);
             HttpClient http = client(kind)) {
            Recorder recorder = new Recorder();
            java.net.http.WebSocket socket = http.newWebSocketBuilder().buildAsync(uri(server, kind), recorder).get(10, TimeUnit.SECONDS);
            assertThat(recorder.next()).isEqualTo("text:open /ws");
            socket.sendText("fail", true).get(5, TimeUnit.SECONDS);
            assertThat(recorder.next()).isEqualTo("close:1011");
            assertThat(echo.nextEvent()).isEqualTo("closed:1011");
        }
    }

    @TransportTest
    void anIdleSessionIsClosedWith1001(Transport kind) throws Exception {
        Echo echo = new Echo();
        try (Server server = start(kind, WebSocketConfig.DEFAULT.withIdleTimeout(Duration.ofMillis(300)), echo);
             HttpClient http = client(kind)) {
            Recorder recorder = new Recorder();
            http.newWebSocketBuilder().buildAsync(uri(server, kind), recorder).get(10, TimeUnit.SECONDS);
            assertThat(recorder.next()).isEqualTo("text:open /ws");
            assertThat(recorder.next()).isEqualTo("close:1001");
            assertThat(echo.nextEvent()).isEqualTo("closed:1001");
        }
    }

    @TransportTest
    void aStoppingServerClosesAWaitingSessionWith1001(Transport kind) throws Exception {
        Echo echo = new Echo();
        Server server = start(kind, WebSocketConfig.DEFAULT, echo);
        try (HttpClient http = client(kind)) {
            Recorder recorder = new Recorder();
            http.newWebSocketBuilder().buildAsync(uri(server, kind), recorder).get(10, TimeUnit.SECONDS);
            assertThat(recorder.next()).isEqualTo("text:open /ws");
            assertThat(server.stop(Duration.ofSeconds(5))).as("stopped within the grace").isTrue();
            assertThat(recorder.next()).isEqualTo("close:1001");
            assertThat(echo.nextEvent()).isEqualTo("closed:1001");
        } finally {
            server.close();
        }
    }

    @TransportTest
    void aClientThatBreaksTheProtocolIsClosedWithTheRfcsCode(Transport kind) throws Exception {
        Echo echo = new Echo();
        try (Server server = start(kind, WebSocketConfig.DEFAULT, echo);
             RawClient client = RawClient.connect(server)) {
            client.send("GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
            assertThat(client.readHead().status()).isEqualTo(101);
            DataInputStream in = new DataInputStream(client.input());
            assertThat(in.readUnsignedByte()).as("the greeting, a final text frame").isEqualTo(0x81);
            in.skipNBytes(in.readUnsignedByte());
            client.send(new byte[] {(byte) 0x81, 0x02, 'h', 'i'}); // unmasked (section 5.1)
            assertThat(in.readUnsignedByte()).as("a close frame").isEqualTo(0x88);
            assertThat(in.readUnsignedByte()).isEqualTo(2);
            assertThat(in.readUnsignedShort()).isEqualTo(1002);
            assertThat(client.readToEnd()).as("nothing after the close").isEmpty();
            assertThat(echo.nextEvent()).isEqualTo("closed:1002");
        }
    }
}
