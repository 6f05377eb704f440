package dev.petrel.http;

import static dev.petrel.http.SplitParsing.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.http.MultipartParser.Event;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Multipart bodies, each parsed whole, split at every byte, one byte at a time, and into output
 * buffers of 1, 3 and plenty of bytes. Body text is turned into bytes as ISO-8859-1, so
 * {@code "\u00c3\u00a9"} is the UTF-8 encoding of {@code é}.
 */
class MultipartParserTest {
    /** The shape curl 8 gives {@code curl -F 'a=1' -F 'f=@file;type=text/plain'}. */
    static final String CURL_BOUNDARY = "------------------------d74496d66958873e";
    static final String CURL_BODY = "--" + CURL_BOUNDARY + "\r\n"
            + "Content-Disposition: form-data; name=\"a\"\r\n"
            + "\r\n"
            + "1\r\n"
            + "--" + CURL_BOUNDARY + "\r\n"
            + "Content-Disposition: form-data; name=\"f\"; filename=\"file\"\r\n"
            + "Content-Type: text/plain\r\n"
            + "\r\n"
            + "line one\r\nline two\n\r\n"
            + "--" + CURL_BOUNDARY + "--\r\n";

    /** The shape Chromium gives a form with a text field, two files and an empty file input. */
    static final String BROWSER_BOUNDARY = "----WebKitFormBoundary7MA4YWxkTrZu0gW";
    static final String BROWSER_BODY = "------WebKitFormBoundary7MA4YWxkTrZu0gW\r\n"
            + "Content-Disposition: form-data; name=\"title\"\r\n"
            + "\r\n"
            + "caf\u00c3\u00a9 \u00e2\u0082\u00ac\r\n"
            + "------WebKitFormBoundary7MA4YWxkTrZu0gW\r\n"
            + "Content-Disposition: form-data; name=\"files\"; filename=\"r\u00c3\u00a9sum\u00c3\u00a9.pdf\"\r\n"
            + "Content-Type: application/pdf\r\n"
            + "\r\n"
            + "%PDF-1.7\r\n\u0000\u00ff\r\r\n--\r\n-\r\n"
            + "------WebKitFormBoundary7MA4YWxkTrZu0gW\r\n"
            + "Content-Disposition: form-data; name=\"files\"; filename=\"a.png\"\r\n"
            + "Content-Type: image/png\r\n"
            + "\r\n"
            + "\u0089PNG\r\n\u001a\n\u0000\r\n"
            + "------WebKitFormBoundary7MA4YWxkTrZu0gW\r\n"
            + "Content-Disposition: form-data; name=\"empty\"; filename=\"\"\r\n"
            + "Content-Type: application/octet-stream\r\n"
            + "\r\n"
            + "\r\n"
            + "------WebKitFormBoundary7MA4YWxkTrZu0gW--\r\n";

    static final MultipartLimits SMALL = new MultipartLimits(2, 64, 8, 256);

    /** One part as the parser reported it; the body as ISO-8859-1 text. */
    record Part(String name, String filename, String contentType, String headers, String body) {}

    /**
     * What one way of feeding produced: the last event (NEED_MORE, COMPLETE or ERROR), the events in
     * order with runs of BODY as one, the finished parts, a part begun but not finished, and how
     * many bytes were consumed.
     */
    record Parsed(Event last, List<Event> events, List<Part> parts, Part unfinished, int consumed, MultipartParser parser) {
        HttpError error() {
            return parser.error();
        }
    }

    /**
     * Feeds {@code pieces} through one reused, compacted read buffer, draining an output buffer of
     * {@code outCapacity} bytes after every call, until the parser fails or the input runs out
     * (the epilogue after COMPLETE is fed too: the parser consumes it). Checks on the way what
     * every event promises.
     */
    static Parsed parse(MultipartParser parser, List<byte[]> pieces, int outCapacity) {
        int total = 0;
        for (byte[] piece : pieces) total += piece.length;
        ByteBuffer in = ByteBuffer.allocate(total + 8);
        SplitParsing.scribble(in);
        in.flip();
        ByteBuffer out = ByteBuffer.allocate(outCapacity);
        List<Event> events = new ArrayList<>();
        List<Part> parts = new ArrayList<>();
        Part head = null;
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int consumed = 0;
        int next = 0;
        int calls = 0;
        Event event = Event.NEED_MORE;
        while (true) {
            if (event == Event.NEED_MORE || event == Event.COMPLETE) {
                if (next == pieces.size()) break;
                in.compact();
                SplitParsing.scribble(in);
                in.put(pieces.get(next++));
                in.flip();
            }
            Event previous = event;
            int before = in.position();
            event = parser.parse(in, out);
            assertThat(in.position()).isBetween(before, in.limit());
            consumed += in.position() - before;
            if (event == Event.BODY) {
                assertThat(out.position()).as("BODY writes at least one byte").isPositive();
            } else {
                assertThat(out.position()).as("only BODY writes body bytes").isZero();
            }
            if (previous == Event.COMPLETE) assertThat(event).as("COMPLETE is final").isEqualTo(Event.COMPLETE);
            switch (event) {
                case NEED_MORE, COMPLETE -> assertThat(in.hasRemaining()).as("%s consumes every byte given", event).isFalse();
                case PART_HEAD -> {
                    assertThat(head).as("PART_HEAD outside a part").isNull();
                    assertThat(parser.name()).isNotNull();
                    head = new Part(parser.name(), parser.filename(), parser.contentType(), parser.partHeaders().toString(), null);
                    body.reset();
                }
                case BODY -> {
                    assertThat(head).as("BODY inside a part").isNotNull();
                    body.write(out.array(), 0, out.position());
                }
                case PART_END -> {
                    assertThat(head).as("PART_END inside a part").isNotNull();
                    parts.add(withBody(head, body));
                    head = null;
                }
                case ERROR -> {
                    assertThat(parser.error()).isNotNull();
                    assertThat(parser.error().reason()).isNotBlank();
                }
            }
            if (event == Event.COMPLETE) assertThat(head).as("COMPLETE outside a part").isNull();
            out.clear();
            // BODY comes as often as the buffers make it, COMPLETE once per piece of epilogue: one of each is kept.
            boolean repeat = !events.isEmpty() && events.getLast() == event && (event == Event.BODY || event == Event.COMPLETE);
            if (event != Event.NEED_MORE && !repeat) events.add(event);
            if (event == Event.ERROR) break;
            assertThat(++calls).as("parser makes progress").isLessThan(10 * total + 20);
        }
        return new Parsed(event, events, parts, head == null ? null : withBody(head, body), consumed, parser);
    }

    private static Part withBody(Part head, ByteArrayOutputStream body) {
        return new Part(head.name(), head.filename(), head.contentType(), head.headers(), body.toString(StandardCharsets.ISO_8859_1));
    }

    /** Every way of feeding {@code input}: whole, split at each byte, byte by byte; each into outputs of 1, 3 and plenty of bytes. */
    static Stream<Parsed> allWays(String boundary, MultipartLimits limits, byte[] input) {
        return SplitParsing.feedings(input, input.length).stream()
                .flatMap(pieces -> Stream.of(input.length + 1, 1, 3)
                        .map(capacity -> parse(new MultipartParser(boundary, limits), pieces, capacity)));
    }

    private static Part part(String name, String filename, String contentType, String body) {
        return new Part(name, filename, contentType, null, body);
    }

    /** Parses {@code body} every way and checks it completes with {@code expected} (headers not compared when null). */
    private static void assertParts(String boundary, String body, Part... expected) {
        byte[] input = bytes(body);
        allWays(boundary, MultipartLimits.DEFAULT, input).forEach(p -> {
            assertThat(p.last()).as("last event (error %s)", p.error()).isEqualTo(Event.COMPLETE);
            assertThat(p.consumed()).isEqualTo(input.length);
            assertThat(p.unfinished()).isNull();
            assertThat(p.parts()).hasSize(expected.length);
            for (int i = 0; i < expected.length; i++) {
                Part actual = p.parts().get(i);
                Part wanted = expected[i];
                if (wanted.headers() == null) actual = new Part(actual.name(), actual.filename(), actual.contentType(), null, actual.body());
                assertThat(actual).as("part %d", i).isEqualTo(wanted);
            }
        });
    }

    @Test
    void curlBody() {
        assertThat(MultipartParser.boundary("multipart/form-data; boundary=" + CURL_BOUNDARY)).isEqualTo(CURL_BOUNDARY);
        assertParts(CURL_BOUNDARY, CURL_BODY,
                new Part("a", null, null, "Content-Disposition: form-data; name=\"a\"\n", "1"),
                new Part("f", "file", "text/plain",
                        "Content-Disposition: form-data; name=\"f\"; filename=\"file\"\nContent-Type: text/plain\n",
                        "line one\r\nline two\n"));
        List<Event> events = parse(new MultipartParser(CURL_BOUNDARY, MultipartLimits.DEFAULT), List.of(bytes(CURL_BODY)), 100).events();
        assertThat(events).containsExactly(Event.PART_HEAD, Event.BODY, Event.PART_END, Event.PART_HEAD, Event.BODY, Event.PART_END, Event.COMPLETE);
    }

    @Test
    void browserBodyWithSeveralFilesAnEmptyFileInputAndUtf8() {
        assertThat(MultipartParser.boundary("multipart/form-data; boundary=" + BROWSER_BOUNDARY)).isEqualTo(BROWSER_BOUNDARY);
        assertParts(BROWSER_BOUNDARY, BROWSER_BODY,
                part("title", null, null, "caf\u00c3\u00a9 \u00e2\u0082\u00ac"),
                part("files", "résumé.pdf", "application/pdf", "%PDF-1.7\r\n\u0000\u00ff\r\r\n--\r\n-"),
                part("files", "a.png", "image/png", "\u0089PNG\r\n\u001a\n\u0000"),
                part("empty", "", "application/octet-stream", ""));
    }

    @Test
    void utf8NamesAreDecodedAndHeaderValuesStayBytes() {
        MultipartParser parser = new MultipartParser("b", MultipartLimits.DEFAULT);
        Parsed p = parse(parser, List.of(bytes("--b\r\nContent-Disposition: form-data; name=\"caf\u00c3\u00a9\"; filename=\"\u00e2\u0082\u00ac\"\r\n\r\nx\r\n--b--")), 10);
        assertThat(p.parts()).extracting(Part::name, Part::filename).containsExactly(org.assertj.core.groups.Tuple.tuple("café", "€"));
        assertThat(p.parts().getFirst().headers()).contains("caf\u00c3\u00a9");
    }

    @Test
    void emptyPartsAndTheEmptyFilename() {
        assertParts("xyz", "--xyz\r\nContent-Disposition: form-data; name=a\r\n\r\n\r\n"
                        + "--xyz\r\nContent-Disposition: form-data; name=\"\"; filename=\"\"\r\n\r\n\r\n--xyz--",
                part("a", null, null, ""), part("", "", null, ""));
    }

    @Test
    void boundaryNotAtTheStartOfALineIsData() {
        String data = "x--b\r\n-b\r\n--\r\n--c\r\n\r\r\n--\r--b\n--b\r\r\n-- b\r\n--B";
        assertParts("b", "--b\r\nContent-Disposition: form-data; name=\"d\"\r\n\r\n" + data + "\r\n--b--\r\n",
                part("d", null, null, data));
    }

    @Test
    void dataThatLooksLikeADelimiterPrefixAtTheEndOfAPart() {
        // Each body ends in a growing prefix of the delimiter, held back until the next byte shows it is data.
        String delimiter = "\r\n--bound";
        StringBuilder body = new StringBuilder();
        List<Part> expected = new ArrayList<>();
        for (int i = 0; i < delimiter.length(); i++) {
            String data = "v" + delimiter.substring(0, i);
            body.append("--bound\r\nContent-Disposition: form-data; name=\"p").append(i).append("\"\r\n\r\n").append(data).append("\r\n");
            expected.add(part("p" + i, null, null, data));
        }
        body.append("--bound--");
        assertParts("bound", body.toString(), expected.toArray(Part[]::new));
    }

    @Test
    void aPartWithoutAnyBodyEndsAtTheBoundaryAfterItsHeaderSection() {
        assertParts("b", "--b\r\n" + DISPOSITION + "\r\n--b\r\n" + DISPOSITION + "\r\n-b--\r\n--b--",
                part("a", null, null, ""), part("a", null, null, "-b--"));
    }

    @Test
    void transportPaddingAfterBoundaries() {
        assertParts("b", "--b \t \r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--b\t\r\n"
                        + "Content-Disposition: form-data; name=b\r\n\r\n2\r\n--b-- \r\n",
                part("a", null, null, "1"), part("b", null, null, "2"));
    }

    @Test
    void preambleAndEpilogueAreIgnored() {
        assertParts("b", "This is a preamble.\r\n--c\r\n-b\r\n--\r\nAnd a line --b\r\n"
                        + "--b\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--b--\r\nThe epilogue\r\n--b\r\nis not parsed\n",
                part("a", null, null, "1"));
    }

    @Test
    void headerNamesAndParameterNamesAreCaseInsensitiveAndQuotedPairsUnescaped() {
        assertParts("b", "--b\r\ncontent-DISPOSITION:FORM-DATA ;NAME = \"a\\\"b\" ; Filename=\"c:\\\\x\\y.txt\"; size=3\r\n"
                        + "CONTENT-TYPE:   text/x; charset=utf-8  \r\nX-Other: ignored\r\n\r\nabc\r\n--b--",
                part("a\"b", "c:\\xy.txt", "text/x; charset=utf-8", "abc"));
    }

    @Test
    void aBodyWithoutPartsCompletes() {
        assertParts("b", "--b--");
        assertParts("b", "preamble\r\n--b--\r\n");
    }

    @Test
    void eventsComeInOrderAndBodyBytesArriveBeforePartEnd() {
        MultipartParser parser = new MultipartParser("b", MultipartLimits.DEFAULT);
        ByteBuffer in = ByteBuffer.wrap(bytes("--b\r\nContent-Disposition: form-data; name=a\r\n\r\n12345\r\n--b\r\n"
                + "Content-Disposition: form-data; name=b\r\n\r\n\r\n--b--\r\nepilogue"));
        ByteBuffer out = ByteBuffer.allocate(3);
        assertThat(parser.parse(in, out)).isEqualTo(Event.PART_HEAD);
        assertThat(parser.name()).isEqualTo("a");
        assertThat(parser.parts()).isEqualTo(1);
        assertThat(parser.parse(in, out)).isEqualTo(Event.BODY);
        assertThat(out.position()).isEqualTo(3);
        out.clear();
        assertThat(parser.parse(in, out)).isEqualTo(Event.BODY);
        assertThat(new String(out.array(), 0, out.position(), StandardCharsets.ISO_8859_1)).isEqualTo("45");
        out.clear();
        assertThat(parser.parse(in, out)).isEqualTo(Event.PART_END);
        assertThat(parser.parse(in, out)).isEqualTo(Event.PART_HEAD);
        assertThat(parser.name()).isEqualTo("b");
        assertThat(parser.parse(in, out)).as("an empty body has no BODY").isEqualTo(Event.PART_END);
        assertThat(parser.parse(in, out)).isEqualTo(Event.COMPLETE);
        assertThat(in.hasRemaining()).as("the epilogue is consumed").isFalse();
        ByteBuffer more = ByteBuffer.wrap(bytes("--b\r\n"));
        assertThat(parser.parse(more, out)).isEqualTo(Event.COMPLETE);
        assertThat(more.hasRemaining()).isFalse();
        assertThat(out.position()).isZero();
    }

    @Test
    void bodyEndingWhereTheInputEndsNeedsMore() {
        String head = "--b\r\nContent-Disposition: form-data; name=a\r\n\r\n";
        for (String cut : List.of("", "--b", "--b\r", "--b \r\n", head, head + "data", head + "data\r\n--b", head + "data\r\n--b\r\n")) {
            byte[] input = bytes(cut);
            allWays("b", MultipartLimits.DEFAULT, input).forEach(p -> {
                assertThat(p.last()).as("'%s'", cut).isEqualTo(Event.NEED_MORE);
                assertThat(p.consumed()).isEqualTo(input.length);
            });
        }
        // Held back: "\r\n--" might begin the delimiter, so only "data" is out until the next byte tells.
        Parsed heldBack = parse(new MultipartParser("b", MultipartLimits.DEFAULT), List.of(bytes(head + "data\r\n--")), 100);
        assertThat(heldBack.last()).isEqualTo(Event.NEED_MORE);
        assertThat(heldBack.unfinished().body()).isEqualTo("data");
        Parsed ended = parse(new MultipartParser("b", MultipartLimits.DEFAULT), List.of(bytes(head + "data\r\n--b")), 100);
        assertThat(ended.parts()).containsExactly(new Part("a", null, null, "Content-Disposition: form-data; name=a\n", "data"));
        assertThat(ended.events()).containsExactly(Event.PART_HEAD, Event.BODY, Event.PART_END);
        assertThat(ended.last()).isEqualTo(Event.NEED_MORE);
    }

    record Invalid(String name, String boundary, MultipartLimits limits, String body, int status, String reason) {
        @Override
        public String toString() {
            return name + " -> " + status;
        }
    }

    private static Invalid invalid(String name, String body, String reason) {
        return new Invalid(name, "b", MultipartLimits.DEFAULT, body, 400, reason);
    }

    private static Invalid tooLarge(String name, MultipartLimits limits, String body, String limit) {
        return new Invalid(name, "b", limits, body, 413, limit);
    }

    private static final String DISPOSITION = "Content-Disposition: form-data; name=a\r\n";

    static Stream<Invalid> invalidBodies() {
        return Stream.of(
                invalid("no Content-Disposition", "--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--", "without Content-Disposition"),
                invalid("empty header section", "--b\r\n\r\nx\r\n--b--", "without Content-Disposition"),
                invalid("not form-data", "--b\r\nContent-Disposition: attachment; name=a\r\n\r\nx\r\n--b--", "not form-data"),
                invalid("form-data without a name", "--b\r\nContent-Disposition: form-data; filename=\"f\"\r\n\r\nx\r\n--b--", "without a name"),
                invalid("name parameter twice", "--b\r\nContent-Disposition: form-data; name=a; name=b\r\n\r\n\r\n--b--", "more than one name"),
                invalid("filename parameter twice", "--b\r\nContent-Disposition: form-data; name=a; filename=x; FILENAME=y\r\n\r\n\r\n--b--", "more than one filename"),
                invalid("Content-Disposition twice", "--b\r\n" + DISPOSITION + DISPOSITION + "\r\n\r\n--b--", "more than one Content-Disposition"),
                invalid("Content-Type twice", "--b\r\n" + DISPOSITION + "Content-Type: a/b\r\nContent-Type: c/d\r\n\r\n\r\n--b--", "more than one Content-Type"),
                invalid("unterminated quoted name", "--b\r\nContent-Disposition: form-data; name=\"a\r\n\r\n\r\n--b--", "Malformed"),
                invalid("empty unquoted name", "--b\r\nContent-Disposition: form-data; name=\r\n\r\n\r\n--b--", "Malformed"),
                invalid("parameter without =", "--b\r\nContent-Disposition: form-data; name\r\n\r\n\r\n--b--", "Malformed"),
                invalid("text after the type", "--b\r\nContent-Disposition: form-data name=a\r\n\r\n\r\n--b--", "Malformed"),
                invalid("text after a quoted value", "--b\r\nContent-Disposition: form-data; name=\"a\"b\r\n\r\n\r\n--b--", "Malformed"),
                invalid("obs-fold", "--b\r\nContent-Disposition: form-data;\r\n name=a\r\n\r\n\r\n--b--", "obs-fold"),
                invalid("bare LF ending a header line", "--b\r\nContent-Disposition: form-data; name=a\n\r\n\r\n--b--", "Bare LF"),
                invalid("bare LF line endings throughout", "--b\nContent-Disposition: form-data; name=a\n\nx\n--b--\n", "Boundary"),
                invalid("bare LF ending the header section", "--b\r\n" + DISPOSITION + "\n\r\n--b--", "Bare LF"),
                invalid("bare CR after a boundary", "--b\rContent-Disposition: form-data; name=a\r\n\r\n\r\n--b--", "Bare CR"),
                invalid("space before a header colon", "--b\r\nContent-Disposition : form-data; name=a\r\n\r\n\r\n--b--", "colon"),
                invalid("control character in a header value", "--b\r\nContent-Disposition: form-data; name=\"a\u0001\"\r\n\r\n\r\n--b--", "Invalid character"),
                invalid("boundary followed by text", "--b\r\n" + DISPOSITION + "\r\nx\r\n--bx\r\n--b--", "not followed by CRLF or --"),
                invalid("boundary followed by text in the preamble", "preamble\r\n--bb\r\n" + DISPOSITION + "\r\nx\r\n--b--", "not followed by CRLF or --"),
                invalid("boundary followed by one dash", "--b\r\n" + DISPOSITION + "\r\nx\r\n--b-\r\n", "not followed by CRLF or --"),
                invalid("boundary followed by text at the start of a body", "--b\r\n" + DISPOSITION + "\r\n--bx\r\n--b--", "not followed by CRLF or --"),
                invalid("text after transport padding", "--b \tx\r\n" + DISPOSITION + "\r\n\r\n--b--", "Transport padding"),
                tooLarge("more parts than maxParts", SMALL, "--b\r\n" + DISPOSITION + "\r\n\r\n--b\r\n" + DISPOSITION + "\r\n\r\n--b\r\n", "maxParts"),
                tooLarge("header section larger than maxPartHeaderBytes", SMALL,
                        "--b\r\n" + DISPOSITION + "X-Padding: " + "p".repeat(10) + "\r\n\r\n\r\n--b--", "maxPartHeaderBytes"),
                tooLarge("part body larger than maxPartBytes", SMALL, "--b\r\n" + DISPOSITION + "\r\n123456789\r\n--b--", "maxPartBytes"),
                tooLarge("held-back bytes that make a part larger than maxPartBytes", SMALL,
                        "--b\r\n" + DISPOSITION + "\r\n1234567\r\n-\r\n--b--", "maxPartBytes"),
                tooLarge("body larger than maxTotalBytes", new MultipartLimits(10, 64, 1000, 100),
                        "--b\r\n" + DISPOSITION + "\r\n" + "x".repeat(100) + "\r\n--b--", "maxTotalBytes"),
                tooLarge("preamble counted against maxTotalBytes", new MultipartLimits(10, 64, 1000, 100),
                        "p".repeat(101) + "\r\n--b--", "maxTotalBytes"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidBodies")
    void rejectsInvalidBodies(Invalid c) {
        byte[] input = bytes(c.body());
        int[] stoppedAt = {-1};
        allWays(c.boundary(), c.limits(), input).forEach(p -> {
            assertThat(p.last()).as("last event").isEqualTo(Event.ERROR);
            assertThat(p.error().status()).as(p.error().reason()).isEqualTo(c.status());
            assertThat(p.error().reason()).contains(c.reason());
            if (stoppedAt[0] < 0) stoppedAt[0] = p.consumed();
            assertThat(p.consumed()).as("stops at the same byte however fed").isEqualTo(stoppedAt[0]);
            ByteBuffer more = ByteBuffer.wrap(bytes("\r\n--b--"));
            assertThat(p.parser().parse(more, ByteBuffer.allocate(10))).as("ERROR is final").isEqualTo(Event.ERROR);
            assertThat(more.position()).isZero();
        });
    }

    @Test
    void limitsAreInclusive() {
        // Two parts of exactly maxPartBytes (8), the second one's body ending in what could have begun a delimiter.
        String body = "--b\r\n" + DISPOSITION + "\r\n12345678\r\n--b\r\n" + DISPOSITION + "\r\n123456\r\n\r\n--b--";
        byte[] input = bytes(body);
        MultipartLimits exact = new MultipartLimits(2, DISPOSITION.length() + 2, 8, input.length);
        allWays("b", exact, input).forEach(p -> {
            assertThat(p.last()).as("error %s", p.error()).isEqualTo(Event.COMPLETE);
            assertThat(p.parts()).extracting(Part::body).containsExactly("12345678", "123456\r\n");
        });
        MultipartLimits oneLess = new MultipartLimits(2, DISPOSITION.length() + 2, 8, input.length - 1);
        allWays("b", oneLess, input).forEach(p -> {
            assertThat(p.last()).isEqualTo(Event.ERROR);
            assertThat(p.error()).isEqualTo(new HttpError(413, "Multipart body larger than maxTotalBytes"));
            assertThat(p.consumed()).isEqualTo(input.length - 1);
        });
    }

    @Test
    void epilogueIsNotCountedAgainstMaxTotalBytes() {
        byte[] input = bytes("--b--" + "e".repeat(100));
        allWays("b", new MultipartLimits(1, 1, 0, 5), input).forEach(p -> {
            assertThat(p.last()).isEqualTo(Event.COMPLETE);
            assertThat(p.consumed()).isEqualTo(input.length);
        });
    }

    @Test
    void bodyOutWithoutRoomIsAMistake() {
        MultipartParser parser = new MultipartParser("b", MultipartLimits.DEFAULT);
        assertThatThrownBy(() -> parser.parse(ByteBuffer.wrap(bytes("--b")), ByteBuffer.allocate(0)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void resetAllowsReuseWithAnotherBoundary() {
        MultipartParser parser = new MultipartParser("b", SMALL);
        assertThat(parse(parser, List.of(bytes("--b\r\n\r\n")), 4).last()).isEqualTo(Event.ERROR);
        parser.reset("other");
        assertThat(parser.error()).isNull();
        assertThat(parser.parts()).isZero();
        Parsed p = parse(parser, List.of(bytes("--other\r\n" + DISPOSITION + "\r\nx\r\n--other--")), 4);
        assertThat(p.last()).isEqualTo(Event.COMPLETE);
        assertThat(p.parts()).extracting(Part::body).containsExactly("x");
    }

    @Test
    void boundaryExtraction() {
        assertThat(MultipartParser.boundary("multipart/form-data; boundary=abc")).isEqualTo("abc");
        assertThat(MultipartParser.boundary("Multipart/Form-Data;BOUNDARY=abc")).isEqualTo("abc");
        assertThat(MultipartParser.boundary("multipart/form-data ; charset=utf-8; boundary=\"a b:c?\" ")).isEqualTo("a b:c?");
        assertThat(MultipartParser.boundary("multipart/form-data; boundary=\"a\\=b\"")).isEqualTo("a=b");
        assertThat(MultipartParser.boundary("multipart/form-data; boundary=" + "x".repeat(70))).hasSize(70);
        assertThat(MultipartParser.boundary("multipart/form-data; boundary=\"'()+_,-./:=? x\"")).isEqualTo("'()+_,-./:=? x");
        assertThat(MultipartParser.boundary("multipart/form-data; boundary=abc;")).as("empty parameter").isEqualTo("abc");

        assertThat(MultipartParser.boundary(null)).isNull();
        assertThat(MultipartParser.boundary("")).isNull();
        assertThat(MultipartParser.boundary("multipart/mixed; boundary=abc")).as("not form-data").isNull();
        assertThat(MultipartParser.boundary("application/x-www-form-urlencoded")).isNull();
        assertThat(MultipartParser.boundary("multipart/form-data")).as("missing").isNull();
        assertThat(MultipartParser.boundary("multipart/form-data; boundary=")).as("empty").isNull();
        assertThat(MultipartParser.boundary("multipart/form-data; boundary=\"\"")).as("empty quoted").isNull();
        assertThat(MultipartParser.boundary("multipart/form-data; boundary=" + "x".repeat(71))).as("too long").isNull();
        assertThat(MultipartParser.boundary("multipart/form-data; boundary=\"abc \"")).as("ends in space").isNull();
        assertThat(MultipartParser.boundary("multipart/form-data; boundary=\"a@b\"")).as("not a bchar").isNull();
        assertThat(MultipartParser.boundary("multipart/form-data; boundary=\"a\u00e9b\"")).as("not ASCII").isNull();
        assertThat(MultipartParser.boundary("multipart/form-data; boundary=a; boundary=b")).as("twice").isNull();
        assertThat(MultipartParser.boundary("multipart/form-data; boundary=\"abc")).as("unterminated").isNull();
        assertThat(MultipartParser.boundary("multipart/form-data boundary=abc")).as("no semicolon").isNull();
        assertThat(MultipartParser.boundary("multipart/form-data; boundary=a b")).as("text after the value").isNull();
        assertThat(MultipartParser.boundary("multipart/form-data; boundary=a\u0100")).as("not Latin-1").isNull();
    }

    @Test
    void constructorAndLimitsRejectWhatCannotWork() {
        assertThatThrownBy(() -> new MultipartParser("", MultipartLimits.DEFAULT)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MultipartParser("a\r\nb", MultipartLimits.DEFAULT)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MultipartParser("x".repeat(71), MultipartLimits.DEFAULT)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MultipartLimits(0, 1, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MultipartLimits(1, 0, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MultipartLimits(1, 1, -1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MultipartLimits(1, 1, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(MultipartLimits.DEFAULT).isEqualTo(new MultipartLimits(1000, 16384, 1L << 30, 1L << 32));
    }
}
