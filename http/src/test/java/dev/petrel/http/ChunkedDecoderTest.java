package dev.petrel.http;

import static dev.petrel.http.SplitParsing.bytes;
import static dev.petrel.http.SplitParsing.concat;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Chunked bodies, each decoded whole, split at every byte, one byte at a time, and into a 1-byte output buffer. */
class ChunkedDecoderTest {
    /** The start of the next request on the connection; the decoder must leave it in place. */
    private static final byte[] NEXT = bytes("GET /next HTTP/1.1\r\n");

    /** A 10-byte body limit and a 12-byte chunk-size line limit. */
    private static final HttpLimits SMALL = new HttpLimits(64, 64, 2, 10, 12);

    /** What one way of feeding produced. */
    record Decoded(ParseStatus status, byte[] body, int consumed, byte[] leftover, ChunkedDecoder decoder) {
        String bodyText() {
            return new String(body, StandardCharsets.ISO_8859_1);
        }
    }

    /**
     * Feeds {@code pieces} through one reused, compacted read buffer, draining an output buffer of
     * {@code outCapacity} bytes whenever it fills, until the decoder completes, fails, or the input
     * runs out.
     */
    static Decoded decode(ChunkedDecoder decoder, List<byte[]> pieces, int outCapacity) {
        int total = 0;
        for (byte[] piece : pieces) total += piece.length;
        ByteBuffer in = ByteBuffer.allocate(total + 8);
        SplitParsing.scribble(in);
        ByteBuffer out = ByteBuffer.allocate(outCapacity);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        ParseStatus status = ParseStatus.NEED_MORE;
        int consumed = 0;
        int next = 0;
        in.flip();
        int calls = 0;
        while (true) {
            if (!in.hasRemaining()) {
                if (next == pieces.size()) break;
                in.compact();
                SplitParsing.scribble(in);
                in.put(pieces.get(next++));
                in.flip();
            }
            int before = in.position();
            status = decoder.decode(in, out);
            assertThat(in.position()).isBetween(before, in.limit());
            consumed += in.position() - before;
            boolean outFull = !out.hasRemaining();
            out.flip();
            body.write(out.array(), 0, out.limit());
            out.clear();
            if (status != ParseStatus.NEED_MORE) break;
            assertThat(outFull || !in.hasRemaining())
                    .as("NEED_MORE only when the input is used up or the output is full")
                    .isTrue();
            assertThat(++calls).as("decoder makes progress").isLessThan(10 * total + 10);
        }
        ByteArrayOutputStream leftover = new ByteArrayOutputStream();
        while (in.hasRemaining()) leftover.write(in.get());
        while (next < pieces.size()) leftover.writeBytes(pieces.get(next++));
        return new Decoded(status, body.toByteArray(), consumed, leftover.toByteArray(), decoder);
    }

    /** Every way of feeding {@code input}: whole, split at each byte, byte by byte; each with a roomy and a 1-byte output. */
    static Stream<Decoded> allWays(HttpLimits limits, byte[] input, int maxSplit) {
        return SplitParsing.feedings(input, maxSplit).stream()
                .flatMap(pieces -> Stream.of(input.length + 1, 1)
                        .map(capacity -> decode(new ChunkedDecoder(limits), pieces, capacity)));
    }

    record Valid(String name, String encoded, String body, Consumer<HeaderFields> trailers) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Valid valid(String name, String encoded, String body) {
        return new Valid(name, encoded, body, t -> assertThat(t.size()).isZero());
    }

    static Stream<Valid> validBodies() {
        return Stream.of(
                valid("empty body", "0\r\n\r\n", ""),
                valid("one chunk", "5\r\nhello\r\n0\r\n\r\n", "hello"),
                valid("several chunks", "5\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\n\r\n", "hello world"),
                valid("extensions", "5;a=b;c=\"d\"\r\nhello\r\n0;last\r\n\r\n", "hello"),
                valid("quoted extension with separators", "3;name=\"a;b=c, \\\"q\\\"\"\r\nabc\r\n0\r\n\r\n", "abc"),
                valid("BWS before the semicolon", "5 \t;a=b\r\nhello\r\n0\t;x\r\n\r\n", "hello"),
                valid("BWS around the extension", "5 ; a = b\r\nhello\r\n0\r\n\r\n", "hello"),
                valid("upper-case hex", "A\r\n0123456789\r\n1F\r\n" + "x".repeat(31) + "\r\n0\r\n\r\n",
                        "0123456789" + "x".repeat(31)),
                valid("mixed-case hex", "aB\r\n" + "y".repeat(171) + "\r\n0\r\n\r\n", "y".repeat(171)),
                valid("leading zeros", "0005\r\nhello\r\n000\r\n\r\n", "hello"),
                valid("fifteen hex digits", "000000000000005\r\nhello\r\n0\r\n\r\n", "hello"),
                valid("data that looks like framing", "7\r\n0\r\n\r\n\r\n\r\n0\r\n\r\n", "0\r\n\r\n\r\n"),
                valid("binary data", "4\r\n\u0000\u00ff\r\u0080\r\n0\r\n\r\n", "\u0000\u00ff\r\u0080"),
                new Valid("trailers", "3\r\nabc\r\n0\r\nX-Checksum: 123\r\nx-other:  v w \r\nX-Empty:\r\n\r\n", "abc", t -> {
                    assertThat(t.size()).isEqualTo(3);
                    assertThat(t.first("x-checksum")).isEqualTo("123");
                    assertThat(t.first("X-Other")).isEqualTo("v w");
                    assertThat(t.name(1)).isEqualTo("x-other");
                    assertThat(t.first("X-Empty")).isEmpty();
                }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validBodies")
    void decodesValidBodies(Valid c) {
        byte[] encoded = bytes(c.encoded());
        byte[] input = concat(encoded, NEXT);
        allWays(HttpLimits.DEFAULT, input, encoded.length).forEach(d -> {
            assertThat(d.status()).as("status (error %s)", d.decoder().error()).isEqualTo(ParseStatus.COMPLETE);
            assertThat(d.bodyText()).isEqualTo(c.body());
            assertThat(d.consumed()).as("positioned right after the trailer section").isEqualTo(encoded.length);
            assertThat(d.leftover()).as("next request untouched").isEqualTo(NEXT);
            assertThat(d.decoder().bodyBytes()).isEqualTo(c.body().length());
            assertThat(d.decoder().error()).isNull();
            c.trailers().accept(d.decoder().trailers());
            // Complete stays complete and reads no further.
            ByteBuffer more = ByteBuffer.wrap(bytes("5\r\nhello\r\n"));
            assertThat(d.decoder().decode(more, ByteBuffer.allocate(10))).isEqualTo(ParseStatus.COMPLETE);
            assertThat(more.position()).isZero();
        });
    }

    record Invalid(String name, HttpLimits limits, String encoded, int status) {
        @Override
        public String toString() {
            return name + " -> " + status;
        }
    }

    private static Invalid invalid(String name, String encoded, int status) {
        return new Invalid(name, HttpLimits.DEFAULT, encoded, status);
    }

    static Stream<Invalid> invalidBodies() {
        return Stream.of(
                invalid("empty size", "\r\nhello\r\n0\r\n\r\n", 400),
                invalid("non-hex size", "x\r\nhello\r\n0\r\n\r\n", 400),
                invalid("negative size", "-1\r\nh\r\n0\r\n\r\n", 400),
                invalid("signed size", "+5\r\nhello\r\n0\r\n\r\n", 400),
                invalid("leading space", " 5\r\nhello\r\n0\r\n\r\n", 400),
                invalid("0x prefix", "0x5\r\nhello\r\n0\r\n\r\n", 400),
                invalid("trailing whitespace without extension", "5 \r\nhello\r\n0\r\n\r\n", 400),
                invalid("extension without size", ";a=b\r\nhello\r\n0\r\n\r\n", 400),
                invalid("garbage after BWS", "5 x\r\nhello\r\n0\r\n\r\n", 400),
                invalid("missing CRLF after data", "5\r\nhelloX\r\n0\r\n\r\n", 400),
                invalid("data longer than its size", "4\r\nhello\r\n0\r\n\r\n", 400),
                invalid("bare LF after data", "5\r\nhello\n0\r\n\r\n", 400),
                invalid("bare CR after data", "5\r\nhello\r0\r\n\r\n", 400),
                invalid("bare LF in the size line", "5\nhello\r\n0\r\n\r\n", 400),
                invalid("bare LF in an extension", "5;a=b\nhello\r\n0\r\n\r\n", 400),
                invalid("bare CR in the size line", "5\rhello\r\n0\r\n\r\n", 400),
                invalid("bare LF ending the last chunk line", "0\n\r\n", 400),
                invalid("bare LF ending the trailer section", "0\r\n\n", 400),
                invalid("CTL in an extension", "5;a=\u0001\r\nhello\r\n0\r\n\r\n", 400),
                invalid("NUL in an extension", "5;a\u0000\r\nhello\r\n0\r\n\r\n", 400),
                invalid("DEL in an extension", "5;\u007f\r\nhello\r\n0\r\n\r\n", 400),
                invalid("obs-fold in the trailers", "0\r\nX: a\r\n b\r\n\r\n", 400),
                invalid("space before a trailer colon", "0\r\nX : a\r\n\r\n", 400),
                invalid("sixteen hex digits", "0000000000000005\r\nhello\r\n0\r\n\r\n", 413),
                invalid("size above any long", "10000000000000000\r\n", 413),
                invalid("size above maxBodySize", "1000001\r\n", 413),
                new Invalid("chunks adding up above maxBodySize", SMALL, "6\r\nabcdef\r\n5\r\nabcde\r\n0\r\n\r\n", 413),
                new Invalid("one chunk above maxBodySize", SMALL, "B\r\n", 413),
                new Invalid("size line too long", SMALL, "5;aaaaaaaaaaaaaaaa\r\nhello\r\n0\r\n\r\n", 400),
                new Invalid("size line of digits too long", SMALL, "0000000000005\r\nhello\r\n0\r\n\r\n", 400),
                new Invalid("size line too long in BWS", SMALL, "5" + " ".repeat(20) + ";a\r\nhello\r\n0\r\n\r\n", 400),
                new Invalid("too many trailer fields", SMALL, "0\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", 431),
                new Invalid("trailer section too large", SMALL, "0\r\nX: " + "v".repeat(70) + "\r\n\r\n", 431));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidBodies")
    void rejectsInvalidBodies(Invalid c) {
        byte[] input = bytes(c.encoded());
        int[] stoppedAt = {-1};
        allWays(c.limits(), input, input.length - 1).forEach(d -> {
            assertThat(d.status()).isEqualTo(ParseStatus.ERROR);
            assertThat(d.decoder().error().status()).as(d.decoder().error().reason()).isEqualTo(c.status());
            if (stoppedAt[0] < 0) stoppedAt[0] = d.consumed();
            assertThat(d.consumed()).as("stops at the same byte however fed").isEqualTo(stoppedAt[0]);
            ByteBuffer more = ByteBuffer.wrap(bytes("0\r\n\r\n"));
            assertThat(d.decoder().decode(more, ByteBuffer.allocate(10))).isEqualTo(ParseStatus.ERROR);
            assertThat(more.position()).isZero();
        });
    }

    @Test
    void bodyExactlyAtMaxBodySizeIsAccepted() {
        byte[] input = bytes("6\r\nabcdef\r\n4\r\nghij\r\n0\r\n\r\n");
        allWays(SMALL, input, input.length - 1).forEach(d -> {
            assertThat(d.status()).isEqualTo(ParseStatus.COMPLETE);
            assertThat(d.bodyText()).isEqualTo("abcdefghij");
        });
    }

    @Test
    void sizeLineExactlyAtTheLimitIsAccepted() {
        // "5;aaaaaaaaa" is 11 bytes; with its CR the decoder counts 12, the limit of SMALL.
        byte[] input = bytes("5;aaaaaaaaa\r\nhello\r\n0\r\n\r\n");
        Decoded d = decode(new ChunkedDecoder(SMALL), List.of(input), 16);
        assertThat(d.status()).isEqualTo(ParseStatus.COMPLETE);
        assertThat(d.bodyText()).isEqualTo("hello");
    }

    @Test
    void incompleteBodiesNeedMoreAndCountBytesSoFar() {
        ChunkedDecoder decoder = new ChunkedDecoder(HttpLimits.DEFAULT);
        ByteBuffer out = ByteBuffer.allocate(64);
        ByteBuffer in = ByteBuffer.wrap(bytes("a\r\n0123"));
        assertThat(decoder.decode(in, out)).isEqualTo(ParseStatus.NEED_MORE);
        assertThat(in.hasRemaining()).isFalse();
        assertThat(decoder.bodyBytes()).isEqualTo(4);
        assertThat(out.position()).isEqualTo(4);
        assertThat(decoder.decode(ByteBuffer.wrap(bytes("456789\r\n0\r\n")), out)).isEqualTo(ParseStatus.NEED_MORE);
        assertThat(decoder.bodyBytes()).isEqualTo(10);
        assertThat(decoder.decode(ByteBuffer.wrap(bytes("\r\n")), out)).isEqualTo(ParseStatus.COMPLETE);
        assertThat(new String(out.array(), 0, out.position(), StandardCharsets.US_ASCII)).isEqualTo("0123456789");
    }

    @Test
    void fullOutputStopsDataButNotFraming() {
        ChunkedDecoder decoder = new ChunkedDecoder(HttpLimits.DEFAULT);
        ByteBuffer in = ByteBuffer.wrap(bytes("3\r\nabc\r\n0\r\n\r\nNEXT"));
        ByteBuffer full = ByteBuffer.allocate(0);
        assertThat(decoder.decode(in, full)).isEqualTo(ParseStatus.NEED_MORE);
        assertThat(in.position()).as("the size line is read, the data waits").isEqualTo(3);
        ByteBuffer out = ByteBuffer.allocate(3);
        assertThat(decoder.decode(in, out)).as("framing after the data needs no room").isEqualTo(ParseStatus.COMPLETE);
        assertThat(out.array()).isEqualTo(bytes("abc"));
        assertThat(in.remaining()).isEqualTo(4);
    }

    @Test
    void resetAllowsReuse() {
        ChunkedDecoder decoder = new ChunkedDecoder(HttpLimits.DEFAULT);
        Decoded first = decode(decoder, List.of(bytes("3\r\nabc\r\n0\r\nX-T: 1\r\n\r\n")), 16);
        assertThat(first.status()).isEqualTo(ParseStatus.COMPLETE);
        assertThat(decoder.trailers().size()).isEqualTo(1);
        decoder.reset();
        Decoded broken = decode(decoder, List.of(bytes("3\r\nab")), 16);
        assertThat(broken.status()).isEqualTo(ParseStatus.NEED_MORE);
        decoder.reset();
        assertThat(decoder.bodyBytes()).isZero();
        Decoded failed = decode(decoder, List.of(bytes("zz\r\n")), 16);
        assertThat(failed.status()).isEqualTo(ParseStatus.ERROR);
        decoder.reset();
        assertThat(decoder.error()).isNull();
        Decoded second = decode(decoder, List.of(bytes("2\r\nde\r\n0\r\n\r\n")), 16);
        assertThat(second.status()).isEqualTo(ParseStatus.COMPLETE);
        assertThat(second.bodyText()).isEqualTo("de");
        assertThat(decoder.trailers().size()).isZero();
        assertThat(decoder.bodyBytes()).isEqualTo(2);
    }

    @Test
    void totalBodySizeIsCountedAcrossChunksNotPerChunk() {
        ChunkedDecoder decoder = new ChunkedDecoder(SMALL);
        assertThat(decode(decoder, List.of(bytes("5\r\nabcde\r\n5\r\nfghij\r\n0\r\n\r\n")), 4).status())
                .isEqualTo(ParseStatus.COMPLETE);
        decoder.reset();
        Decoded over = decode(decoder, List.of(bytes("5\r\nabcde\r\n5\r\nfghij\r\n1\r\nk\r\n0\r\n\r\n")), 4);
        assertThat(over.status()).isEqualTo(ParseStatus.ERROR);
        assertThat(over.decoder().error().status()).isEqualTo(413);
        assertThat(over.bodyText()).isEqualTo("abcdefghij");
    }

    @Test
    void roundTripsWhatChunkedEncoderWrites() {
        ByteSink sink = new ByteSink(16);
        StringBuilder expected = new StringBuilder();
        for (int size : new int[] {1, 15, 16, 255, 256, 4097}) {
            String data = "d".repeat(size - 1) + (char) ('a' + size % 26);
            expected.append(data);
            ChunkedEncoder.chunkHeader(size, sink);
            sink.writeLatin1(data);
            ChunkedEncoder.chunkEnd(sink);
        }
        ChunkedEncoder.lastChunk(sink);
        Decoded d = decode(new ChunkedDecoder(HttpLimits.DEFAULT), List.of(sink.toByteArray()), 100);
        assertThat(d.status()).isEqualTo(ParseStatus.COMPLETE);
        assertThat(d.bodyText()).isEqualTo(expected.toString());
        assertThat(d.consumed()).isEqualTo(sink.length());
    }
}
