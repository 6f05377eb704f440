package dev.petrel.http;

import static dev.petrel.http.SplitParsing.assertParsesInAllSplits;
import static dev.petrel.http.SplitParsing.assertRejectedInAllSplits;
import static dev.petrel.http.SplitParsing.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Request heads in the style of httparse's {@code req!} tables: a name, the bytes, and what must
 * come of them. Every case is fed whole, split at every byte and one byte at a time.
 */
class RequestParserTest {
    private static final String HOST = "Host: example.com\r\n";

    /** An accepted head: every expectation must hold for it. */
    record Accept(String name, HttpLimits limits, String raw, Consumer<RequestHead> expect) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** A rejected head and the status it must be answered with. */
    record Reject(String name, HttpLimits limits, String raw, int status) {
        @Override
        public String toString() {
            return name + " -> " + status;
        }
    }

    private static Accept req(String name, String raw, Consumer<RequestHead> expect) {
        return new Accept(name, HttpLimits.DEFAULT, raw, expect);
    }

    private static Accept req(String name, HttpLimits limits, String raw, Consumer<RequestHead> expect) {
        return new Accept(name, limits, raw, expect);
    }

    private static Reject bad(String name, String raw, int status) {
        return new Reject(name, HttpLimits.DEFAULT, raw, status);
    }

    private static Reject bad(String name, HttpLimits limits, String raw, int status) {
        return new Reject(name, limits, raw, status);
    }

    /** Small limits that make the boundaries easy to see: 32-byte request line, 64-byte header section, 3 fields, 10-byte body. */
    private static final HttpLimits SMALL = new HttpLimits(32, 64, 3, 10, 16);

    static Stream<Accept> accepted() {
        return Stream.of(
                // --- request line and targets ---
                req("simple GET", "GET / HTTP/1.1\r\n" + HOST + "\r\n", h -> {
                    assertThat(h.method()).isSameAs(Methods.GET);
                    assertThat(h.target()).isEqualTo("/");
                    assertThat(h.targetForm()).isEqualTo(TargetForm.ORIGIN);
                    assertThat(h.rawPath()).isEqualTo("/");
                    assertThat(h.query()).isNull();
                    assertThat(h.host()).isEqualTo("example.com");
                    assertThat(h.version()).isEqualTo(HttpVersion.HTTP_1_1);
                    assertThat(h.framing()).isEqualTo(BodyFraming.NONE);
                    assertThat(h.contentLength()).isEqualTo(-1);
                    assertThat(h.keepAlive()).isTrue();
                    assertThat(h.keepAliveRequested()).isFalse();
                    assertThat(h.expectContinue()).isFalse();
                    assertThat(h.headers().size()).isEqualTo(1);
                    assertThat(h.toString()).isEqualTo("GET / HTTP/1.1");
                }),
                req("standard methods are shared constants", "DELETE /x HTTP/1.1\r\n" + HOST + "\r\n",
                        h -> assertThat(h.method()).isSameAs(Methods.DELETE)),
                req("extension method", "PURGE /cache HTTP/1.1\r\n" + HOST + "\r\n",
                        h -> assertThat(h.method()).isEqualTo("PURGE")),
                req("methods are case-sensitive: 'get' is another method", "get / HTTP/1.1\r\n" + HOST + "\r\n",
                        h -> assertThat(h.method()).isEqualTo("get").isNotEqualTo(Methods.GET)),
                req("method of tchar symbols", "M!#$%&'*+-.^_`|~1 / HTTP/1.1\r\n" + HOST + "\r\n",
                        h -> assertThat(h.method()).isEqualTo("M!#$%&'*+-.^_`|~1")),
                req("origin-form with query", "GET /a/b%20c?x=1&y=%2F HTTP/1.1\r\n" + HOST + "\r\n", h -> {
                    assertThat(h.targetForm()).isEqualTo(TargetForm.ORIGIN);
                    assertThat(h.target()).isEqualTo("/a/b%20c?x=1&y=%2F");
                    assertThat(h.rawPath()).isEqualTo("/a/b%20c");
                    assertThat(h.query()).isEqualTo("x=1&y=%2F");
                }),
                req("empty query", "GET /p? HTTP/1.1\r\n" + HOST + "\r\n", h -> {
                    assertThat(h.rawPath()).isEqualTo("/p");
                    assertThat(h.query()).isEqualTo("");
                }),
                req("question mark inside the query", "GET /p?a?b=/c HTTP/1.1\r\n" + HOST + "\r\n", h -> {
                    assertThat(h.rawPath()).isEqualTo("/p");
                    assertThat(h.query()).isEqualTo("a?b=/c");
                }),
                req("every sub-delim and pchar in the path", "GET /a-._~!$&'()*+,;=:@%41/ HTTP/1.1\r\n" + HOST + "\r\n",
                        h -> assertThat(h.rawPath()).isEqualTo("/a-._~!$&'()*+,;=:@%41/")),
                req("absolute-form: host from the target, not the Host field",
                        "GET http://example.org:8080/p/q?z=1 HTTP/1.1\r\nHost: other.example\r\n\r\n", h -> {
                            assertThat(h.targetForm()).isEqualTo(TargetForm.ABSOLUTE);
                            assertThat(h.target()).isEqualTo("http://example.org:8080/p/q?z=1");
                            assertThat(h.host()).isEqualTo("example.org:8080");
                            assertThat(h.rawPath()).isEqualTo("/p/q");
                            assertThat(h.query()).isEqualTo("z=1");
                            assertThat(h.headers().first("Host")).isEqualTo("other.example");
                        }),
                req("absolute-form without a path", "GET http://example.org HTTP/1.1\r\n" + HOST + "\r\n", h -> {
                    assertThat(h.targetForm()).isEqualTo(TargetForm.ABSOLUTE);
                    assertThat(h.host()).isEqualTo("example.org");
                    assertThat(h.rawPath()).isEqualTo("/");
                    assertThat(h.query()).isNull();
                }),
                req("absolute-form with a query but no path", "GET http://example.org?x HTTP/1.1\r\n" + HOST + "\r\n", h -> {
                    assertThat(h.rawPath()).isEqualTo("/");
                    assertThat(h.query()).isEqualTo("x");
                }),
                req("absolute-form scheme is case-insensitive", "GET HTTPS://Example.org/ HTTP/1.1\r\n" + HOST + "\r\n", h -> {
                    assertThat(h.targetForm()).isEqualTo(TargetForm.ABSOLUTE);
                    assertThat(h.host()).isEqualTo("Example.org");
                    assertThat(h.rawPath()).isEqualTo("/");
                }),
                req("absolute-form with an IPv6 literal", "GET http://[::1]:8080/x HTTP/1.1\r\n" + HOST + "\r\n", h -> {
                    assertThat(h.host()).isEqualTo("[::1]:8080");
                    assertThat(h.rawPath()).isEqualTo("/x");
                }),
                req("authority-form with CONNECT", "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", h -> {
                    assertThat(h.method()).isSameAs(Methods.CONNECT);
                    assertThat(h.targetForm()).isEqualTo(TargetForm.AUTHORITY);
                    assertThat(h.host()).isEqualTo("example.com:443");
                    assertThat(h.rawPath()).isNull();
                    assertThat(h.query()).isNull();
                }),
                req("authority-form with an IPv4 address", "CONNECT 192.0.2.1:8443 HTTP/1.1\r\nHost: 192.0.2.1:8443\r\n\r\n",
                        h -> assertThat(h.host()).isEqualTo("192.0.2.1:8443")),
                req("authority-form with an IPv6 literal", "CONNECT [2001:db8::1]:443 HTTP/1.1\r\nHost: [2001:db8::1]:443\r\n\r\n", h -> {
                    assertThat(h.targetForm()).isEqualTo(TargetForm.AUTHORITY);
                    assertThat(h.host()).isEqualTo("[2001:db8::1]:443");
                }),
                req("asterisk-form with OPTIONS", "OPTIONS * HTTP/1.1\r\n" + HOST + "\r\n", h -> {
                    assertThat(h.method()).isSameAs(Methods.OPTIONS);
                    assertThat(h.targetForm()).isEqualTo(TargetForm.ASTERISK);
                    assertThat(h.rawPath()).isEqualTo("*");
                    assertThat(h.query()).isNull();
                    assertThat(h.host()).isEqualTo("example.com");
                }),
                req("OPTIONS with an origin-form target", "OPTIONS /x HTTP/1.1\r\n" + HOST + "\r\n",
                        h -> assertThat(h.targetForm()).isEqualTo(TargetForm.ORIGIN)),

                // --- versions ---
                req("HTTP/1.0 without Host", "GET / HTTP/1.0\r\n\r\n", h -> {
                    assertThat(h.version()).isEqualTo(HttpVersion.HTTP_1_0);
                    assertThat(h.host()).isEmpty();
                    assertThat(h.keepAlive()).isFalse();
                    assertThat(h.headers().size()).isZero();
                }),
                req("HTTP/1.0 with Host", "GET / HTTP/1.0\r\nHost: a.example\r\n\r\n",
                        h -> assertThat(h.host()).isEqualTo("a.example")),
                req("HTTP/1.2 is served as 1.1", "GET / HTTP/1.2\r\n" + HOST + "\r\n", h -> {
                    assertThat(h.version()).isEqualTo(HttpVersion.HTTP_1_1);
                    assertThat(h.keepAlive()).isTrue();
                }),
                req("HTTP/1.9 is served as 1.1", "GET / HTTP/1.9\r\n" + HOST + "\r\n",
                        h -> assertThat(h.version()).isEqualTo(HttpVersion.HTTP_1_1)),

                // --- field lines ---
                req("OWS around a value is trimmed, inner whitespace kept",
                        "GET / HTTP/1.1\r\n" + HOST + "X-A: \t value \t\r\nX-B:a  b\tc\r\nX-C:\tv\r\n\r\n", h -> {
                            assertThat(h.headers().first("X-A")).isEqualTo("value");
                            assertThat(h.headers().first("X-B")).isEqualTo("a  b\tc");
                            assertThat(h.headers().first("X-C")).isEqualTo("v");
                        }),
                req("empty values", "GET / HTTP/1.1\r\n" + HOST + "X-Empty:\r\nX-Blank:   \t\r\n\r\n", h -> {
                    assertThat(h.headers().first("X-Empty")).isEmpty();
                    assertThat(h.headers().first("X-Blank")).isEmpty();
                    assertThat(h.headers().contains("x-empty")).isTrue();
                    assertThat(h.headers().size()).isEqualTo(3);
                }),
                req("obs-text bytes are kept as ISO-8859-1", "GET / HTTP/1.1\r\n" + HOST + "X-Latin: caf\u00e9 \u0080\u00ff\r\n\r\n",
                        h -> assertThat(h.headers().first("X-Latin")).isEqualTo("caf\u00e9 \u0080\u00ff")),
                req("lookups are case-insensitive; names keep their case",
                        "GET / HTTP/1.1\r\n" + HOST + "content-TYPE: text/plain\r\nX-Dup: 1\r\nx-dup: 2\r\n\r\n", h -> {
                            HeaderFields f = h.headers();
                            assertThat(f.first("Content-Type")).isEqualTo("text/plain");
                            assertThat(f.first("CONTENT-TYPE")).isEqualTo("text/plain");
                            assertThat(f.name(1)).isEqualTo("content-TYPE");
                            assertThat(f.value(1)).isEqualTo("text/plain");
                            assertThat(f.all("X-DUP")).containsExactly("1", "2");
                            assertThat(f.first("x-dup")).isEqualTo("1");
                            assertThat(f.first("Content-Typ")).isNull();
                            assertThat(f.all("Missing")).isEmpty();
                            assertThat(f.contains("Missing")).isFalse();
                            assertThat(f.contains("\u00e9")).isFalse();
                            assertThat(f.toString()).isEqualTo(
                                    "Host: example.com\ncontent-TYPE: text/plain\nX-Dup: 1\nx-dup: 2\n");
                            assertThatThrownBy(() -> f.name(4)).isInstanceOf(IndexOutOfBoundsException.class);
                            assertThatThrownBy(() -> f.value(-1)).isInstanceOf(IndexOutOfBoundsException.class);
                        }),
                req("containsToken reads comma-separated lists",
                        "GET / HTTP/1.1\r\n" + HOST + "Accept-Encoding: gzip , deflate,,br\r\nAccept-Encoding: zstd\r\n\r\n", h -> {
                            HeaderFields f = h.headers();
                            assertThat(f.containsToken("accept-encoding", "GZIP")).isTrue();
                            assertThat(f.containsToken("Accept-Encoding", "deflate")).isTrue();
                            assertThat(f.containsToken("Accept-Encoding", "br")).isTrue();
                            assertThat(f.containsToken("Accept-Encoding", "zstd")).isTrue();
                            assertThat(f.containsToken("Accept-Encoding", "gzi")).isFalse();
                            assertThat(f.containsToken("Accept-Encoding", "gzip , deflate")).isFalse();
                            assertThat(f.containsToken("Accept", "gzip")).isFalse();
                        }),
                req("one empty line before the request line is ignored", "\r\nGET / HTTP/1.1\r\n" + HOST + "\r\n",
                        h -> assertThat(h.method()).isEqualTo("GET")),
                req("four empty lines before the request line are ignored", "\r\n\r\n\r\n\r\nGET / HTTP/1.1\r\n" + HOST + "\r\n",
                        h -> assertThat(h.target()).isEqualTo("/")),

                // --- Host ---
                req("Host with a port", "GET / HTTP/1.1\r\nHost: example.com:8080\r\n\r\n",
                        h -> assertThat(h.host()).isEqualTo("example.com:8080")),
                req("Host with an IPv6 literal", "GET / HTTP/1.1\r\nHost: [::1]:80\r\n\r\n",
                        h -> assertThat(h.host()).isEqualTo("[::1]:80")),
                req("empty Host (no authority in the target URI)", "GET / HTTP/1.1\r\nHost:\r\n\r\n",
                        h -> assertThat(h.host()).isEmpty()),
                req("Host name is case-insensitive", "GET / HTTP/1.1\r\nhOsT: example.com\r\n\r\n",
                        h -> assertThat(h.host()).isEqualTo("example.com")),

                // --- framing ---
                req("Content-Length", "POST /u HTTP/1.1\r\n" + HOST + "Content-Length: 5\r\n\r\n", h -> {
                    assertThat(h.framing()).isEqualTo(BodyFraming.LENGTH);
                    assertThat(h.contentLength()).isEqualTo(5);
                }),
                req("Content-Length: 0 means no body", "POST /u HTTP/1.1\r\n" + HOST + "Content-Length: 0\r\n\r\n", h -> {
                    assertThat(h.framing()).isEqualTo(BodyFraming.NONE);
                    assertThat(h.contentLength()).isEqualTo(-1);
                }),
                req("Content-Length with leading zeros", "POST /u HTTP/1.1\r\n" + HOST + "Content-Length: 007\r\n\r\n",
                        h -> assertThat(h.contentLength()).isEqualTo(7)),
                req("Content-Length list of identical values", "POST /u HTTP/1.1\r\n" + HOST + "Content-Length: 5, 5 ,5\r\n\r\n",
                        h -> assertThat(h.contentLength()).isEqualTo(5)),
                req("identical Content-Length lines", "POST /u HTTP/1.1\r\n" + HOST + "Content-Length: 5\r\ncontent-length: 5\r\n\r\n",
                        h -> assertThat(h.contentLength()).isEqualTo(5)),
                req("Content-Length equal to maxBodySize", SMALL, "POST /u HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n",
                        h -> assertThat(h.contentLength()).isEqualTo(10)),
                req("chunked", "POST /u HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n", h -> {
                    assertThat(h.framing()).isEqualTo(BodyFraming.CHUNKED);
                    assertThat(h.contentLength()).isEqualTo(-1);
                }),
                req("chunked is case-insensitive", "POST /u HTTP/1.1\r\n" + HOST + "Transfer-Encoding: CHUNKED\r\n\r\n",
                        h -> assertThat(h.framing()).isEqualTo(BodyFraming.CHUNKED)),
                req("chunked with empty list elements", "POST /u HTTP/1.1\r\n" + HOST + "Transfer-Encoding: ,chunked ,\r\n\r\n",
                        h -> assertThat(h.framing()).isEqualTo(BodyFraming.CHUNKED)),

                // --- persistence ---
                req("HTTP/1.1 is persistent by default", "GET / HTTP/1.1\r\n" + HOST + "Connection: upgrade\r\n\r\n",
                        h -> assertThat(h.keepAlive()).isTrue()),
                req("HTTP/1.1 Connection: close", "GET / HTTP/1.1\r\n" + HOST + "Connection: close\r\n\r\n",
                        h -> assertThat(h.keepAlive()).isFalse()),
                req("Connection: close among other options", "GET / HTTP/1.1\r\n" + HOST + "Connection: keep-alive, Close\r\n\r\n", h -> {
                    assertThat(h.keepAlive()).isFalse();
                    assertThat(h.keepAliveRequested()).isTrue();
                }),
                req("'closed' is not the close option", "GET / HTTP/1.1\r\n" + HOST + "Connection: closed\r\n\r\n",
                        h -> assertThat(h.keepAlive()).isTrue()),
                req("close on a second Connection line", "GET / HTTP/1.1\r\n" + HOST + "Connection: te\r\nConnection: close\r\n\r\n",
                        h -> assertThat(h.keepAlive()).isFalse()),
                req("HTTP/1.0 with keep-alive", "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", h -> {
                    assertThat(h.keepAlive()).isTrue();
                    assertThat(h.keepAliveRequested()).isTrue();
                }),
                req("HTTP/1.0 with keep-alive and close", "GET / HTTP/1.0\r\nConnection: keep-alive, close\r\n\r\n",
                        h -> assertThat(h.keepAlive()).isFalse()),

                // --- expectations ---
                req("Expect: 100-continue with a body", "PUT /u HTTP/1.1\r\n" + HOST + "Content-Length: 3\r\nExpect: 100-continue\r\n\r\n",
                        h -> assertThat(h.expectContinue()).isTrue()),
                req("Expect: 100-continue is case-insensitive, with chunked", "PUT /u HTTP/1.1\r\n" + HOST
                        + "Expect: 100-Continue\r\nTransfer-Encoding: chunked\r\n\r\n", h -> assertThat(h.expectContinue()).isTrue()),
                req("Expect: 100-continue without a body is cleared", "GET / HTTP/1.1\r\n" + HOST + "Expect: 100-continue\r\n\r\n",
                        h -> assertThat(h.expectContinue()).isFalse()),
                req("Expect: 100-continue with Content-Length: 0 is cleared",
                        "PUT /u HTTP/1.1\r\n" + HOST + "Expect: 100-continue\r\nContent-Length: 0\r\n\r\n",
                        h -> assertThat(h.expectContinue()).isFalse()),
                req("Expect: 100-continue on HTTP/1.0 is ignored", "PUT /u HTTP/1.0\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n",
                        h -> assertThat(h.expectContinue()).isFalse()),
                req("other expectations on HTTP/1.0 are ignored", "PUT /u HTTP/1.0\r\nContent-Length: 3\r\nExpect: teapot\r\n\r\n",
                        h -> assertThat(h.expectContinue()).isFalse()),

                // --- limits, at the boundary ---
                req("request line exactly maxRequestLineLength", SMALL.withMaxRequestLineLength(16), "GET /ab HTTP/1.1\r\nHost: a\r\n\r\n",
                        h -> assertThat(h.target()).isEqualTo("/ab")),
                req("exactly maxHeaderCount fields", SMALL, "GET / HTTP/1.1\r\nHost: a\r\nB: b\r\nC: c\r\n\r\n",
                        h -> assertThat(h.headers().size()).isEqualTo(3)),
                // section = "Host: a\r\n" (9) + "X: " + 50 + "\r\n" (55) = 64, the final CRLF makes 66
                req("header section exactly maxHeaderSectionSize", SMALL.withMaxHeaderSectionSize(66),
                        "GET / HTTP/1.1\r\nHost: a\r\nX: " + "v".repeat(50) + "\r\n\r\n",
                        h -> assertThat(h.headers().first("x")).hasSize(50)));
    }

    static Stream<Reject> rejected() {
        String cl = "POST /u HTTP/1.1\r\n" + HOST + "Content-Length: ";
        String te = "POST /u HTTP/1.1\r\n" + HOST + "Transfer-Encoding: ";
        return Stream.of(
                // --- request line ---
                bad("double space after the method", "GET  / HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("double space before the version", "GET /  HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("missing target", "GET HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("missing version (HTTP/0.9 simple request)", "GET /\r\n\r\n", 400),
                bad("empty version", "GET / \r\n" + HOST + "\r\n", 400),
                bad("lowercase version", "GET / http/1.1\r\n" + HOST + "\r\n", 400),
                bad("trailing space after the version", "GET / HTTP/1.1 \r\n" + HOST + "\r\n", 400),
                bad("two-digit minor version", "GET / HTTP/1.10\r\n" + HOST + "\r\n", 400),
                bad("version without minor", "GET / HTTP/1\r\n" + HOST + "\r\n", 400),
                bad("non-digit minor version", "GET / HTTP/1.x\r\n" + HOST + "\r\n", 400),
                bad("version without dot", "GET / HTTP/11\r\n" + HOST + "\r\n", 400),
                bad("leading space", " GET / HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("tab as separator", "GET\t/ HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("missing method", "/ HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("non-token method", "GE(T / HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("space inside the target", "GET /a b HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("fragment in the target", "GET /a#b HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("non-ASCII byte in the target", "GET /caf\u00e9 HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("NUL in the target", "GET /a\u0000 HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("DEL in the target", "GET /a\u007f HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("relative target", "GET a/b HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("HTTP/2.0", "GET / HTTP/2.0\r\n" + HOST + "\r\n", 505),
                bad("HTTP/0.9", "GET / HTTP/0.9\r\n" + HOST + "\r\n", 505),
                bad("HTTP/3.0", "GET / HTTP/3.0\r\n" + HOST + "\r\n", 505),
                bad("HTTP/9.9", "GET / HTTP/9.9\r\n\r\n", 505),

                // --- targets and methods ---
                bad("asterisk-form with GET", "GET * HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("asterisk followed by more", "OPTIONS *x HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("authority-form with GET", "GET example.com:80 HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("CONNECT with origin-form", "CONNECT / HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("CONNECT without a port", "CONNECT example.com HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("CONNECT with an empty port", "CONNECT example.com: HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("CONNECT with userinfo", "CONNECT u@example.com:443 HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("CONNECT with a path", "CONNECT example.com:443/x HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("CONNECT with absolute-form", "CONNECT http://example.com:443/ HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("CONNECT with a non-numeric port", "CONNECT example.com:https HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("CONNECT with an unclosed IPv6 literal", "CONNECT [::1:443 HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("CONNECT with an IPv6 literal and no port", "CONNECT [::1] HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("absolute-form with another scheme", "GET ftp://example.com/ HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("absolute-form with an empty host", "GET http:///p HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("absolute-form with userinfo", "GET http://u:p@example.com/ HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("absolute-form with an invalid host", "GET http://exa<mple/ HTTP/1.1\r\n" + HOST + "\r\n", 400),

                // --- line endings ---
                bad("bare CR before the request line", "\rGET / HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("bare LF before the request line", "\nGET / HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("five empty lines before the request line", "\r\n".repeat(5) + "GET / HTTP/1.1\r\n" + HOST + "\r\n", 400),
                bad("bare CR ending the request line", "GET / HTTP/1.1\rHost: a\r\n\r\n", 400),
                bad("bare LF ending the request line", "GET / HTTP/1.1\nHost: a\n\n", 400),
                bad("bare LF ending a field line", "GET / HTTP/1.1\r\nHost: a\nX: b\r\n\r\n", 400),
                bad("bare LF ending an empty field line", "GET / HTTP/1.1\r\nX:\nHost: a\r\n\r\n", 400),
                bad("bare LF ending the header section", "GET / HTTP/1.1\r\nHost: a\r\n\n", 400),
                bad("bare LF as the header section", "GET / HTTP/1.0\r\n\n", 400),
                bad("bare CR inside a value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n", 400),
                bad("bare CR after an empty value", "GET / HTTP/1.1\r\nHost: a\r\nX:\rb\r\n\r\n", 400),
                bad("bare CR ending the header section", "GET / HTTP/1.1\r\nHost: a\r\n\rX\r\n", 400),

                // --- field lines ---
                bad("obs-fold with a space", "GET / HTTP/1.1\r\nHost: a\r\nX: a\r\n b\r\n\r\n", 400),
                bad("obs-fold with a tab", "GET / HTTP/1.1\r\nHost: a\r\nX: a\r\n\tb\r\n\r\n", 400),
                bad("whitespace before the first field line", "GET / HTTP/1.1\r\n Host: a\r\n\r\n", 400),
                bad("space between name and colon", "GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400),
                bad("tab between name and colon", "GET / HTTP/1.1\r\nHost\t: a\r\n\r\n", 400),
                bad("empty field name", "GET / HTTP/1.1\r\nHost: a\r\n: b\r\n\r\n", 400),
                bad("field line without a colon", "GET / HTTP/1.1\r\nHost: a\r\nX-No-Colon\r\n\r\n", 400),
                bad("non-token character in a name", "GET / HTTP/1.1\r\nHost: a\r\nX(A): b\r\n\r\n", 400),
                bad("quote in a name", "GET / HTTP/1.1\r\nHost: a\r\nX\"A: b\r\n\r\n", 400),
                bad("NUL in a name", "GET / HTTP/1.1\r\nHost: a\r\nX\u0000A: b\r\n\r\n", 400),
                bad("DEL in a name", "GET / HTTP/1.1\r\nHost: a\r\nX\u007fA: b\r\n\r\n", 400),
                bad("obs-text in a name", "GET / HTTP/1.1\r\nHost: a\r\nX\u00e9: b\r\n\r\n", 400),
                bad("NUL in a value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\u0000b\r\n\r\n", 400),
                bad("NUL starting a value", "GET / HTTP/1.1\r\nHost: a\r\nX: \u0000\r\n\r\n", 400),
                bad("DEL in a value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\u007f\r\n\r\n", 400),
                bad("control character in a value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\u0001b\r\n\r\n", 400),
                bad("escape in a value", "GET / HTTP/1.1\r\nHost: a\r\nX: \u001b[31m\r\n\r\n", 400),

                // --- Host ---
                bad("missing Host on HTTP/1.1", "GET / HTTP/1.1\r\nX: a\r\n\r\n", 400),
                bad("missing Host on HTTP/1.2", "GET / HTTP/1.2\r\n\r\n", 400),
                bad("missing Host with absolute-form", "GET http://example.com/ HTTP/1.1\r\n\r\n", 400),
                bad("two Host fields", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
                bad("two identical Host fields", "GET / HTTP/1.1\r\nHost: a\r\nhost: a\r\n\r\n", 400),
                bad("two Host fields on HTTP/1.0", "GET / HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n", 400),
                bad("Host with a space", "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400),
                bad("Host with a path", "GET / HTTP/1.1\r\nHost: example.com/x\r\n\r\n", 400),
                bad("Host with userinfo", "GET / HTTP/1.1\r\nHost: u@example.com\r\n\r\n", 400),
                bad("Host with a non-numeric port", "GET / HTTP/1.1\r\nHost: example.com:http\r\n\r\n", 400),
                bad("Host with a six-digit port", "GET / HTTP/1.1\r\nHost: example.com:123456\r\n\r\n", 400),
                bad("Host with an unclosed IPv6 literal", "GET / HTTP/1.1\r\nHost: [::1\r\n\r\n", 400),
                bad("Host with a list", "GET / HTTP/1.1\r\nHost: a, b\r\n\r\n", 400),
                bad("Host with obs-text", "GET / HTTP/1.1\r\nHost: caf\u00e9\r\n\r\n", 400),
                bad("invalid Host on HTTP/1.0", "GET / HTTP/1.0\r\nHost: a/b\r\n\r\n", 400),

                // --- framing ---
                bad("Content-Length with Transfer-Encoding", cl + "5\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
                bad("Transfer-Encoding with Content-Length", te + "chunked\r\nContent-Length: 5\r\n\r\n", 400),
                bad("conflicting Content-Length lines", cl + "5\r\nContent-Length: 6\r\n\r\n", 400),
                bad("conflicting Content-Length list", cl + "5, 6\r\n\r\n", 400),
                bad("conflicting Content-Length list with a duplicate", cl + "5, 5, 6\r\n\r\n", 400),
                bad("negative Content-Length", cl + "-1\r\n\r\n", 400),
                bad("signed Content-Length", cl + "+5\r\n\r\n", 400),
                bad("hex Content-Length", cl + "0x10\r\n\r\n", 400),
                bad("empty Content-Length", cl + "\r\n\r\n", 400),
                bad("Content-Length with an empty list element", cl + "5,\r\n\r\n", 400),
                bad("Content-Length with inner space", cl + "5 5\r\n\r\n", 400),
                bad("Content-Length in exponent notation", cl + "1e3\r\n\r\n", 400),
                bad("Content-Length in words", cl + "five\r\n\r\n", 400),
                bad("Content-Length of 20 digits", cl + "12345678901234567890\r\n\r\n", 400),
                bad("Content-Length beyond Long.MAX_VALUE", cl + "9223372036854775808\r\n\r\n", 400),
                bad("Content-Length that overflows a long to a small value", cl + "18446744073709551621\r\n\r\n", 400),
                bad("chunked not last", te + "chunked, gzip\r\n\r\n", 400),
                bad("chunked twice in one line", te + "chunked, chunked\r\n\r\n", 400),
                bad("chunked on two lines", te + "chunked\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
                bad("a coding after chunked on another line", te + "chunked\r\nTransfer-Encoding: gzip\r\n\r\n", 400),
                bad("parameters on chunked", te + "chunked;q=1\r\n\r\n", 400),
                bad("empty Transfer-Encoding", te + "\r\n\r\n", 400),
                bad("Transfer-Encoding of only commas", te + " , ,\r\n\r\n", 400),
                bad("Transfer-Encoding on HTTP/1.0", "POST /u HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
                bad("unknown coding before chunked", te + "gzip, chunked\r\n\r\n", 501),
                bad("unknown coding alone", te + "gzip\r\n\r\n", 501),
                bad("identity is no longer a coding", te + "identity\r\n\r\n", 501),
                bad("unknown coding on an earlier line", te + "x-custom\r\nTransfer-Encoding: chunked\r\n\r\n", 501),

                // --- limits ---
                bad("Content-Length over maxBodySize", SMALL, "POST /u HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n", 413),
                bad("Content-Length over the default maxBodySize", cl + (16 * 1024 * 1024 + 1) + "\r\n\r\n", 413),
                bad("Content-Length of 18 digits", cl + "999999999999999999\r\n\r\n", 413),
                bad("target too long", SMALL, "GET /" + "a".repeat(40) + " HTTP/1.1\r\nHost: a\r\n\r\n", 414),
                bad("target one byte too long", SMALL.withMaxRequestLineLength(16), "GET /abcdefghijk HTTP/1.1\r\nHost: a\r\n\r\n", 414),
                bad("method too long", SMALL, "A".repeat(40) + " / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
                bad("request line one byte too long in the version", SMALL.withMaxRequestLineLength(16),
                        "GET /abc HTTP/1.1\r\nHost: a\r\n\r\n", 400),
                bad("too many header fields", SMALL, "GET / HTTP/1.1\r\nHost: a\r\nB: b\r\nC: c\r\nD: d\r\n\r\n", 431),
                bad("header section too large", SMALL, "GET / HTTP/1.1\r\nHost: a\r\nX: " + "v".repeat(60) + "\r\n\r\n", 431),
                bad("header section one byte too large", SMALL.withMaxHeaderSectionSize(65),
                        "GET / HTTP/1.1\r\nHost: a\r\nX: " + "v".repeat(50) + "\r\n\r\n", 431),
                bad("header section too large in a long name", SMALL, "GET / HTTP/1.1\r\n" + "X".repeat(100) + ": v\r\n\r\n", 431),

                // --- expectations ---
                bad("unknown expectation", "PUT /u HTTP/1.1\r\n" + HOST + "Content-Length: 3\r\nExpect: teapot\r\n\r\n", 417),
                bad("100-continue with something else", "PUT /u HTTP/1.1\r\n" + HOST + "Expect: 100-continue, x\r\n\r\n", 417),
                bad("empty expectation", "GET / HTTP/1.1\r\n" + HOST + "Expect:\r\n\r\n", 417));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("accepted")
    void accepts(Accept c) {
        assertParsesInAllSplits(c.limits(), c.raw(), c.expect());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejected")
    void rejects(Reject c) {
        assertRejectedInAllSplits(c.limits(), c.raw(), c.status());
    }

    @Nested
    class Connection {
        @Test
        void pipelinedRequestsAreParsedFromOneBuffer() {
            ByteBuffer in = ByteBuffer.wrap(bytes("GET /first HTTP/1.1\r\nHost: a\r\nConnection: keep-alive\r\n\r\n"
                    + "POST /second?q HTTP/1.1\r\nHost: b\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\nabc"
                    + "\r\nGET /third HTTP/1.0\r\n\r\n"
                    + "GET /fourth"));
            RequestParser parser = new RequestParser();

            assertThat(parser.parse(in)).isEqualTo(ParseStatus.COMPLETE);
            RequestHead first = parser.head();
            assertThat(first.rawPath()).isEqualTo("/first");
            assertThat(first.host()).isEqualTo("a");
            assertThat(first.keepAliveRequested()).isTrue();
            assertThat(first.framing()).isEqualTo(BodyFraming.NONE);
            assertThat(in.get(in.position())).isEqualTo((byte) 'P');

            parser.reset();
            assertThat(parser.started()).isFalse();
            assertThat(parser.parse(in)).isEqualTo(ParseStatus.COMPLETE);
            RequestHead second = parser.head();
            assertThat(second.method()).isSameAs(Methods.POST);
            assertThat(second.rawPath()).isEqualTo("/second");
            assertThat(second.query()).isEqualTo("q");
            assertThat(second.host()).isEqualTo("b");
            assertThat(second.contentLength()).isEqualTo(3);
            assertThat(second.expectContinue()).isTrue();
            assertThat(second.keepAliveRequested()).isFalse();
            assertThat(second.headers().size()).isEqualTo(3);
            byte[] body = new byte[3];
            in.get(body);
            assertThat(new String(body, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("abc");

            // An empty line after a body is ignored like any leading empty line.
            parser.reset();
            assertThat(parser.parse(in)).isEqualTo(ParseStatus.COMPLETE);
            RequestHead third = parser.head();
            assertThat(third.rawPath()).isEqualTo("/third");
            assertThat(third.query()).isNull();
            assertThat(third.version()).isEqualTo(HttpVersion.HTTP_1_0);
            assertThat(third.host()).isEmpty();
            assertThat(third.headers().size()).isZero();
            assertThat(third.expectContinue()).isFalse();
            assertThat(third.contentLength()).isEqualTo(-1);
            assertThat(third.framing()).isEqualTo(BodyFraming.NONE);

            parser.reset();
            assertThat(parser.parse(in)).isEqualTo(ParseStatus.NEED_MORE);
            assertThat(in.hasRemaining()).isFalse();
            assertThat(parser.started()).isTrue();
            assertThat(parser.parse(ByteBuffer.wrap(bytes(" HTTP/1.1\r\nHost: d\r\n\r\n")))).isEqualTo(ParseStatus.COMPLETE);
            assertThat(parser.head().rawPath()).isEqualTo("/fourth");
        }

        @Test
        void resetAllowsReuseAfterAnError() {
            RequestParser parser = new RequestParser();
            assertThat(parser.parse(ByteBuffer.wrap(bytes("GET / HTTP/1.1\r\nBad Name: x\r\n\r\n")))).isEqualTo(ParseStatus.ERROR);
            assertThat(parser.error().status()).isEqualTo(400);
            parser.reset();
            assertThat(parser.error()).isNull();
            assertThat(parser.started()).isFalse();
            assertThat(parser.parse(ByteBuffer.wrap(bytes("GET /ok HTTP/1.1\r\nHost: a\r\n\r\n")))).isEqualTo(ParseStatus.COMPLETE);
            assertThat(parser.head().rawPath()).isEqualTo("/ok");
            assertThat(parser.head().headers().first("Bad")).isNull();
        }

        @Test
        void resetForgetsEverythingAboutThePreviousHead() {
            RequestParser parser = new RequestParser();
            String big = "X-Big: " + "b".repeat(2000) + "\r\n";
            assertThat(parser.parse(ByteBuffer.wrap(bytes("CONNECT h:1 HTTP/1.1\r\nHost: h:1\r\n" + big
                    + "Connection: close\r\nContent-Length: 9\r\nExpect: 100-continue\r\n\r\n")))).isEqualTo(ParseStatus.COMPLETE);
            assertThat(parser.head().expectContinue()).isTrue();
            for (int round = 0; round < 3; round++) {
                parser.reset();
                assertThat(parser.parse(ByteBuffer.wrap(bytes("GET /r" + round + " HTTP/1.1\r\nHost: z\r\n\r\n"))))
                        .isEqualTo(ParseStatus.COMPLETE);
                RequestHead h = parser.head();
                assertThat(h.rawPath()).isEqualTo("/r" + round);
                assertThat(h.targetForm()).isEqualTo(TargetForm.ORIGIN);
                assertThat(h.host()).isEqualTo("z");
                assertThat(h.headers().size()).isEqualTo(1);
                assertThat(h.headers().contains("X-Big")).isFalse();
                assertThat(h.keepAlive()).isTrue();
                assertThat(h.framing()).isEqualTo(BodyFraming.NONE);
                assertThat(h.contentLength()).isEqualTo(-1);
                assertThat(h.expectContinue()).isFalse();
            }
        }

        @Test
        void resetAllowsLeadingEmptyLinesAgain() {
            RequestParser parser = new RequestParser();
            for (int round = 0; round < 3; round++) {
                assertThat(parser.parse(ByteBuffer.wrap(bytes("\r\n\r\n\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n"))))
                        .as("round %d", round).isEqualTo(ParseStatus.COMPLETE);
                parser.reset();
            }
        }

        @Test
        void startedTellsAnIdleConnectionFromOneInTheMiddleOfAHead() {
            RequestParser parser = new RequestParser();
            assertThat(parser.started()).isFalse();
            assertThat(parser.parse(ByteBuffer.allocate(0))).isEqualTo(ParseStatus.NEED_MORE);
            assertThat(parser.started()).isFalse();
            assertThat(parser.parse(ByteBuffer.wrap(bytes("\r")))).isEqualTo(ParseStatus.NEED_MORE);
            assertThat(parser.started()).isTrue();
            parser.reset();
            assertThat(parser.parse(ByteBuffer.wrap(bytes("\r\n")))).isEqualTo(ParseStatus.NEED_MORE);
            assertThat(parser.started()).isTrue();
            parser.reset();
            assertThat(parser.parse(ByteBuffer.wrap(bytes("G")))).isEqualTo(ParseStatus.NEED_MORE);
            assertThat(parser.started()).isTrue();
        }

        @Test
        void headIsOnlyAvailableWhenComplete() {
            RequestParser parser = new RequestParser();
            assertThatThrownBy(parser::head).isInstanceOf(IllegalStateException.class);
            assertThat(parser.parse(ByteBuffer.wrap(bytes("GET / HTTP/1.1\r\nHost: a\r\n")))).isEqualTo(ParseStatus.NEED_MORE);
            assertThatThrownBy(parser::head).isInstanceOf(IllegalStateException.class);
            assertThat(parser.error()).isNull();
            assertThat(parser.parse(ByteBuffer.wrap(bytes("\r\n")))).isEqualTo(ParseStatus.COMPLETE);
            assertThat(parser.head().host()).isEqualTo("a");
            parser.reset();
            assertThatThrownBy(parser::head).isInstanceOf(IllegalStateException.class);
            assertThat(parser.parse(ByteBuffer.wrap(bytes("GET / HTTP/2.0\r\n")))).isEqualTo(ParseStatus.ERROR);
            assertThatThrownBy(parser::head).isInstanceOf(IllegalStateException.class);
        }

        @Test
        void errorReasonsDoNotQuoteTheInput() {
            List<String> inputs = List.of(
                    "GET / HTTP/1.1\r\nHost: secret-host/x\r\n\r\n",
                    "GET /secret-path HTTP/7.0\r\n\r\n",
                    "GET / HTTP/1.1\r\nHost: a\r\nsecret-name : v\r\n\r\n");
            for (String input : inputs) {
                RequestParser parser = new RequestParser();
                assertThat(parser.parse(ByteBuffer.wrap(bytes(input)))).isEqualTo(ParseStatus.ERROR);
                assertThat(parser.error().reason()).doesNotContain("secret");
            }
        }
    }

    @Nested
    class Limits {
        @Test
        void limitsBelowTheirMinimumAreRefused() {
            assertThatThrownBy(() -> new HttpLimits(15, 1, 1, 0, 3)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> new HttpLimits(16, 0, 1, 0, 3)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> new HttpLimits(16, 1, 0, 0, 3)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> new HttpLimits(16, 1, 1, -1, 3)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> new HttpLimits(16, 1, 1, 0, 2)).isInstanceOf(IllegalArgumentException.class);
            assertThat(new HttpLimits(16, 1, 1, 0, 3).maxBodySize()).isZero();
        }

        @Test
        void withersChangeOneLimit() {
            HttpLimits d = HttpLimits.DEFAULT;
            assertThat(d).isEqualTo(new HttpLimits(8192, 16384, 100, 16L << 20, 1024));
            assertThat(d.withMaxBodySize(5)).isEqualTo(new HttpLimits(8192, 16384, 100, 5, 1024));
            assertThat(d.withMaxRequestLineLength(99)).isEqualTo(new HttpLimits(99, 16384, 100, 16L << 20, 1024));
            assertThat(d.withMaxHeaderSectionSize(7)).isEqualTo(new HttpLimits(8192, 7, 100, 16L << 20, 1024));
            assertThat(d.withMaxHeaderCount(3)).isEqualTo(new HttpLimits(8192, 16384, 3, 16L << 20, 1024));
        }

        @Test
        void defaultLimitsHoldAtTheirBoundaries() {
            // 8 KiB request line exactly: "GET " + target + " HTTP/1.1"
            String target = "/" + "a".repeat(8192 - 4 - 9 - 1);
            assertOutcome("GET " + target + " HTTP/1.1\r\nHost: a\r\n\r\n", ParseStatus.COMPLETE, 0);
            assertOutcome("GET " + target + "a".repeat(9) + " HTTP/1.1\r\nHost: a\r\n\r\n", ParseStatus.ERROR, 414);
            StringBuilder hundred = new StringBuilder("GET / HTTP/1.1\r\nHost: a\r\n");
            for (int i = 1; i < 100; i++) hundred.append("X").append(i).append(": v\r\n");
            assertOutcome(hundred + "\r\n", ParseStatus.COMPLETE, 0);
            assertOutcome(hundred + "Y: v\r\n\r\n", ParseStatus.ERROR, 431);
            String huge = "GET / HTTP/1.1\r\nHost: a\r\nX: " + "v".repeat(16 * 1024) + "\r\n\r\n";
            assertOutcome(huge, ParseStatus.ERROR, 431);
        }

        private void assertOutcome(String raw, ParseStatus expected, int status) {
            RequestParser parser = new RequestParser();
            assertThat(parser.parse(ByteBuffer.wrap(bytes(raw)))).isEqualTo(expected);
            if (expected == ParseStatus.ERROR) assertThat(parser.error().status()).isEqualTo(status);
        }
    }

    /** A keep-alive connection's parser gives back the same Strings for what repeats, and never a stale one. */
    @Nested
    class RepeatedRequestsOnOneParser {
        private final RequestParser parser = new RequestParser();

        private RequestHead parse(String raw) {
            parser.reset();
            assertThat(parser.parse(ByteBuffer.wrap(bytes(raw)))).isEqualTo(ParseStatus.COMPLETE);
            return parser.head();
        }

        private HttpError reject(String raw) {
            parser.reset();
            assertThat(parser.parse(ByteBuffer.wrap(bytes(raw)))).isEqualTo(ParseStatus.ERROR);
            return parser.error();
        }

        @Test
        void theSameTargetAndHostComeBackAsTheSameStrings() {
            RequestHead first = parse("GET /a/b?x=1 HTTP/1.1\r\nHost: example.com:8080\r\n\r\n");
            String target = first.target();
            String path = first.rawPath();
            String query = first.query();
            String host = first.host();
            RequestHead second = parse("GET /a/b?x=1 HTTP/1.1\r\nHost: example.com:8080\r\n\r\n");
            assertThat(second.target()).isSameAs(target);
            assertThat(second.rawPath()).isSameAs(path).isEqualTo("/a/b");
            assertThat(second.query()).isSameAs(query).isEqualTo("x=1");
            assertThat(second.host()).isSameAs(host).isEqualTo("example.com:8080");
            assertThat(second.targetForm()).isEqualTo(TargetForm.ORIGIN);
        }

        @Test
        void aChangedTargetOrHostIsReadAfresh() {
            parse("GET /a?x=1 HTTP/1.1\r\nHost: one.example\r\n\r\n");
            RequestHead next = parse("GET /b HTTP/1.1\r\nHost: two.example\r\n\r\n");
            assertThat(next.target()).isEqualTo("/b");
            assertThat(next.rawPath()).isEqualTo("/b");
            assertThat(next.query()).isNull();
            assertThat(next.host()).isEqualTo("two.example");
        }

        @Test
        void theSameTargetUnderAnotherMethodIsCheckedAgain() {
            parse("OPTIONS * HTTP/1.1\r\nHost: example.com\r\n\r\n");
            assertThat(reject("GET * HTTP/1.1\r\nHost: example.com\r\n\r\n").status()).isEqualTo(400);
            assertThat(parse("OPTIONS * HTTP/1.1\r\nHost: example.com\r\n\r\n").targetForm()).isEqualTo(TargetForm.ASTERISK);
        }

        @Test
        void aRejectedTargetIsNotRememberedAsValid() {
            assertThat(reject("GET example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n").status()).isEqualTo(400);
            assertThat(reject("GET example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n").status()).isEqualTo(400);
            RequestHead connect = parse("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
            assertThat(connect.targetForm()).isEqualTo(TargetForm.AUTHORITY);
            assertThat(connect.rawPath()).isNull();
        }

        @Test
        void anInvalidHostIsRejectedEvenAfterTheSameBytesWereRemembered() {
            assertThat(reject("GET / HTTP/1.1\r\nHost: bad host\r\n\r\n").status()).isEqualTo(400);
            assertThat(reject("GET / HTTP/1.1\r\nHost: bad host\r\n\r\n").status()).isEqualTo(400);
        }

        @Test
        void anAbsoluteFormTargetStillGivesItsAuthorityAsTheHost() {
            parse("GET http://a.example/x HTTP/1.1\r\nHost: a.example\r\n\r\n");
            RequestHead again = parse("GET http://a.example/x HTTP/1.1\r\nHost: other.example\r\n\r\n");
            assertThat(again.host()).isEqualTo("a.example");
            assertThat(again.rawPath()).isEqualTo("/x");
            assertThat(again.targetForm()).isEqualTo(TargetForm.ABSOLUTE);
        }
    }
}
