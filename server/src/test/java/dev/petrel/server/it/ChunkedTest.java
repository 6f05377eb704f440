package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Server;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/** Chunked request bodies and the framing of streamed responses (RFC 9112 sections 6 and 7). */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ChunkedTest {

    @TransportTest
    void chunkedUploadWithExtensionsAndTrailersIsDecoded(Transport kind) throws Exception {
        String request = "POST /echo HTTP/1.1\r\nHost: test\r\nContent-Type: text/plain\r\n"
                + "Transfer-Encoding: chunked\r\nTrailer: X-Checksum\r\n\r\n"
                + "6;name=value\r\nhello \r\n"
                + "8 ; quoted=\"a b\"\r\nchunked \r\n"
                + "A\r\nworld, 10!\r\n"
                + "0\r\nX-Checksum: abc\r\nX-Other: def\r\n\r\n";
        try (Server server = TestServers.start(kind, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(request).read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo("hello chunked world, 10!");
            assertThat(response.header("Content-Length")).isEqualTo("24");
            assertThat(response.header("Transfer-Encoding")).isNull();
            // the trailer section was consumed exactly: the connection carries the next request
            assertThat(client.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");
        }
    }

    @TransportTest
    void streamedResponseWithoutLengthIsChunked(Transport kind) throws Exception {
        var config = TestServers.config().responseBufferSize(256).build();
        try (Server server = TestServers.start(kind, config, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(Requests.get("/stream?5000")).read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.headers("Transfer-Encoding")).containsExactly("chunked");
            assertThat(response.header("Content-Length")).isNull();
            assertThat(response.text()).isEqualTo(Requests.pattern(5000));
            assertThat(response.header("Connection")).isNull();
            assertThat(client.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");
        }
    }

    @TransportTest
    void smallStreamedResponseGetsALength(Transport kind) throws Exception {
        var config = TestServers.config().responseBufferSize(256).build();
        try (Server server = TestServers.start(kind, config, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(Requests.get("/stream?256")).read();
            assertThat(response.header("Transfer-Encoding")).isNull();
            assertThat(response.header("Content-Length")).isEqualTo("256");
            assertThat(response.text()).isEqualTo(Requests.pattern(256));
        }
    }

    @TransportTest
    void streamedResponseWithDeclaredLengthIsNotChunked(Transport kind) throws Exception {
        var config = TestServers.config().responseBufferSize(256).build();
        try (Server server = TestServers.start(kind, config, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(Requests.get("/stream-length?5000")).read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("Transfer-Encoding")).isNull();
            assertThat(response.header("Content-Length")).isEqualTo("5000");
            assertThat(response.text()).isEqualTo(Requests.pattern(5000));
            assertThat(client.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");
        }
    }

    @TransportTest
    void http10ClientGetsACloseDelimitedStream(Transport kind) throws Exception {
        var config = TestServers.config().responseBufferSize(256).build();
        try (Server server = TestServers.start(kind, config, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            RawResponse head = client.send("GET /stream?5000 HTTP/1.0\r\n\r\n").readHead();
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("Transfer-Encoding")).isNull();
            assertThat(head.header("Content-Length")).isNull();
            assertThat(head.headers("Connection")).containsExactly("close");
            assertThat(new String(client.readToEnd(), java.nio.charset.StandardCharsets.US_ASCII))
                    .isEqualTo(Requests.pattern(5000));
        }
    }

    @TransportTest
    void http10KeepAliveClientStillGetsACloseDelimitedStream(Transport kind) throws Exception {
        var config = TestServers.config().responseBufferSize(256).build();
        try (Server server = TestServers.start(kind, config, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send("GET /stream?3000 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").read();
            assertThat(response.header("Transfer-Encoding")).isNull();
            assertThat(response.header("Content-Length")).isNull();
            assertThat(response.headers("Connection")).containsExactly("close");
            assertThat(response.text()).isEqualTo(Requests.pattern(3000)); // read to end of stream
        }
    }

    @TransportTest
    void largeChunkedUploadIsEchoedChunked(Transport kind) throws Exception {
        var config = TestServers.config().responseBufferSize(256).build();
        String body = Requests.pattern(20_000);
        StringBuilder request = new StringBuilder("POST /echo HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n");
        for (int off = 0; off < body.length(); off += 3000) {
            String piece = body.substring(off, Math.min(body.length(), off + 3000));
            request.append(Integer.toHexString(piece.length())).append("\r\n").append(piece).append("\r\n");
        }
        request.append("0\r\n\r\n");
        try (Server server = TestServers.start(kind, config, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(request.toString()).read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("Content-Length")).isEqualTo("20000"); // echo sends the bytes it read at once
            assertThat(response.text()).isEqualTo(body);
        }
    }
}
