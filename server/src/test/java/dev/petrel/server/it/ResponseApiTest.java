package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.server.config.AjpConfig;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.testkit.AjpClient;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * What the exchange offers a handler beyond a status, headers and a body: resetting an
 * uncommitted response, trailers both ways, and interim responses, on every transport, and what
 * becomes of them where the protocol cannot carry them (HTTP/1.0, AJP).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ResponseApiTest {
    private static final String SECRET = "s3cret";

    private static Router app() {
        return Router.builder()
                .get("/reset", (req, res) -> {
                    res.status(201).header("X-Dropped", "yes");
                    res.body().write("dropped".getBytes(StandardCharsets.US_ASCII));
                    res.reset();
                    res.header("X-Kept", "yes").send("after reset");
                })
                .get("/reset-late", (req, res) -> {
                    res.body().write("x".repeat(100).getBytes(StandardCharsets.US_ASCII));
                    res.body().flush();
                    assertThatThrownBy(res::reset).isInstanceOf(IllegalStateException.class);
                    res.body().write("!".getBytes(StandardCharsets.US_ASCII));
                })
                .get("/trailers", (req, res) -> {
                    res.trailer("X-Checksum", "abc");
                    res.send("small body"); // small, yet chunked to carry its trailer
                })
                .get("/trailers-streamed", (req, res) -> {
                    OutputStream out = res.body();
                    out.write("x".repeat(20_000).getBytes(StandardCharsets.US_ASCII)); // past the buffer: chunked
                    res.trailer("X-Count", "20000"); // added after the head left
                })
                .get("/hints", (req, res) -> {
                    res.header("Link", "</style.css>; rel=preload; as=style");
                    res.sendInterim(103);
                    res.send("final");
                })
                .post("/request-trailers", (req, res) -> {
                    byte[] body = req.bodyBytes();
                    res.send(new String(body, StandardCharsets.US_ASCII) + " " + req.trailers().first("X-Checksum"));
                })
                .build();
    }

    @TransportTest
    void anUncommittedResponseCanBeResetAndACommittedOneCannot(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, app()); RawClient client = RawClient.connect(server)) {
            RawResponse reset = client.send(Requests.get("/reset")).read();
            assertThat(reset.status()).isEqualTo(200);
            assertThat(reset.text()).isEqualTo("after reset");
            assertThat(reset.header("X-Dropped")).isNull();
            assertThat(reset.header("X-Kept")).isEqualTo("yes");

            RawResponse late = client.send(Requests.get("/reset-late")).read();
            assertThat(late.status()).isEqualTo(200);
            assertThat(late.text()).isEqualTo("x".repeat(100) + "!");
        }
    }

    @TransportTest
    void trailersGoAfterAChunkedBody(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, app()); RawClient client = RawClient.connect(server)) {
            RawResponse small = client.send(Requests.get("/trailers")).read();
            assertThat(small.header("Transfer-Encoding")).isEqualTo("chunked");
            assertThat(small.text()).isEqualTo("small body");
            assertThat(small.trailer("X-Checksum")).isEqualTo("abc");

            RawResponse streamed = client.send(Requests.get("/trailers-streamed")).read();
            assertThat(streamed.text()).hasSize(20_000);
            assertThat(streamed.trailer("X-Count")).isEqualTo("20000");
            assertThat(client.send(Requests.get("/hints")).read().status()).as("the connection goes on").isEqualTo(103);
        }
    }

    @TransportTest
    void anHttp10ClientGetsTheBodyWithoutTrailersOrInterimResponses(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, app()); RawClient client = RawClient.connect(server)) {
            RawResponse small = client.send("GET /trailers HTTP/1.0\r\n\r\n").read();
            assertThat(small.header("Transfer-Encoding")).isNull();
            assertThat(small.header("Content-Length")).isEqualTo("10");
            assertThat(small.text()).isEqualTo("small body");
        }
        try (Server server = TestServers.start(kind, app()); RawClient client = RawClient.connect(server)) {
            RawResponse hints = client.send("GET /hints HTTP/1.0\r\n\r\n").read();
            assertThat(hints.status()).as("no 103 before the final answer").isEqualTo(200);
            assertThat(hints.text()).isEqualTo("final");
        }
    }

    @TransportTest
    void earlyHintsComeBeforeTheFinalResponse(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, app()); RawClient client = RawClient.connect(server)) {
            client.send(Requests.get("/hints"));
            RawResponse hints = client.read();
            assertThat(hints.statusLine()).isEqualTo("HTTP/1.1 103 Early Hints");
            assertThat(hints.header("Link")).isEqualTo("</style.css>; rel=preload; as=style");
            RawResponse last = client.read();
            assertThat(last.status()).isEqualTo(200);
            assertThat(last.header("Link")).as("still set for the final response").isEqualTo("</style.css>; rel=preload; as=style");
            assertThat(last.text()).isEqualTo("final");
        }
    }

    @TransportTest
    void theHandlerSeesTheTrailersOfAChunkedUpload(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, app()); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send("POST /request-trailers HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nhello\r\n0\r\nX-Checksum: 5d41\r\n\r\n").read();
            assertThat(response.text()).isEqualTo("hello 5d41");
        }
    }

    @PlainHttpTransportTest
    void overAjpTrailersAndInterimResponsesAreDropped(Transport kind) throws Exception {
        try (Server server = TestServers.builder(kind, TestServers.config().build(), app()).ajp(0, AjpConfig.withSecret(SECRET)).start();
             AjpClient front = AjpClient.connect(server.ajpAddress())) {
            AjpClient.Response trailers = front.send(AjpClient.request("GET", "/trailers").secret(SECRET));
            assertThat(trailers.text()).isEqualTo("small body");
            assertThat(trailers.header("Content-Length")).isEqualTo("10");
            AjpClient.Response hints = front.send(AjpClient.request("GET", "/hints").secret(SECRET));
            assertThat(hints.status()).isEqualTo(200);
            assertThat(hints.text()).isEqualTo("final");
            assertThat(hints.reuse()).isTrue();
        }
    }
}
