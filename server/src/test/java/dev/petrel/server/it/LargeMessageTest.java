package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Server;
import dev.petrel.server.demo.DemoSite;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Heads and bodies far larger than the engine's buffers, streamed both ways at once. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LargeMessageTest {
    private static final int BODY = 2 * 1024 * 1024;

    @TempDir
    Path root;

    private Server start(Transport kind) throws IOException {
        return TestServers.start(kind, DemoSite.handler(root, InstantSource.system()));
    }

    /** Writes on another thread while the caller reads: the demo echo streams its answer before the upload ends. */
    private static CompletableFuture<Void> sendInBackground(RawClient client, byte[] bytes) {
        CompletableFuture<Void> sent = new CompletableFuture<>();
        Thread.ofPlatform().name("test-writer").start(() -> {
            try {
                client.send(bytes);
                sent.complete(null);
            } catch (Throwable t) {
                sent.completeExceptionally(t);
            }
        });
        return sent;
    }

    @TransportTest
    void largeBodyWithLengthIsStreamedThroughTheEcho(Transport kind) throws Exception {
        String body = Requests.pattern(BODY);
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            CompletableFuture<Void> sent = sendInBackground(client,
                    ("POST /echo HTTP/1.1\r\nHost: test\r\nContent-Type: text/plain\r\nContent-Length: " + BODY + "\r\n\r\n" + body)
                            .getBytes(StandardCharsets.ISO_8859_1));
            RawResponse response = client.read();
            sent.get(10, TimeUnit.SECONDS);
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("Content-Length")).isEqualTo(Integer.toString(BODY));
            assertThat(response.text()).isEqualTo(body);
            // The echo commits its answer with most of the body still unread, but it has started reading:
            // the engine keeps the connection, and the handler does read it all.
            assertThat(response.header("Connection")).isNull();
            assertThat(client.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");
        }
    }

    @TransportTest
    void largeChunkedBodyIsEchoedChunked(Transport kind) throws Exception {
        String body = Requests.pattern(BODY);
        StringBuilder request = new StringBuilder("POST /echo HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n");
        for (int off = 0; off < BODY; off += 10_000) {
            String piece = body.substring(off, Math.min(BODY, off + 10_000));
            request.append(Integer.toHexString(piece.length())).append("\r\n").append(piece).append("\r\n");
        }
        request.append("0\r\n\r\n");
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            CompletableFuture<Void> sent = sendInBackground(client, request.toString().getBytes(StandardCharsets.ISO_8859_1));
            RawResponse response = client.read();
            sent.get(10, TimeUnit.SECONDS);
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("Transfer-Encoding")).isEqualTo("chunked");
            assertThat(response.text()).isEqualTo(body);
            // a chunked body's rest is unknown at commit: the connection is kept, as the handler read it all
            assertThat(response.header("Connection")).isNull();
            assertThat(client.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");
        }
    }

    @TransportTest
    void headNearTheDefaultLimitsIsServed(Transport kind) throws Exception {
        // 15 KB of fields: nearly the 16 KiB default, almost twice the engine's 8 KiB input buffer
        StringBuilder fields = new StringBuilder();
        for (int i = 0; i < 50; i++) fields.append("X-Field-").append(i).append(": ").append("v".repeat(280)).append("\r\n");
        String target = "/" + "t".repeat(8000);
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            RawResponse many = client.send("GET / HTTP/1.1\r\nHost: test\r\n" + fields + "\r\n").read();
            assertThat(many.status()).isEqualTo(200);
            assertThat(many.text()).isEqualTo("HelloWorld");
            RawResponse longTarget = client.send(Requests.get(target)).read();
            assertThat(longTarget.status()).isEqualTo(404);
            assertThat(longTarget.saysClose()).isFalse();
            assertThat(client.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");
        }
    }
}
