package dev.petrel.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.footnotes.EnableFootnotes;
import net.jqwik.api.footnotes.Footnotes;
import net.jqwik.api.statistics.Statistics;

/**
 * Fuzzes {@link RequestParser} with mutated valid requests and random bytes. The number of tries
 * comes from {@code jqwik.tries.default} (src/test/resources/junit-platform.properties), so a long
 * run can raise it from the command line without touching this file.
 */
@EnableFootnotes
class RequestParserFuzzTest {
    static final Set<Integer> ERROR_STATUSES = Set.of(400, 413, 414, 417, 431, 501, 505);

    static final List<byte[]> CORPUS = List.of(
            "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n",
            "GET /a/b%20c?d=e&f HTTP/1.1\r\nHost: example.com:8080\r\nUser-Agent: fuzz/1.0\r\nAccept: */*\r\n\r\n",
            "POST /submit HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\nhello",
            "PUT /up HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
            "GET http://example.com/x?y HTTP/1.1\r\nHost: example.com\r\n\r\n",
            "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
            "OPTIONS * HTTP/1.1\r\nHost: [::1]:80\r\n\r\n",
            "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
            "\r\nGET /x HTTP/1.1\r\nhost: h\r\nX-Latin: caf\u00e9\r\nX-Empty:\r\nX-Ws: \t a b \t\r\n\r\nGET /next HTTP/1.1\r\n",
            "DELETE /r HTTP/1.1\r\nHost: a\r\nConnection: close, te\r\nContent-Length: 5, 5\r\n\r\n").stream()
            .map(SplitParsing::bytes).toList();

    static final List<String> VOCABULARY = List.of(
            "GET", "POST", "CONNECT", "OPTIONS", " ", "  ", "/", "/p?q", "*", "http://h/", "h:1", "HTTP/1.1", "HTTP/1.0",
            "HTTP/2.0", "\r\n", "\r", "\n", "Host", "Content-Length", "Transfer-Encoding", "Expect", "Connection",
            ":", ": ", "5", "0", "-1", "chunked", "gzip", ",", "100-continue", "close", "\t", "\u0000", "\u00ff", "a");

    /** Small limits so that 413, 414 and 431 are within reach of short inputs. */
    static final HttpLimits SMALL = new HttpLimits(24, 80, 4, 8, 8);

    record Outcome(ParseStatus status, int errorStatus, int position, String head) {}

    static final List<String> REQUEST_LINES = List.of(
            "GET / HTTP/1.1", "POST /p?q HTTP/1.1", "PUT http://h/x HTTP/1.1", "CONNECT h:1 HTTP/1.1", "OPTIONS * HTTP/1.1",
            "GET / HTTP/1.0", "POST / HTTP/1.0", "POST / HTTP/1.2", "GET * HTTP/1.1", "GET / HTTP/2.0");

    /** Field lines that interact: Host, framing, persistence and expectations, valid or not. */
    static final List<String> FIELD_LINES = List.of(
            "Host: a", "Host: b:80", "Host:", "Host: [::1]", "Host: a/b", "Content-Length: 5", "Content-Length: 0",
            "Content-Length: 5, 5", "Content-Length: 6", "Content-Length: 9", "Content-Length: x", "Transfer-Encoding: chunked",
            "Transfer-Encoding: gzip, chunked", "Transfer-Encoding: chunked, gzip", "Transfer-Encoding: CHUNKED",
            "Connection: close", "Connection: keep-alive", "Expect: 100-continue", "Expect: other", "X-A: v", "X-B:");

    /** A request line and a few interacting field lines, in any order and combination. */
    @Provide
    Arbitrary<byte[]> heads() {
        return Combinators.combine(Arbitraries.of(REQUEST_LINES), Arbitraries.of(FIELD_LINES).list().ofMaxSize(6))
                .as((line, fields) -> line + "\r\n" + String.join("", fields.stream().map(f -> f + "\r\n").toList()) + "\r\nbody")
                .map(SplitParsing::bytes);
    }

    @Provide
    Arbitrary<byte[]> requests() {
        return Arbitraries.frequencyOf(
                Tuple.of(5, Mutations.mutated(CORPUS, 6)),
                Tuple.of(1, Arbitraries.of(CORPUS)),
                Tuple.of(2, heads()),
                Tuple.of(1, heads().flatMap(head -> Mutations.mutated(List.of(head), 2))),
                Tuple.of(2, Mutations.random(VOCABULARY, 200)));
    }

    @Provide
    Arbitrary<HttpLimits> limits() {
        return Arbitraries.of(HttpLimits.DEFAULT, SMALL);
    }

    @Property
    void outcomeDoesNotDependOnHowTheBytesArrive(
            @ForAll("requests") byte[] input,
            @ForAll("limits") HttpLimits limits,
            @ForAll @IntRange(min = 0, max = 100_000) int splitSeed,
            @ForAll("requests") byte[] previous,
            Footnotes footnotes) {
        footnotes.addFootnote("input = \"" + Mutations.show(input) + "\"");
        int split = input.length == 0 ? 0 : splitSeed % (input.length + 1);
        Outcome whole = assertSameOutcomeHoweverFed(input, limits, new int[] {split}, previous);
        Statistics.label("outcome").collect(whole.status(), whole.errorStatus());
    }

    /**
     * The invariants of one input, shared with {@link RequestParserJazzerTest}: parsed whole, the
     * outcome keeps {@link #checkInvariants}; cut at {@code cuts} (offsets into {@code input}), fed
     * byte by byte, and parsed by a parser reset after {@code previous} (complete, failed or cut
     * short), the outcome is the same.
     *
     * @return the outcome of parsing {@code input} whole
     */
    static Outcome assertSameOutcomeHoweverFed(byte[] input, HttpLimits limits, int[] cuts, byte[] previous) {
        Outcome whole = parseWhole(new RequestParser(limits), input);
        checkInvariants(whole, input, limits);

        assertThat(outcome(SplitParsing.feed(new RequestParser(limits), SplitParsing.cut(input, cuts))))
                .as("cut at %s", Arrays.toString(cuts)).isEqualTo(whole);
        assertThat(outcome(SplitParsing.feed(new RequestParser(limits), SplitParsing.oneByteEach(input))))
                .as("byte by byte").isEqualTo(whole);

        // A parser reset after another request (complete, failed or cut short) behaves like a fresh one.
        RequestParser reused = new RequestParser(limits);
        reused.parse(ByteBuffer.wrap(previous));
        reused.reset();
        assertThat(parseWhole(reused, input)).as("after reset").isEqualTo(whole);
        return whole;
    }

    static Outcome parseWhole(RequestParser parser, byte[] input) {
        ByteBuffer buffer = ByteBuffer.wrap(input);
        ParseStatus status = parser.parse(buffer);
        assertThat(buffer.limit()).isEqualTo(input.length);
        return outcome(status, parser, buffer.position());
    }

    static Outcome outcome(SplitParsing.Fed fed) {
        return outcome(fed.status(), fed.parser(), fed.position());
    }

    static Outcome outcome(ParseStatus status, RequestParser parser, int position) {
        assertThat(status).isIn(ParseStatus.NEED_MORE, ParseStatus.COMPLETE, ParseStatus.ERROR);
        int errorStatus = status == ParseStatus.ERROR ? parser.error().status() : 0;
        String head = status == ParseStatus.COMPLETE ? describe(parser.head()) : null;
        return new Outcome(status, errorStatus, position, head);
    }

    static String describe(RequestHead h) {
        return String.join("|", h.method(), h.target(), String.valueOf(h.version()), String.valueOf(h.targetForm()),
                h.rawPath(), h.query(), h.host(), String.valueOf(h.framing()), String.valueOf(h.contentLength()),
                String.valueOf(h.keepAlive()), String.valueOf(h.keepAliveRequested()), String.valueOf(h.expectContinue()),
                h.headers().toString());
    }

    static void checkInvariants(Outcome outcome, byte[] input, HttpLimits limits) {
        assertThat(outcome.position()).isBetween(0, input.length);
        switch (outcome.status()) {
            case NEED_MORE -> assertThat(outcome.position()).as("NEED_MORE consumes everything").isEqualTo(input.length);
            case ERROR -> assertThat(outcome.errorStatus()).isIn(ERROR_STATUSES);
            case COMPLETE -> {
                int end = outcome.position();
                assertThat(end).isGreaterThanOrEqualTo(4);
                assertThat(Arrays.copyOfRange(input, end - 4, end)).as("a head ends with CRLF CRLF").isEqualTo(SplitParsing.bytes("\r\n\r\n"));
                RequestParser parser = new RequestParser(limits);
                parser.parse(ByteBuffer.wrap(input));
                checkHead(parser.head(), limits);
            }
        }
    }

    static void checkHead(RequestHead h, HttpLimits limits) {
        assertThat(HttpChars.isToken(h.method())).isTrue();
        assertThat(h.target()).isNotEmpty().doesNotContain(" ", "#");
        assertThat(h.version()).isNotNull();
        assertThat(h.targetForm()).isNotNull();
        assertThat(h.host()).isNotNull();
        HeaderFields f = h.headers();
        for (int i = 0; i < f.size(); i++) {
            assertThat(HttpChars.isToken(f.name(i))).as("name %d", i).isTrue();
            String value = f.value(i);
            assertThat(HttpChars.isFieldValue(value)).as("value %d", i).isTrue();
            assertThat(value).isEqualTo(value.strip());
        }
        if (h.version() == HttpVersion.HTTP_1_1) assertThat(f.all("Host")).hasSize(1);
        assertThat(f.all("Host").size()).isLessThanOrEqualTo(1);
        switch (h.framing()) {
            case NONE -> assertThat(h.contentLength()).isEqualTo(-1);
            case LENGTH -> assertThat(h.contentLength()).isBetween(1L, limits.maxBodySize());
            case CHUNKED -> {
                assertThat(h.contentLength()).isEqualTo(-1);
                assertThat(h.version()).isEqualTo(HttpVersion.HTTP_1_1);
                assertThat(f.contains("Content-Length")).isFalse();
            }
        }
        if (h.framing() != BodyFraming.CHUNKED) assertThat(f.contains("Transfer-Encoding")).isFalse();
        if (h.expectContinue()) {
            assertThat(h.framing()).isNotEqualTo(BodyFraming.NONE);
            assertThat(h.version()).isEqualTo(HttpVersion.HTTP_1_1);
        }
        switch (h.targetForm()) {
            case ORIGIN -> assertThat(h.rawPath()).startsWith("/");
            case ABSOLUTE -> assertThat(h.rawPath()).startsWith("/");
            case AUTHORITY -> {
                assertThat(h.method()).isEqualTo(Methods.CONNECT);
                assertThat(h.rawPath()).isNull();
            }
            case ASTERISK -> assertThat(h.method()).isEqualTo(Methods.OPTIONS);
        }
    }
}
