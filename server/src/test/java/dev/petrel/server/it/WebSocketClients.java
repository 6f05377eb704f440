package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Server;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** The JDK's WebSocket client as the WebSocket tests use it: the URI of a test server's {@code /ws}, a client that trusts its certificate, and a recorder of what arrives. */
final class WebSocketClients {
    private WebSocketClients() {}

    /** {@code ws://} or {@code wss://} (by {@code kind}) to {@code server}'s {@code /ws}. */
    static URI uri(Server server, Transport kind) {
        return URI.create((kind.tls() ? "wss://127.0.0.1:" : "ws://127.0.0.1:") + server.address().getPort() + "/ws");
    }

    /** A client for {@code kind}: trusting the test certificate over TLS. */
    static HttpClient client(Transport kind) {
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
        if (kind.tls()) builder.sslContext(TestCertificate.get().clientContext());
        return builder.build();
    }

    /** Records what the JDK's client receives, one event per whole message: {@code text:...}, {@code binary:[...]}, {@code pong:...}, {@code close:CODE}. */
    static final class Recorder implements WebSocket.Listener {
        private final BlockingQueue<String> events = new LinkedBlockingQueue<>();
        private final StringBuilder text = new StringBuilder();
        private final java.io.ByteArrayOutputStream binary = new java.io.ByteArrayOutputStream();

        /** The next event, within 10 s (or the test fails). */
        String next() throws InterruptedException {
            String event = events.poll(10, TimeUnit.SECONDS);
            assertThat(event).as("an event within 10 s").isNotNull();
            return event;
        }

        @Override
        public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                events.add("text:" + text);
                text.setLength(0);
            }
            socket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket socket, ByteBuffer data, boolean last) {
            byte[] bytes = new byte[data.remaining()];
            data.get(bytes);
            binary.writeBytes(bytes);
            if (last) {
                events.add("binary:" + Arrays.toString(binary.toByteArray()));
                binary.reset();
            }
            socket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onPong(WebSocket socket, ByteBuffer message) {
            events.add("pong:" + StandardCharsets.UTF_8.decode(message));
            socket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket socket, int statusCode, String reason) {
            events.add("close:" + statusCode);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void onError(WebSocket socket, Throwable error) {
            events.add("error:" + error);
        }
    }
}
