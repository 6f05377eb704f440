package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.config.DataRate;
import dev.petrel.server.IncompleteBodyException;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.server.config.ServerConfig;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Request bodies that keep the server waiting too long are cut with 408 and a close, whatever
 * the transport: one trickled below the minimum rate (by default 240 B/s after 5 s, as Kestrel),
 * and one that takes longer in all than the request body timeout; a body that keeps up is
 * accepted however long it is.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SlowBodyTest {
    private static final String HEAD = "POST /upload HTTP/1.1\r\nHost: test\r\nContent-Length: 1000\r\n\r\n";

    private static Server start(Transport kind, ServerConfig config, BodySpy spy) throws Exception {
        return TestServers.start(kind, config, Router.builder().post("/upload", spy.handler()).build());
    }

    /** Sends one byte of the body every {@code pauseMillis} until the server answers; returns the milliseconds that took. */
    private static long trickleUntilAnswered(RawClient client, long pauseMillis, int maxBytes) throws Exception {
        long start = System.nanoTime();
        for (int sent = 0; sent < maxBytes && !client.inputAvailable(); sent++) {
            client.send("x");
            Thread.sleep(pauseMillis);
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    @TransportTest
    void aBodyTrickledAtOneBytePerSecondGets408WithTheDefaults(Transport kind) throws Exception {
        BodySpy spy = new BodySpy();
        ServerConfig defaults = TestServers.config().from(ServerConfig.DEFAULT).bodyReadTimeout(Duration.ofSeconds(20)).build();
        assertThat(defaults.minRequestBodyRate()).isEqualTo(new DataRate(240, Duration.ofSeconds(5)));
        try (Server server = start(kind, defaults, spy); RawClient client = RawClient.connect(server)) {
            client.send(HEAD);
            long took = trickleUntilAnswered(client, 1000, 30);

            RawResponse response = client.read();
            assertThat(response.status()).isEqualTo(408);
            assertThat(response.text()).isEqualTo("Request Timeout: Request body too slow: below the minimum of 240 bytes/s\n");
            assertThat(response.headers("Connection")).containsExactly("close");
            client.assertClosedByServer();
            assertThat(took).as("cut a little after the 5 s grace, well within 30 s").isBetween(4_000L, 10_000L);
            assertThat(spy.awaitFailure()).isInstanceOf(IncompleteBodyException.class);
            assertThat(((IncompleteBodyException) spy.awaitFailure()).status()).isEqualTo(408);
        }
    }

    @TransportTest
    void aBodyBelowAConfiguredRateIsCutSoonAfterTheGrace(Transport kind) throws Exception {
        BodySpy spy = new BodySpy();
        ServerConfig config = TestServers.config().from(ServerConfig.DEFAULT
                .withMinRequestBodyRate(new DataRate(1000, Duration.ofMillis(500)))).build();
        try (Server server = start(kind, config, spy); RawClient client = RawClient.connect(server)) {
            client.send(HEAD);
            long took = trickleUntilAnswered(client, 50, 200); // 20 bytes/s
            assertThat(client.read().status()).isEqualTo(408);
            assertThat(took).isBetween(300L, 3_000L);
            assertThat(spy.seen().length()).as("bytes the handler took before the cut").isBetween(1, 60);
        }
    }

    @TransportTest
    void aBodyThatKeepsUpWithTheRateIsAcceptedHoweverLong(Transport kind) throws Exception {
        BodySpy spy = new BodySpy();
        ServerConfig config = TestServers.config().from(ServerConfig.DEFAULT
                .withMinRequestBodyRate(new DataRate(1000, Duration.ofMillis(200)))).build();
        try (Server server = start(kind, config, spy); RawClient client = RawClient.connect(server)) {
            client.send(HEAD);
            for (int i = 0; i < 10; i++) { // 100 bytes every 50 ms: 2000 bytes/s for half a second
                client.send(Requests.pattern(100));
                Thread.sleep(50);
            }
            RawResponse response = client.read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo(Requests.pattern(100).repeat(10));
        }
    }

    /**
     * The same over HTTP/2 (h2c): the rate counts the bytes of the DATA frames, not the waits for
     * them (a wait once counted as one byte, so a fast upload failed the rate after its grace).
     */
    @PlainHttpTransportTest
    void anHttp2BodyThatKeepsUpWithTheRateIsAccepted(Transport kind) throws Exception {
        BodySpy spy = new BodySpy();
        ServerConfig config = TestServers.config().from(ServerConfig.DEFAULT
                .withMinRequestBodyRate(new DataRate(1000, Duration.ofMillis(200)))).build();
        try (Server server = TestServers.builder(kind, config, Router.builder().post("/upload", spy.handler()).build())
                .http2(dev.petrel.server.config.Http2Config.ENABLED.withClearText(true)).start();
             H2Client client = H2Client.connect(server.address().getPort())) {
            client.headers(1, false, H2Client.request("POST", "/upload", "content-length", "5000"));
            for (int i = 0; i < 10; i++) { // 500 bytes every 50 ms: 10,000 bytes/s for half a second
                client.data(1, Requests.pattern(500).getBytes(java.nio.charset.StandardCharsets.US_ASCII), i == 9);
                Thread.sleep(50);
            }
            H2Client.Response response = client.response(1);
            assertThat(response.status()).as(response.text()).isEqualTo(200);
            assertThat(response.text()).isEqualTo(Requests.pattern(500).repeat(10));
        }
    }

    @TransportTest
    void aBodyLongerInAllThanTheRequestBodyTimeoutGets408(Transport kind) throws Exception {
        BodySpy spy = new BodySpy();
        ServerConfig config = TestServers.config().from(ServerConfig.DEFAULT.withMinRequestBodyRate(DataRate.OFF)
                .withRequestBodyTimeout(Duration.ofMillis(800))).build();
        try (Server server = start(kind, config, spy); RawClient client = RawClient.connect(server)) {
            client.send(HEAD);
            long took = trickleUntilAnswered(client, 100, 100); // steady, yet 1000 bytes would take 100 s
            RawResponse response = client.read();
            assertThat(response.status()).isEqualTo(408);
            assertThat(response.text()).isEqualTo("Request Timeout: Request body too slow: not complete within 800 ms\n");
            assertThat(took).isBetween(500L, 3_000L);
        }
    }
}
