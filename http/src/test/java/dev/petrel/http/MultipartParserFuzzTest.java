package dev.petrel.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http.MultipartParser.Event;
import dev.petrel.http.MultipartParserTest.Parsed;
import dev.petrel.http.MultipartParserTest.Part;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
 * Fuzzes {@link MultipartParser} as {@link ChunkedDecoderFuzzTest} fuzzes the chunked decoder:
 * mutated valid bodies and random bytes give the same outcome however they arrive; and generated
 * valid bodies, whose part bodies are random bytes rich in CR, LF, dashes and pieces of the
 * delimiter, parse back to exactly the parts they were made of.
 */
@EnableFootnotes
class MultipartParserFuzzTest {
    static final Set<Integer> ERROR_STATUSES = Set.of(400, 413);

    /** The boundaries of the corpus; a Jazzer input picks one by index. */
    static final List<String> BOUNDARIES = List.of("bnd", MultipartParserTest.CURL_BOUNDARY, MultipartParserTest.BROWSER_BOUNDARY);

    /** A body and the boundary it is parsed with. */
    record Sample(String boundary, byte[] body) {}

    static final List<Sample> CORPUS = List.of(
            new Sample(BOUNDARIES.get(1), SplitParsing.bytes(MultipartParserTest.CURL_BODY)),
            new Sample(BOUNDARIES.get(2), SplitParsing.bytes(MultipartParserTest.BROWSER_BODY)),
            sample("--bnd\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--bnd--\r\n"),
            sample("preamble\r\n--bnd \t\r\ncontent-disposition: form-data; name=x; filename=\"a\\\"b.txt\"\r\n"
                    + "Content-Type: text/plain\r\n\r\n\r\n-\r\n--\r\n--bn\r\n\r\n--bnd\t\r\n"
                    + "Content-Disposition: form-data; name=\"\"; filename=\"\"\r\n\r\n\r\n--bnd--epilogue\r\n--bnd\r\n"),
            sample("--bnd\r\nContent-Disposition: form-data; name=e\r\n\r\n--bnd\r\nContent-Disposition: form-data; name=\"caf\u00c3\u00a9\"\r\n\r\n"
                    + "x--bnd\r\r\n--bnd--"),
            sample("--bnd--"));

    static final List<String> VOCABULARY = List.of(
            "--bnd", "\r\n--bnd", "--bnd--", "--", "-", "bnd", "bn", "\r\n", "\r", "\n", " ", "\t",
            "Content-Disposition: form-data; name=a\r\n", "Content-Disposition: ", "form-data", "; name=", "; filename=",
            "\"", "\\", "Content-Type: text/plain\r\n", ":", "x", "\u0000", "\u00c3\u00a9");

    /** Two parts of 8 bytes with 64-byte header sections within 256 bytes, so every limit is within reach. */
    static final MultipartLimits SMALL = new MultipartLimits(2, 64, 8, 256);

    private static Sample sample(String body) {
        return new Sample("bnd", SplitParsing.bytes(body));
    }

    /** What parsing one input produced, however it was fed. */
    record Outcome(Event last, int errorStatus, String reason, int position, List<Event> events, List<Part> parts, Part unfinished) {}

    @Provide
    Arbitrary<Sample> samples() {
        return Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.of(CORPUS).flatMap(s -> Mutations.mutated(List.of(s.body()), 6).map(b -> new Sample(s.boundary(), b)))),
                Tuple.of(1, Arbitraries.of(CORPUS)),
                Tuple.of(3, Mutations.random(VOCABULARY, 160).map(b -> new Sample("bnd", b))));
    }

    @Provide
    Arbitrary<byte[]> previous() {
        return Arbitraries.of(CORPUS).map(Sample::body);
    }

    @Provide
    Arbitrary<MultipartLimits> limits() {
        return Arbitraries.of(MultipartLimits.DEFAULT, SMALL);
    }

    @Property
    void outcomeDoesNotDependOnHowTheBytesArrive(
            @ForAll("samples") Sample sample,
            @ForAll("limits") MultipartLimits limits,
            @ForAll @IntRange(min = 0, max = 100_000) int firstCut,
            @ForAll @IntRange(min = 0, max = 100_000) int secondCut,
            @ForAll @IntRange(min = 1, max = 8) int outCapacity,
            @ForAll("previous") byte[] previous,
            Footnotes footnotes) {
        footnotes.addFootnote("boundary = \"" + sample.boundary() + "\", input = \"" + Mutations.show(sample.body()) + "\"");
        int[] cuts = JazzerSeeds.within(new int[] {firstCut, secondCut}, sample.body());
        Outcome whole = assertSameOutcomeHoweverFed(sample.boundary(), sample.body(), limits, cuts, outCapacity, previous);
        Statistics.label("outcome").collect(whole.last(), whole.errorStatus());
    }

    /**
     * The invariants of one input, shared with {@link MultipartParserJazzerTest}: parsed whole, the
     * outcome keeps {@link #checkInvariants}; cut at {@code cuts} (offsets into {@code input}) into
     * an output buffer of {@code outCapacity} bytes, fed byte by byte into a 1-byte output, and
     * parsed by a parser reset after {@code previous}, the outcome is the same.
     *
     * @return the outcome of parsing {@code input} whole
     */
    static Outcome assertSameOutcomeHoweverFed(
            String boundary, byte[] input, MultipartLimits limits, int[] cuts, int outCapacity, byte[] previous) {
        Outcome whole = outcome(MultipartParserTest.parse(new MultipartParser(boundary, limits), List.of(input), input.length + 1));
        checkInvariants(whole, boundary, input, limits);

        assertThat(outcome(MultipartParserTest.parse(new MultipartParser(boundary, limits), SplitParsing.cut(input, cuts), outCapacity)))
                .as("cut at %s, output of %d", Arrays.toString(cuts), outCapacity).isEqualTo(whole);
        assertThat(outcome(MultipartParserTest.parse(new MultipartParser(boundary, limits), SplitParsing.oneByteEach(input), 1)))
                .as("byte by byte").isEqualTo(whole);

        MultipartParser reused = new MultipartParser(BOUNDARIES.getFirst(), limits);
        MultipartParserTest.parse(reused, List.of(previous), 8);
        reused.reset(boundary);
        assertThat(outcome(MultipartParserTest.parse(reused, List.of(input), input.length + 1))).as("after reset").isEqualTo(whole);
        return whole;
    }

    static Outcome outcome(Parsed p) {
        HttpError error = p.last() == Event.ERROR ? p.error() : null;
        return new Outcome(p.last(), error == null ? 0 : error.status(), error == null ? null : error.reason(),
                p.consumed(), p.events(), p.parts(), p.unfinished());
    }

    static void checkInvariants(Outcome outcome, String boundary, byte[] input, MultipartLimits limits) {
        assertThat(outcome.last()).isIn(Event.NEED_MORE, Event.COMPLETE, Event.ERROR);
        assertThat(outcome.position()).isBetween(0, input.length);
        List<Part> started = new ArrayList<>(outcome.parts());
        if (outcome.unfinished() != null) started.add(outcome.unfinished());
        assertThat(started.size()).isLessThanOrEqualTo(limits.maxParts());
        for (Part part : started) assertThat((long) part.body().length()).isLessThanOrEqualTo(limits.maxPartBytes());
        switch (outcome.last()) {
            case NEED_MORE -> {
                assertThat(outcome.position()).isEqualTo(input.length);
                assertThat((long) input.length).isLessThanOrEqualTo(limits.maxTotalBytes());
            }
            case ERROR -> {
                assertThat(outcome.errorStatus()).isIn(ERROR_STATUSES);
                assertThat((long) outcome.position()).isLessThanOrEqualTo(limits.maxTotalBytes());
                assertThat(outcome.events()).last().isEqualTo(Event.ERROR);
            }
            case COMPLETE -> {
                assertThat(outcome.position()).as("the epilogue is consumed").isEqualTo(input.length);
                assertThat(new String(input, StandardCharsets.ISO_8859_1)).contains("--" + boundary + "--");
                assertThat(outcome.unfinished()).isNull();
                assertThat(outcome.events()).last().isEqualTo(Event.COMPLETE);
            }
            default -> throw new AssertionError(outcome.last());
        }
    }

    // ---- generated valid bodies ----

    /** A part to encode: name and filename any text (quoted, escaped, UTF-8), body any bytes. */
    record FormPart(String name, String filename, String contentType, byte[] body) {}

    /** A whole body to encode: what comes before the first delimiter, the parts, padding after each delimiter, the epilogue. */
    record Form(String boundary, byte[] preamble, List<FormPart> parts, List<String> paddings, byte[] epilogue) {
        byte[] encode() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] dashBoundary = SplitParsing.bytes("--" + boundary);
            if (preamble.length > 0) {
                out.writeBytes(preamble);
                out.writeBytes(SplitParsing.bytes("\r\n"));
            }
            for (int i = 0; i < parts.size(); i++) {
                FormPart part = parts.get(i);
                out.writeBytes(dashBoundary);
                out.writeBytes(SplitParsing.bytes(paddings.get(i) + "\r\n"));
                StringBuilder head = new StringBuilder("Content-Disposition: form-data; name=").append(quoted(part.name()));
                if (part.filename() != null) head.append("; filename=").append(quoted(part.filename()));
                head.append("\r\n");
                if (part.contentType() != null) head.append("Content-Type: ").append(part.contentType()).append("\r\n");
                out.writeBytes(SplitParsing.bytes(head.append("\r\n").toString()));
                out.writeBytes(part.body());
                out.writeBytes(SplitParsing.bytes("\r\n"));
            }
            out.writeBytes(dashBoundary);
            out.writeBytes(SplitParsing.bytes("--" + paddings.get(parts.size())));
            out.writeBytes(epilogue);
            return out.toByteArray();
        }

        /** A quoted-string of {@code text}'s UTF-8 bytes, as ISO-8859-1 text so each byte stays one char. */
        private static String quoted(String text) {
            String bytes = new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
            return "\"" + bytes.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        }
    }

    private static final String BCHARS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ";

    @Provide
    Arbitrary<Form> forms() {
        Arbitrary<String> boundaries = Arbitraries.oneOf(
                        Arbitraries.strings().withChars(BCHARS.toCharArray()).ofMinLength(1).ofMaxLength(70),
                        Arbitraries.strings().withChars("-ab".toCharArray()).ofMinLength(1).ofMaxLength(6),
                        Arbitraries.of(BOUNDARIES))
                .filter(b -> !b.endsWith(" "));
        return boundaries.flatMap(boundary -> {
            Arbitrary<String> text = Arbitraries.strings().withChars("az \"\\;=é€日".toCharArray()).ofMaxLength(8);
            Arbitrary<FormPart> part = Combinators.combine(
                            text, text.injectNull(0.4), Arbitraries.of("text/plain", "application/octet-stream", "image/png; x=y").injectNull(0.4),
                            content(boundary, 40))
                    .as(FormPart::new);
            Arbitrary<List<FormPart>> parts = part.list().ofMaxSize(4);
            Arbitrary<String> padding = Arbitraries.strings().withChars(" \t".toCharArray()).ofMaxLength(3);
            return parts.flatMap(ps -> Combinators.combine(
                            content(boundary, 10), padding.list().ofSize(ps.size() + 1), Arbitraries.bytes().array(byte[].class).ofMaxSize(10))
                    .as((preamble, paddings, epilogue) -> new Form(boundary, preamble, ps, paddings, epilogue)));
        });
    }

    /**
     * Bytes made of noise and of what a parser of this boundary must look at twice: CR, LF, dashes,
     * the dash-boundary and prefixes of the delimiter. Whole delimiters are broken up afterwards
     * (an 'x' after their CRLF), including one the CRLF before the content would complete.
     */
    private static Arbitrary<byte[]> content(String boundary, int maxTokens) {
        String delimiter = "\r\n--" + boundary;
        Arbitrary<String> token = Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.bytes().array(byte[].class).ofMaxSize(6).map(b -> new String(b, StandardCharsets.ISO_8859_1))),
                Tuple.of(3, Arbitraries.of("\r", "\n", "\r\n", "-", "--", "\r\n--", "--" + boundary, "--" + boundary + "--")),
                Tuple.of(3, Arbitraries.integers().between(1, delimiter.length()).map(n -> delimiter.substring(0, n))));
        return token.list().ofMaxSize(maxTokens).map(tokens -> {
            StringBuilder text = new StringBuilder("\r\n").append(String.join("", tokens));
            for (int at = text.indexOf(delimiter); at >= 0; at = text.indexOf(delimiter, at)) text.insert(at + 2, 'x');
            return SplitParsing.bytes(text.substring(2));
        });
    }

    @Property
    void generatedBodiesParseToTheirParts(
            @ForAll("forms") Form form,
            @ForAll @IntRange(min = 0, max = 100_000) int firstCut,
            @ForAll @IntRange(min = 0, max = 100_000) int secondCut,
            @ForAll @IntRange(min = 1, max = 8) int outCapacity,
            Footnotes footnotes) {
        byte[] input = form.encode();
        footnotes.addFootnote("boundary = \"" + form.boundary() + "\", input = \"" + Mutations.show(input) + "\"");
        List<List<byte[]>> feedings = List.of(
                List.of(input), SplitParsing.cut(input, JazzerSeeds.within(new int[] {firstCut, secondCut}, input)), SplitParsing.oneByteEach(input));
        for (List<byte[]> pieces : feedings) {
            Parsed p = MultipartParserTest.parse(new MultipartParser(form.boundary(), MultipartLimits.DEFAULT), pieces, pieces.size() == 1 ? 4096 : outCapacity);
            assertThat(p.last()).as("last event (error %s)", p.error()).isEqualTo(Event.COMPLETE);
            assertThat(p.consumed()).isEqualTo(input.length);
            assertThat(p.parts()).hasSameSizeAs(form.parts());
            for (int i = 0; i < form.parts().size(); i++) {
                FormPart wanted = form.parts().get(i);
                Part actual = p.parts().get(i);
                assertThat(actual.name()).isEqualTo(wanted.name());
                assertThat(actual.filename()).isEqualTo(wanted.filename());
                assertThat(actual.contentType()).isEqualTo(wanted.contentType());
                assertThat(SplitParsing.bytes(actual.body())).as("body of part %d", i).isEqualTo(wanted.body());
            }
        }
        Statistics.label("parts").collect(form.parts().size());
    }
}
