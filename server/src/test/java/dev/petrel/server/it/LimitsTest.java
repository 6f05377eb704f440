package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http.HttpLimits;
import dev.petrel.server.Server;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Requests the server must refuse, each with its exact status, {@code Connection: close} and a
 * closed connection, after which the server still serves a fresh connection.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LimitsTest {
    private static final HttpLimits LIMITS = new HttpLimits(512, 1024, 10, 1000, 64);
    private static final String HOST = "Host: test\r\n";

    record Case(String name, String request, int status) {
        @Override
        public String toString() {
            return name + " -> " + status;
        }
    }

    static Stream<Arguments> cases() {
        String manyHeaders = "";
        for (int i = 0; i < 10; i++) manyHeaders += "X-H" + i + ": v\r\n";
        return TestServers.everyTransportWith(List.of(
                new Case("long target", "GET /" + "a".repeat(600) + " HTTP/1.1\r\n" + HOST + "\r\n", 414),
                new Case("long method", "A".repeat(600) + " / HTTP/1.1\r\n" + HOST + "\r\n", 400),
                new Case("too many headers", "GET / HTTP/1.1\r\n" + HOST + manyHeaders + "\r\n", 431),
                new Case("too large headers", "GET / HTTP/1.1\r\n" + HOST + "X-Big: " + "b".repeat(1100) + "\r\n\r\n", 431),
                new Case("Content-Length over maxBodySize",
                        "POST /echo HTTP/1.1\r\n" + HOST + "Content-Length: 1001\r\n\r\n" + "x".repeat(1001), 413),
                new Case("chunked body over maxBodySize",
                        "POST /echo HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                                + "258\r\n" + "x".repeat(600) + "\r\n258\r\n" + "y".repeat(600) + "\r\n0\r\n\r\n", 413),
                new Case("chunk size line too long",
                        "POST /echo HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                                + "5;" + "e".repeat(100) + "\r\nhello\r\n0\r\n\r\n", 400),
                new Case("trailer section too large",
                        "POST /echo HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                                + "5\r\nhello\r\n0\r\nX-Trailer: " + "t".repeat(1100) + "\r\n\r\n", 431),
                new Case("too many trailer fields",
                        "POST /echo HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                                + "5\r\nhello\r\n0\r\n" + manyHeaders + "X-Last: 1\r\n\r\n", 431),
                new Case("Transfer-Encoding gzip", "POST /echo HTTP/1.1\r\n" + HOST + "Transfer-Encoding: gzip\r\n\r\n", 501),
                new Case("Transfer-Encoding chunked not last",
                        "POST /echo HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked, gzip\r\n\r\n", 400),
                new Case("HTTP/2.0", "GET / HTTP/2.0\r\n" + HOST + "\r\n", 505),
                new Case("HTTP/0.9 style", "GET /\r\n\r\n", 400),
                new Case("bare LF line ends", "GET / HTTP/1.1\n" + HOST.replace("\r\n", "\n") + "\n", 400),
                new Case("bare LF in a header", "GET / HTTP/1.1\r\n" + HOST + "X-A: b\nX-C: d\r\n\r\n", 400),
                new Case("bare CR in a header", "GET / HTTP/1.1\r\n" + HOST + "X-A: b\rX-C: d\r\n\r\n", 400),
                new Case("obs-fold", "GET / HTTP/1.1\r\n" + HOST + "X-A: b\r\n  folded\r\n\r\n", 400),
                new Case("whitespace before colon", "GET / HTTP/1.1\r\n" + HOST + "X-A : b\r\n\r\n", 400),
                new Case("missing Host", "GET / HTTP/1.1\r\n\r\n", 400),
                new Case("two Host fields", "GET / HTTP/1.1\r\n" + HOST + "Host: other\r\n\r\n", 400),
                new Case("Content-Length with Transfer-Encoding",
                        "POST /echo HTTP/1.1\r\n" + HOST + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
                                + "5\r\nhello\r\n0\r\n\r\n", 400),
                new Case("conflicting Content-Length",
                        "POST /echo HTTP/1.1\r\n" + HOST + "Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", 400),
                new Case("invalid Content-Length", "POST /echo HTTP/1.1\r\n" + HOST + "Content-Length: -5\r\n\r\n", 400),
                new Case("Transfer-Encoding from HTTP/1.0",
                        "POST /echo HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
                new Case("invalid percent-encoding", "GET /%zz HTTP/1.1\r\n" + HOST + "\r\n", 400),
                new Case("invalid chunk size",
                        "POST /echo HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
                new Case("chunk data without CRLF",
                        "POST /echo HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n5\r\nhelloXX0\r\n\r\n", 400)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void refusedWithCloseAndTheServerIsUnharmed(Transport kind, Case c) throws Exception {
        var config = TestServers.config().limits(LIMITS).build();
        try (Server server = TestServers.start(kind, config, TestApp.handler())) {
            try (RawClient client = RawClient.connect(server)) {
                RawResponse response = client.send(c.request()).read();
                assertThat(response.status()).as(response.toString()).isEqualTo(c.status());
                assertThat(response.headers("Connection")).containsExactly("close");
                assertThat(response.header("Content-Type")).isEqualTo("text/plain;charset=UTF-8");
                assertThat(response.header("Date")).endsWith(" GMT");
                assertThat(response.text()).startsWith(dev.petrel.http.HttpStatus.reason(c.status()) + ": ");
                client.assertClosedByServer();
            }
            try (RawClient fresh = RawClient.connect(server)) {
                RawResponse ok = fresh.send(Requests.get("/")).read();
                assertThat(ok.status()).isEqualTo(200);
                assertThat(ok.text()).isEqualTo("HelloWorld");
            }
        }
    }

    @TransportTest
    void requestsJustWithinTheLimitsAreServed(Transport kind) throws Exception {
        var config = TestServers.config().limits(LIMITS).build();
        String nineHeaders = "";
        for (int i = 0; i < 9; i++) nineHeaders += "X-H" + i + ": v\r\n";
        try (Server server = TestServers.start(kind, config, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            assertThat(client.send("GET / HTTP/1.1\r\n" + HOST + nineHeaders + "\r\n").read().status()).isEqualTo(200);
            assertThat(client.send(Requests.post("/echo", "x".repeat(1000))).read().text()).hasSize(1000);
            String chunked = "POST /echo HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                    + "1f4\r\n" + "x".repeat(500) + "\r\n1f4\r\n" + "y".repeat(500) + "\r\n0\r\n\r\n";
            assertThat(client.send(chunked).read().text()).hasSize(1000);
            // request line of exactly 512 bytes: "GET " + target + " HTTP/1.1"
            String target = "/" + "a".repeat(512 - "GET  HTTP/1.1".length() - 1);
            RawResponse longTarget = client.send("GET " + target + " HTTP/1.1\r\n" + HOST + "\r\n").read();
            assertThat(longTarget.status()).isEqualTo(404);
            assertThat(longTarget.saysClose()).isFalse();
        }
    }
}
