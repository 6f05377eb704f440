package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Server;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Malformed and truncated input never hangs or hurts the server: each gets its error (or a
 * quiet close when nothing can be answered), the connection closes, and the next client is served.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BadInputTest {
    private static final String POST_CHUNKED = "POST /echo HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n";

    /** {@code status} 0: no answer is possible, the server just closes. */
    record Bad(String name, byte[] bytes, int status) {
        Bad(String name, String text, int status) {
            this(name, text.getBytes(StandardCharsets.ISO_8859_1), status);
        }

        @Override
        public String toString() {
            return name + " -> " + (status == 0 ? "close" : status);
        }
    }

    static Stream<Arguments> inputs() {
        byte[] random = new byte[512];
        new Random(42).nextBytes(random);
        random[0] = (byte) 0xFF;
        return TestServers.everyTransportWith(List.of(
                new Bad("NUL bytes", "\0\0\0\0", 400),
                new Bad("random binary", random, 400),
                new Bad("TLS client hello", new byte[] {0x16, 0x03, 0x01, 0x00, (byte) 0xa5, 0x01, 0x00}, 400),
                new Bad("only empty lines", "\r\n".repeat(10), 400),
                new Bad("method only", "GET\r\n\r\n", 400),
                new Bad("two spaces", "GET  / HTTP/1.1\r\nHost: test\r\n\r\n", 400),
                new Bad("trailing garbage in request line", "GET / HTTP/1.1 extra\r\nHost: test\r\n\r\n", 400),
                new Bad("lower-case version", "GET / http/1.1\r\nHost: test\r\n\r\n", 400),
                new Bad("non-ASCII target", "GET /\u00e9 HTTP/1.1\r\nHost: test\r\n\r\n", 400),
                new Bad("control character in a value", "GET / HTTP/1.1\r\nHost: test\r\nX-A: a\u0001b\r\n\r\n", 400),
                new Bad("invalid field name", "GET / HTTP/1.1\r\nHost: test\r\nX(a): b\r\n\r\n", 400),
                new Bad("empty field name", "GET / HTTP/1.1\r\nHost: test\r\n: b\r\n\r\n", 400),
                new Bad("invalid Host", "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400),
                new Bad("CONNECT without authority", "CONNECT / HTTP/1.1\r\nHost: test\r\n\r\n", 400),
                new Bad("asterisk for GET", "GET * HTTP/1.1\r\nHost: test\r\n\r\n", 400),
                new Bad("userinfo in absolute form", "GET http://u@test/ HTTP/1.1\r\nHost: test\r\n\r\n", 400),
                new Bad("lone percent", "GET /% HTTP/1.1\r\nHost: test\r\n\r\n", 400),
                new Bad("Content-Length 1e3", "POST /echo HTTP/1.1\r\nHost: test\r\nContent-Length: 1e3\r\n\r\n", 400),
                new Bad("Content-Length overflow",
                        "POST /echo HTTP/1.1\r\nHost: test\r\nContent-Length: 99999999999999999999\r\n\r\n", 400),
                new Bad("Transfer-Encoding xchunked", "POST /echo HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: xchunked\r\n\r\n", 501),
                new Bad("chunked twice",
                        "POST /echo HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
                new Bad("huge method", "A".repeat(100_000), 400),
                new Bad("negative chunk size", POST_CHUNKED + "-1\r\nx\r\n0\r\n\r\n", 400),
                new Bad("0x chunk size", POST_CHUNKED + "0x5\r\nhello\r\n0\r\n\r\n", 400),
                new Bad("chunk size overflow", POST_CHUNKED + "f".repeat(17) + "\r\n", 413),
                new Bad("bad trailer", POST_CHUNKED + "0\r\nBad Trailer: x\r\n\r\n", 400),
                new Bad("chunk size line with bare LF", POST_CHUNKED + "5\nhello\r\n0\r\n\r\n", 400),
                new Bad("head cut short", "GET / HTT", 0),
                new Bad("head without final empty line", "GET / HTTP/1.1\r\nHost: test\r\n", 0),
                new Bad("body cut short", "POST /echo HTTP/1.1\r\nHost: test\r\nContent-Length: 10\r\n\r\nabc", 400),
                new Bad("chunked body cut short", POST_CHUNKED + "a\r\nabc", 400),
                new Bad("chunked body without last chunk", POST_CHUNKED + "3\r\nabc\r\n", 400)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("inputs")
    void badInputIsRefusedAndTheServerStillServes(Transport kind, Bad bad) throws Exception {
        try (Server server = TestServers.start(kind, TestApp.handler())) {
            try (RawClient client = RawClient.connect(server)) {
                client.send(bad.bytes());
                client.shutdownOutput(); // no more bytes will come: the server must not wait for a timeout
                // an input whose fault only the client's close_notify reveals cannot be answered by an engine that
                // closes on it (TestServers.answersAfterCloseNotify): the server closes, as it must not wait either
                boolean closeRevealsIt = bad.name().contains("cut short") || bad.name().contains("without last chunk");
                if (bad.status() == 0 || closeRevealsIt && !TestServers.answersAfterCloseNotify(kind)) {
                    client.assertClosedByServer();
                } else {
                    RawResponse response = client.read();
                    assertThat(response.status()).as(response.toString()).isEqualTo(bad.status());
                    assertThat(response.headers("Connection")).containsExactly("close");
                    client.assertClosedByServer();
                }
            }
            try (RawClient fresh = RawClient.connect(server)) {
                RawResponse ok = fresh.send(Requests.get("/")).read();
                assertThat(ok.status()).isEqualTo(200);
                assertThat(ok.text()).isEqualTo("HelloWorld");
            }
        }
    }

    @TransportTest
    void badInputsInterleavedWithGoodRequests(Transport kind) throws Exception {
        // the same server through everything: bad client, good client, bad client...
        List<Bad> all = inputs().filter(a -> a.get()[0] == kind).map(a -> (Bad) a.get()[1]).toList();
        try (Server server = TestServers.start(kind, TestApp.handler())) {
            try (RawClient keeper = RawClient.connect(server)) { // a keep-alive connection that lives through it all
                for (Bad bad : all) {
                    try (RawClient client = RawClient.connect(server)) {
                        client.send(bad.bytes());
                        client.shutdownOutput();
                        client.readToEnd();
                    }
                    assertThat(keeper.send(Requests.get("/")).read().text()).as(bad.name()).isEqualTo("HelloWorld");
                }
            }
            assertThat(server.liveConnections()).isLessThanOrEqualTo(all.size() + 1);
        }
    }
}
