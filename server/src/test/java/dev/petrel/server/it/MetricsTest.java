package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.config.AjpConfig;
import dev.petrel.server.ConnectorMetrics;
import dev.petrel.server.ConnectorMetrics.Method;
import dev.petrel.server.Handler;
import dev.petrel.server.admin.HealthCheck;
import dev.petrel.server.HttpStatusException;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.testkit.AjpClient;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The server's own metrics over real requests on every transport, plain and TLS, and over AJP:
 * connections accepted, open and refused, bytes both ways, TLS handshakes and their failures,
 * requests by method and status class with their durations, requests in flight; and readiness,
 * which turns false as soon as a stop begins, while requests still drain.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MetricsTest {
    private static final String SECRET = "s3cret";

    private static Handler app(CountDownLatch release) {
        return Router.builder()
                .get("/hello", (request, response) -> response.send("HelloWorld"))
                .get("/teapot", (request, response) -> {
                    throw new HttpStatusException(418, "I'm a teapot");
                })
                .post("/echo", (request, response) -> response.send(request.bodyBytes()))
                .get("/slow", (request, response) -> {
                    release.await(10, TimeUnit.SECONDS);
                    response.send("slow");
                })
                .build();
    }

    private static Server start(Transport transport, CountDownLatch release) throws Exception {
        return TestServers.builder(transport, TestServers.config().build(), transport.handler(app(release))).metrics(true).start();
    }

    @TransportTest
    void requestsConnectionsBytesAndHandshakesAreCountedPerConnector(Transport transport) throws Exception {
        try (Server server = start(transport, new CountDownLatch(0))) {
            String requests = Requests.get("/hello") + Requests.get("/teapot") + Requests.post("/echo", "ping") + Requests.head("/hello");
            try (RawClient client = RawClient.connect(server)) {
                assertThat(client.send(Requests.get("/hello")).read().status()).isEqualTo(200);
                assertThat(client.send(Requests.get("/teapot")).read().status()).isEqualTo(418);
                assertThat(client.send(Requests.post("/echo", "ping")).read().text()).isEqualTo("ping");
                assertThat(client.send(Requests.head("/hello")).readForHead().status()).isEqualTo(200);
            }
            ConnectorMetrics metrics = server.metrics().getFirst();
            TestServers.awaitCondition("the connection counted as closed", Duration.ofSeconds(5), () -> metrics.connectionsOpen() == 0);

            assertThat(server.metrics()).hasSize(1);
            assertThat(metrics.name()).isEqualTo((transport.tls() ? "https-" : "http-") + metrics.address().getPort());
            assertThat(metrics.connectionsAccepted()).isEqualTo(1);
            assertThat(metrics.connectionsRefused()).isZero();
            assertThat(metrics.requests(Method.GET, 2)).isEqualTo(1);
            assertThat(metrics.requests(Method.GET, 4)).isEqualTo(1);
            assertThat(metrics.requests(Method.POST, 2)).isEqualTo(1);
            assertThat(metrics.requests(Method.HEAD, 2)).isEqualTo(1);
            assertThat(metrics.requests()).isEqualTo(4);
            assertThat(metrics.requestsInFlight()).isZero();
            assertThat(metrics.durations().count()).isEqualTo(4);
            assertThat(metrics.durations().sum()).isPositive();
            // on the wire: every request byte came in; TLS adds its records both ways
            if (transport.tls()) {
                assertThat(metrics.bytesReceived()).isGreaterThan(requests.length());
                assertThat(metrics.tlsHandshakes()).isEqualTo(1);
            } else {
                assertThat(metrics.bytesReceived()).isEqualTo(requests.length());
                assertThat(metrics.tlsHandshakes()).isZero();
            }
            assertThat(metrics.bytesSent()).isGreaterThan("HelloWorld".length() + "ping".length());
            assertThat(metrics.tlsHandshakeFailures()).isZero();
        }
    }

    @TransportTest
    void aRequestIsInFlightUntilItsExchangeIsOver(Transport transport) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (Server server = start(transport, release); RawClient client = RawClient.connect(server)) {
            ConnectorMetrics metrics = server.metrics().getFirst();
            client.send(Requests.get("/slow"));
            TestServers.awaitCondition("one request in flight", Duration.ofSeconds(5), () -> metrics.requestsInFlight() == 1);
            assertThat(metrics.requests()).isZero();
            release.countDown();
            assertThat(client.read().text()).isEqualTo("slow");
            TestServers.awaitCondition("no request in flight", Duration.ofSeconds(5), () -> metrics.requestsInFlight() == 0);
            assertThat(metrics.requests(Method.GET, 2)).isEqualTo(1);
        }
    }

    @PlainHttpTransportTest
    void connectionsTurnedAwayAtTheLimitAreCountedAsRefused(Transport transport) throws Exception {
        try (Server server = TestServers.builder(transport, TestServers.config().build(), TestApp.handler())
                .maxConnections(1).queueTimeout(Duration.ZERO).metrics(true).start();
             RawClient holder = RawClient.connect(server)) {
            assertThat(holder.send(Requests.get("/")).read().status()).isEqualTo(200);
            try (RawClient second = RawClient.connect(server)) {
                assertThat(second.send(Requests.get("/")).read().status()).isEqualTo(503);
            }
            ConnectorMetrics metrics = server.metrics().getFirst();
            assertThat(metrics.connectionsRefused()).isEqualTo(1);
            assertThat(metrics.connectionsAccepted()).isEqualTo(1);
            assertThat(metrics.connectionsOpen()).isEqualTo(1);
        }
    }

    @Test
    void aFailedTlsHandshakeIsCounted() throws Exception {
        try (Server server = start(Transport.NIO_TLS, new CountDownLatch(0));
             Socket plain = new Socket("127.0.0.1", server.httpsAddress().getPort())) {
            OutputStream out = plain.getOutputStream();
            out.write(Requests.get("/hello").getBytes(StandardCharsets.US_ASCII)); // clear text to the TLS port
            out.flush();
            plain.getInputStream().readAllBytes(); // the server's 400, then its close
            ConnectorMetrics metrics = server.metrics().getFirst();
            TestServers.awaitCondition("the failed handshake counted", Duration.ofSeconds(5), () -> metrics.tlsHandshakeFailures() == 1);
            assertThat(metrics.tlsHandshakes()).isZero();
            assertThat(metrics.requests()).isZero();
        }
    }

    @PlainHttpTransportTest
    void ajpRequestsCountOnTheAjpConnector(Transport transport) throws Exception {
        try (Server server = TestServers.builder(transport, TestServers.config().build(), app(new CountDownLatch(0)))
                .ajp(0, AjpConfig.withSecret(SECRET)).metrics(true).start()) {
            try (AjpClient client = AjpClient.connect(server.ajpAddress())) {
                assertThat(client.send(AjpClient.request("GET", "/hello").secret(SECRET)).status()).isEqualTo(200);
                assertThat(client.send(AjpClient.request("GET", "/teapot").secret(SECRET)).status()).isEqualTo(418);
            }
            assertThat(server.metrics()).extracting(ConnectorMetrics::name)
                    .containsExactly("http-" + server.address().getPort(), "ajp-" + server.ajpAddress().getPort());
            ConnectorMetrics ajp = server.metrics().get(1);
            assertThat(ajp.requests(Method.GET, 2)).isEqualTo(1);
            assertThat(ajp.requests(Method.GET, 4)).isEqualTo(1);
            assertThat(ajp.bytesReceived()).isPositive();
            assertThat(server.metrics().getFirst().requests()).isZero();
        }
    }

    @Test
    void withoutMetricsNothingIsCounted() throws Exception {
        try (Server server = TestServers.start(Transport.NIO, TestApp.handler())) {
            assertThat(server.metrics()).isEmpty();
        }
    }

    @Test
    void theHealthCheckSaysDrainingOnceAStopBegins() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Server server = start(Transport.NIO, release);
        Server admin = Server.builder().port(0).handler(Router.builder().get("/health", new HealthCheck(server)).build()).start();
        try {
            try (RawClient probe = RawClient.connect(admin)) {
                var up = probe.send(Requests.get("/health")).read();
                assertThat(up.status()).isEqualTo(200);
                assertThat(up.text()).isEqualTo("{\"status\":\"UP\"}\n");
                assertThat(up.header("Cache-Control")).isEqualTo("no-store");
            }
            RawClient busy = RawClient.connect(server);
            busy.send(Requests.get("/slow"));
            TestServers.awaitCondition("the slow request in flight", Duration.ofSeconds(5),
                    () -> server.metrics().getFirst().requestsInFlight() == 1);
            CompletableFuture<Boolean> stopping = CompletableFuture.supplyAsync(() -> server.stop(Duration.ofSeconds(10)));
            TestServers.awaitCondition("not ready", Duration.ofSeconds(5), () -> !server.ready());
            try (RawClient probe = RawClient.connect(admin)) {
                var draining = probe.send(Requests.get("/health")).read();
                assertThat(draining.status()).isEqualTo(503);
                assertThat(draining.text()).isEqualTo("{\"status\":\"DRAINING\"}\n");
            }
            assertThat(stopping).isNotDone(); // the request still drains
            release.countDown();
            assertThat(busy.read().text()).isEqualTo("slow");
            assertThat(stopping.get(10, TimeUnit.SECONDS)).isTrue();
            busy.close();
        } finally {
            release.countDown();
            server.stop(Duration.ZERO);
            admin.stop(Duration.ZERO);
        }
    }
}
