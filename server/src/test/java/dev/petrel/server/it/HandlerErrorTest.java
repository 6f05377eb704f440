package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Server;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/** What clients see when handlers fail. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HandlerErrorTest {

    @TransportTest
    void exceptionBecomes500WithoutDetailsAndTheConnectionLives(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(Requests.get("/fail")).read();
            assertThat(response.statusLine()).isEqualTo("HTTP/1.1 500 Internal Server Error");
            assertThat(response.text())
                    .isEqualTo("Internal Server Error\n")
                    .doesNotContain("Exception", "at dev.", "boom", "Secret");
            assertThat(response.header("Connection")).isNull();
            assertThat(client.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");
        }
    }

    @TransportTest
    void declaredLengthNotMetBeforeCommitIsA500(Transport kind) throws Exception {
        dev.petrel.server.Handler wrongLength = (request, response) -> {
            response.contentLength(10);
            response.body().write("short".getBytes(StandardCharsets.US_ASCII));
        };
        try (Server server = TestServers.start(kind, wrongLength); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(Requests.get("/")).read();
            assertThat(response.status()).isEqualTo(500);
            assertThat(response.text()).isEqualTo("Internal Server Error\n");
        }
    }

    @TransportTest
    void ioExceptionOfTheHandlerItselfIsA500Too(Transport kind) throws Exception {
        // Handler contract: an exception becomes a 500 when nothing was sent yet, whatever its type
        try (Server server = TestServers.start(kind, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(Requests.get("/io-fail")).read();
            assertThat(response.status()).isEqualTo(500);
            assertThat(response.text()).doesNotContain("Exception", "at dev.", "boom", "Secret");
            assertThat(client.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");
        }
    }

    @TransportTest
    void httpStatusExceptionGivesItsStatus(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(Requests.get("/missing")).read();
            assertThat(response.status()).isEqualTo(404);
            assertThat(response.text()).isEqualTo("Not Found: no such thing\n");
            assertThat(response.header("Content-Type")).isEqualTo("text/plain;charset=UTF-8");
            assertThat(response.header("Connection")).isNull();
            assertThat(client.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");
        }
    }

    @TransportTest
    void exceptionBeforeCommitDiscardsWhatWasBuffered(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(Requests.get("/fail-before-commit")).read();
            assertThat(response.status()).isEqualTo(500);
            assertThat(response.text()).doesNotContain("partial", "Exception", "at dev.");
            assertThat(client.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");
        }
    }

    @TransportTest
    void exceptionAfterCommitCutsTheConnection(Transport kind) throws Exception {
        var config = TestServers.config().responseBufferSize(256).build();
        try (Server server = TestServers.start(kind, config, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            RawResponse head = client.send(Requests.get("/fail-after-commit") + Requests.get("/")).readHead();
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("Transfer-Encoding")).isEqualTo("chunked");
            StringBuilder rest = new StringBuilder();
            byte[] buffer = new byte[4096];
            int n;
            while ((n = client.readSome(buffer)) >= 0) rest.append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
            assertThat(n).as("the connection is reset, not ended in order: an error for any client").isEqualTo(RawClient.RESET);
            assertThat(rest.toString()).as("no last chunk: the client must see the body is truncated")
                    .doesNotContain("\r\n0\r\n\r\n")
                    .doesNotContain("HTTP/1.1");
            assertThat(rest.toString()).contains("abcdefghij"); // what was streamed before the failure did arrive
        }
    }

    @TransportTest
    void invalidHeaderValueFromTheHandlerIsA500NotASplitResponse(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, (req, res) -> {
            res.header("X-Injected", "a\r\nSet-Cookie: evil=1");
            res.send("unreachable");
        }); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(Requests.get("/")).read();
            assertThat(response.status()).isEqualTo(500);
            assertThat(response.header("Set-Cookie")).isNull();
            assertThat(response.header("X-Injected")).isNull();
        }
    }
}
