package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.server.Cors;
import dev.petrel.server.Handler;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Cors} as a browser meets it: the preflight and the request after it, with the request
 * heads Chromium sends for a {@code fetch} from another origin, and what is refused.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CorsTest {
    private static final String APP = "https://app.example.com";
    private static final AtomicInteger REACHED = new AtomicInteger();

    private static Handler app() {
        Router router = Router.builder()
                .get("/data", (req, res) -> {
                    REACHED.incrementAndGet();
                    res.header("X-Total-Count", "3").send("data");
                })
                .route("PUT", "/data", (req, res) -> {
                    REACHED.incrementAndGet();
                    res.send("put " + new String(req.bodyBytes(), java.nio.charset.StandardCharsets.UTF_8));
                })
                .post("/form", (req, res) -> {
                    REACHED.incrementAndGet();
                    res.send("posted");
                })
                .build();
        return Cors.builder()
                .allowOrigins(APP, "http://localhost:3000")
                .allowMethods("PUT", "DELETE")
                .allowHeaders("Authorization", "X-Requested-With")
                .exposeHeaders("X-Total-Count")
                .allowCredentials(true)
                .maxAge(Duration.ofMinutes(10))
                .wrap(router);
    }

    private static String preflight(String origin, String method, String headers) {
        return "OPTIONS /data HTTP/1.1\r\nHost: api.example.com\r\nAccept: */*\r\n"
                + "Access-Control-Request-Method: " + method + "\r\n"
                + (headers == null ? "" : "Access-Control-Request-Headers: " + headers + "\r\n")
                + "Origin: " + origin + "\r\nSec-Fetch-Mode: cors\r\n\r\n";
    }

    @TransportTest
    void aPreflightForAnAllowedOriginMethodAndHeadersIsAnsweredHereAndTheRequestAfterItCarriesTheHeaders(Transport kind)
            throws Exception {
        try (Server server = TestServers.start(kind, app()); RawClient client = RawClient.connect(server)) {
            int before = REACHED.get();
            RawResponse preflight = client.send(preflight(APP, "PUT", "authorization,content-type")).read();
            assertThat(preflight.status()).isEqualTo(204);
            assertThat(preflight.header("Access-Control-Allow-Origin")).isEqualTo(APP);
            assertThat(preflight.header("Access-Control-Allow-Credentials")).isEqualTo("true");
            assertThat(preflight.header("Access-Control-Allow-Methods")).isEqualTo("DELETE, GET, HEAD, POST, PUT");
            assertThat(preflight.header("Access-Control-Allow-Headers")).isEqualTo("authorization, content-type");
            assertThat(preflight.header("Access-Control-Max-Age")).isEqualTo("600");
            assertThat(preflight.header("Vary")).contains("Origin").contains("Access-Control-Request-Headers");
            assertThat(REACHED.get()).as("the preflight never reaches the handler").isEqualTo(before);

            RawResponse put = client.send("PUT /data HTTP/1.1\r\nHost: api.example.com\r\nOrigin: " + APP
                    + "\r\nAuthorization: Bearer t\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi").read();
            assertThat(put.status()).isEqualTo(200);
            assertThat(put.text()).isEqualTo("put hi");
            assertThat(put.header("Access-Control-Allow-Origin")).isEqualTo(APP);
            assertThat(put.header("Access-Control-Allow-Credentials")).isEqualTo("true");
            assertThat(put.header("Access-Control-Expose-Headers")).isEqualTo("X-Total-Count");
            assertThat(put.header("Vary")).isEqualTo("Origin");
        }
    }

    @TransportTest
    void aPreflightAskingForWhatIsNotAllowedIs403AndReachesNothing(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, app()); RawClient client = RawClient.connect(server)) {
            int before = REACHED.get();
            RawResponse origin = client.send(preflight("https://evil.example", "PUT", null)).read();
            assertThat(origin.status()).isEqualTo(403);
            assertThat(origin.header("Access-Control-Allow-Origin")).isNull();
            assertThat(origin.text()).contains("from this origin are not allowed");

            RawResponse method = client.send(preflight(APP, "PATCH", null)).read();
            assertThat(method.status()).isEqualTo(403);
            assertThat(method.text()).contains("method is not allowed");

            RawResponse header = client.send(preflight(APP, "PUT", "x-secret")).read();
            assertThat(header.status()).isEqualTo(403);
            assertThat(header.text()).contains("header is not allowed");
            assertThat(REACHED.get()).isEqualTo(before);

            // the connection goes on
            assertThat(client.send(Requests.get("/data")).read().text()).isEqualTo("data");
        }
    }

    @TransportTest
    void simpleRequestsFromAllowedOriginsAreAnsweredFromOthers403AndWithoutOriginUntouched(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, app()); RawClient client = RawClient.connect(server)) {
            RawResponse allowed = client.send("GET /data HTTP/1.1\r\nHost: api.example.com\r\nOrigin: http://localhost:3000\r\n\r\n").read();
            assertThat(allowed.text()).isEqualTo("data");
            assertThat(allowed.header("Access-Control-Allow-Origin")).isEqualTo("http://localhost:3000");

            int before = REACHED.get();
            RawResponse refused = client.send("POST /form HTTP/1.1\r\nHost: api.example.com\r\nOrigin: https://evil.example\r\n"
                    + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\n\r\na=1").read();
            assertThat(refused.status()).isEqualTo(403);
            assertThat(refused.header("Access-Control-Allow-Origin")).isNull();
            assertThat(REACHED.get()).as("a refused cross-origin POST is not acted on").isEqualTo(before);

            RawResponse plain = client.send(Requests.get("/data")).read();
            assertThat(plain.text()).isEqualTo("data");
            assertThat(plain.header("Access-Control-Allow-Origin")).isNull();
            assertThat(plain.header("Vary")).isNull();
        }
    }

    @TransportTest
    void aSameOriginPostWithItsOriginHeaderIsNoCrossOriginRequest(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, app()); RawClient client = RawClient.connect(server)) {
            String self = kind.tls() ? "https" : "http";
            RawResponse post = client.send("POST /form HTTP/1.1\r\nHost: api.example.com:8443\r\nOrigin: " + self
                    + "://api.example.com:8443\r\nContent-Length: 3\r\n\r\na=1").read();
            assertThat(post.status()).isEqualTo(200);
            assertThat(post.text()).isEqualTo("posted");
            assertThat(post.header("Access-Control-Allow-Origin")).isNull();
        }
    }

    @Test
    void anyOriginAnswersStarAndRefusesCredentials() {
        Handler ok = (req, res) -> res.send("ok");
        assertThatThrownBy(() -> Cors.builder().allowAnyOrigin().allowCredentials(true).wrap(ok))
                .hasMessageContaining("credentials");
        assertThatThrownBy(() -> Cors.builder().wrap(ok)).hasMessageContaining("no origin");
        assertThatThrownBy(() -> Cors.builder().allowOrigins("https://a.example/")).hasMessageContaining("without a path");
        assertThatThrownBy(() -> Cors.builder().allowOrigins("*")).hasMessageContaining("allowAnyOrigin");
    }

    @PlainHttpTransportTest
    void anyOriginIsAnsweredWithAStar(Transport kind) throws Exception {
        Handler app = Cors.builder().allowAnyOrigin().wrap((req, res) -> res.send("ok"));
        try (Server server = TestServers.start(kind, app); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send("GET / HTTP/1.1\r\nHost: a\r\nOrigin: https://anyone.example\r\n\r\n").read();
            assertThat(response.header("Access-Control-Allow-Origin")).isEqualTo("*");
            assertThat(response.header("Access-Control-Allow-Credentials")).isNull();
        }
    }
}
