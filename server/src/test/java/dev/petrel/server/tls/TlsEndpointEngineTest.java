package dev.petrel.server.tls;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http.DateCache;
import dev.petrel.server.Handler;
import dev.petrel.server.config.ServerConfig;
import dev.petrel.server.http1.Http1Connection;
import dev.petrel.server.tls.TlsEndpointMemoryEndpoint.Mode;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP/1.1 engine, unchanged, over a {@link TlsEndpoint}: it serves keep-alive requests on a
 * thread of its own, and on an endpoint that waits without a thread it takes requests in with
 * {@code poll()} as an event loop drives it, never blocking between requests.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsEndpointEngineTest {
    private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("1994-11-06T08:49:37Z"));
    private static final String DATE = "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n";

    @TempDir
    static Path keyDir;
    private static TlsEndpointKeys keys;

    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final Handler echo = (request, response) -> response.contentType("text/plain")
            .send(request.method() + " " + request.path() + " body=" + new String(request.bodyBytes(), ISO_8859_1));

    @BeforeAll
    static void generateKeys() throws Exception {
        keys = TlsEndpointKeys.generate(keyDir);
    }

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private TlsEndpoint handshaken(TlsEndpointMemoryEndpoint raw, TlsEndpointMemoryClient client) throws Exception {
        TlsEndpoint server = new TlsEndpoint(raw, keys.serverEngine());
        Future<?> handshake = threads.submit(() -> {
            server.handshake(10_000);
            return null;
        });
        client.handshake();
        handshake.get(10, TimeUnit.SECONDS);
        return server;
    }

    private Http1Connection engine(TlsEndpoint endpoint) {
        return new Http1Connection(endpoint, echo, ServerConfig.DEFAULT, new DateCache(CLOCK));
    }

    private static String ok(String body) {
        return "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n" + DATE + "Content-Length: " + body.length() + "\r\n\r\n" + body;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(ISO_8859_1);
    }

    @Test
    void keepAliveRequestsOnAThreadOfTheirOwnEndWithCloseNotify() throws Exception {
        TlsEndpointMemoryEndpoint raw = new TlsEndpointMemoryEndpoint(Mode.CHUNKS);
        TlsEndpointMemoryClient client = new TlsEndpointMemoryClient(keys.clientEngine("TLSv1.3", null), raw, new Random(17));
        TlsEndpoint server = handshaken(raw, client);
        Future<Boolean> serving = threads.submit(engine(server)::serve);

        client.send(bytes("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"));
        String first = ok("POST /a body=hello");
        assertThat(new String(client.receive(first.length()), ISO_8859_1)).isEqualTo(first);

        client.send(bytes("GET /b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
        String second = new String(client.receiveAll(), ISO_8859_1);
        assertThat(second).startsWith("HTTP/1.1 200 OK\r\n").contains("Connection: close\r\n").endsWith("GET /b body=");
        assertThat(client.closeNotifyReceived()).isTrue();

        client.sendCloseNotify();
        raw.feedEnd(); // the engine lingers until the client closes
        assertThat(serving.get(10, TimeUnit.SECONDS)).as("connection ended").isFalse();
        assertThat(raw.closed()).isTrue();
    }

    @Test
    void anEventLoopDrivesTheEngineWithoutBlockingBetweenRequests() throws Exception {
        TlsEndpointMemoryEndpoint raw = new TlsEndpointMemoryEndpoint(Mode.EVENT_LOOP);
        TlsEndpointMemoryClient client = new TlsEndpointMemoryClient(keys.clientEngine("TLSv1.2", null), raw, null);
        TlsEndpoint server = handshaken(raw, client);
        int blockingReads = raw.blockingReads();
        Http1Connection engine = engine(server);

        assertThat(engine.serve()).as("waiting for the first request").isTrue();
        byte[] record = client.wrap(bytes("GET /c HTTP/1.1\r\nHost: x\r\n\r\n"));
        raw.feed(record, 0, record.length - 1);
        assertThat(engine.poll()).as("a partial record is no request yet").isFalse();
        raw.feed(record, record.length - 1, 1);
        assertThat(engine.poll()).isTrue();
        assertThat(engine.serve()).as("answered, then waiting again").isTrue();

        String answer = ok("GET /c body=");
        assertThat(new String(client.receive(answer.length()), ISO_8859_1)).isEqualTo(answer);
        assertThat(raw.blockingReads()).as("blocking raw reads after the handshake").isEqualTo(blockingReads);
        assertThat(raw.closed()).isFalse();
    }
}
