package dev.petrel.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.footnotes.EnableFootnotes;
import net.jqwik.api.footnotes.Footnotes;
import net.jqwik.api.statistics.Statistics;

/** Fuzzes {@link ChunkedDecoder} like {@link RequestParserFuzzTest} fuzzes the request parser. */
@EnableFootnotes
class ChunkedDecoderFuzzTest {
    static final Set<Integer> ERROR_STATUSES = Set.of(400, 413, 431);

    static final List<byte[]> CORPUS = List.of(
            "0\r\n\r\n",
            "5\r\nhello\r\n0\r\n\r\n",
            "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\nGET / HTTP/1.1\r\n",
            "a;ext=1\r\n0123456789\r\n3 ; q=\"x;y\"\r\nabc\r\n0\r\nTrailer: v\r\nX-Other:\r\n\r\nNEXT",
            "1F\r\n0123456789abcdef0123456789abcd\r\n0;z\r\n\r\n",
            "000004\r\n\r\n\r\n\r\n0\r\n\r\n").stream()
            .map(SplitParsing::bytes).toList();

    static final List<String> VOCABULARY = List.of(
            "0", "5", "a", "F", "10", "\r\n", "\r", "\n", ";", " ", "\t", "=", "\"", "x", "hello", "X: y", ":", "\u0000", "\u00ff");

    /** A body limit of 16 bytes and a 10-byte size line, so 413 and the line limit are within reach. */
    static final HttpLimits SMALL = new HttpLimits(64, 64, 2, 16, 10);

    record Outcome(ParseStatus status, int errorStatus, int position, String body, String trailers) {}

    @Provide
    Arbitrary<byte[]> bodies() {
        return Arbitraries.frequencyOf(
                Tuple.of(6, Mutations.mutated(CORPUS, 6)),
                Tuple.of(1, Arbitraries.of(CORPUS)),
                Tuple.of(3, Mutations.random(VOCABULARY, 120)));
    }

    @Provide
    Arbitrary<HttpLimits> limits() {
        return Arbitraries.of(HttpLimits.DEFAULT, SMALL);
    }

    @Property
    void outcomeDoesNotDependOnHowTheBytesArrive(
            @ForAll("bodies") byte[] input,
            @ForAll("limits") HttpLimits limits,
            @ForAll @IntRange(min = 0, max = 100_000) int splitSeed,
            @ForAll @IntRange(min = 1, max = 8) int outCapacity,
            @ForAll("bodies") byte[] previous,
            Footnotes footnotes) {
        footnotes.addFootnote("input = \"" + Mutations.show(input) + "\"");
        int split = input.length == 0 ? 0 : splitSeed % (input.length + 1);
        Outcome whole = assertSameOutcomeHoweverFed(input, limits, new int[] {split}, outCapacity, previous);
        Statistics.label("outcome").collect(whole.status(), whole.errorStatus());
    }

    /**
     * The invariants of one input, shared with {@link ChunkedDecoderJazzerTest}: decoded whole, the
     * outcome keeps {@link #checkInvariants}; cut at {@code cuts} (offsets into {@code input}) into
     * an output buffer of {@code outCapacity} bytes, fed byte by byte into a 1-byte output, and
     * decoded by a decoder reset after {@code previous}, the outcome is the same.
     *
     * @return the outcome of decoding {@code input} whole
     */
    static Outcome assertSameOutcomeHoweverFed(byte[] input, HttpLimits limits, int[] cuts, int outCapacity, byte[] previous) {
        Outcome whole = outcome(ChunkedDecoderTest.decode(new ChunkedDecoder(limits), List.of(input), input.length + 1));
        checkInvariants(whole, input, limits);

        assertThat(outcome(ChunkedDecoderTest.decode(new ChunkedDecoder(limits), SplitParsing.cut(input, cuts), outCapacity)))
                .as("cut at %s, output of %d", Arrays.toString(cuts), outCapacity).isEqualTo(whole);
        assertThat(outcome(ChunkedDecoderTest.decode(new ChunkedDecoder(limits), SplitParsing.oneByteEach(input), 1)))
                .as("byte by byte").isEqualTo(whole);

        ChunkedDecoder reused = new ChunkedDecoder(limits);
        reused.decode(ByteBuffer.wrap(previous), ByteBuffer.allocate(previous.length));
        reused.reset();
        assertThat(outcome(ChunkedDecoderTest.decode(reused, List.of(input), input.length + 1))).as("after reset").isEqualTo(whole);
        return whole;
    }

    static Outcome outcome(ChunkedDecoderTest.Decoded d) {
        ParseStatus status = d.status();
        assertThat(status).isIn(ParseStatus.NEED_MORE, ParseStatus.COMPLETE, ParseStatus.ERROR);
        int errorStatus = status == ParseStatus.ERROR ? d.decoder().error().status() : 0;
        String trailers = status == ParseStatus.COMPLETE ? d.decoder().trailers().toString() : null;
        return new Outcome(status, errorStatus, d.consumed(), new String(d.body(), StandardCharsets.ISO_8859_1), trailers);
    }

    static void checkInvariants(Outcome outcome, byte[] input, HttpLimits limits) {
        assertThat(outcome.position()).isBetween(0, input.length);
        assertThat((long) outcome.body().length()).isLessThanOrEqualTo(limits.maxBodySize());
        switch (outcome.status()) {
            case NEED_MORE -> assertThat(outcome.position()).isEqualTo(input.length);
            case ERROR -> assertThat(outcome.errorStatus()).isIn(ERROR_STATUSES);
            case COMPLETE -> {
                int end = outcome.position();
                assertThat(end).isGreaterThanOrEqualTo(5);
                assertThat(Arrays.copyOfRange(input, end - 2, end)).isEqualTo(SplitParsing.bytes("\r\n"));
            }
        }
    }
}
