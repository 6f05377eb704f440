package dev.petrel.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Feeds a request head to {@link RequestParser} the way a transport would: whole, split in two at
 * every byte boundary, and one byte at a time, through one read buffer that is compacted and
 * reused between reads (with its free space scribbled over, so a parser that kept a reference to
 * consumed bytes instead of copying them would be caught). Every way of feeding must give the
 * same outcome.
 *
 * <p>Request text is turned into bytes as ISO-8859-1, so {@code "\u00e9"} in a test is the single
 * obs-text byte 0xE9.
 */
final class SplitParsing {
    /** Bytes placed after a complete head; the parser must leave them in place. */
    static final byte[] FOLLOWING = bytes("NEXT");

    private static final byte SCRIBBLE = (byte) 0xA5;

    private SplitParsing() {}

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** What one way of feeding produced. */
    record Fed(ParseStatus status, int consumed, byte[] leftover, RequestParser parser) {
        /** The buffer position after the last call, as an offset into the whole input. */
        int position() {
            return consumed;
        }
    }

    static void assertParsesInAllSplits(String rawRequest, Consumer<RequestHead> expectations) {
        assertParsesInAllSplits(HttpLimits.DEFAULT, rawRequest, expectations);
    }

    /**
     * Asserts that {@code rawRequest}, a complete head and nothing more, parses to COMPLETE however
     * it is split, that {@code expectations} hold for the head every time, and that the buffer is
     * left positioned exactly after the head, with the bytes that follow untouched.
     */
    static void assertParsesInAllSplits(HttpLimits limits, String rawRequest, Consumer<RequestHead> expectations) {
        byte[] head = bytes(rawRequest);
        byte[] input = concat(head, FOLLOWING);
        for (List<byte[]> pieces : feedings(input, head.length)) {
            String how = describe(pieces);
            Fed fed = feed(new RequestParser(limits), pieces);
            assertThat(fed.status())
                    .as("%s: status (error %s)", how, fed.parser().error())
                    .isEqualTo(ParseStatus.COMPLETE);
            assertComplete(fed, head.length, how, expectations);
        }
        // Also from a direct buffer whose content does not start at index 0.
        ByteBuffer direct = ByteBuffer.allocateDirect(input.length + 3);
        direct.put(bytes("xyz")).put(input).flip().position(3);
        RequestParser parser = new RequestParser(limits);
        assertThat(parser.parse(direct)).as("direct buffer").isEqualTo(ParseStatus.COMPLETE);
        assertThat(direct.position()).as("direct buffer: position").isEqualTo(3 + head.length);
        expectations.accept(parser.head());
    }

    private static void assertComplete(Fed fed, int headLength, String how, Consumer<RequestHead> expectations) {
        assertThat(fed.consumed()).as("%s: position after the head", how).isEqualTo(headLength);
        assertThat(fed.leftover()).as("%s: bytes after the head", how).isEqualTo(FOLLOWING);
        RequestParser parser = fed.parser();
        assertThat(parser.started()).as("%s: started", how).isTrue();
        assertThat(parser.error()).as("%s: error", how).isNull();
        RequestHead head = parser.head();
        try {
            expectations.accept(head);
        } catch (AssertionError e) {
            throw new AssertionError(how + ": " + e.getMessage(), e);
        }
        // A complete parser stays complete and consumes nothing more.
        ByteBuffer more = ByteBuffer.wrap(bytes("GET / HTTP/1.1\r\n"));
        assertThat(parser.parse(more)).as("%s: parse after COMPLETE", how).isEqualTo(ParseStatus.COMPLETE);
        assertThat(more.position()).as("%s: bytes consumed after COMPLETE", how).isZero();
    }

    static void assertRejectedInAllSplits(String raw, int status) {
        assertRejectedInAllSplits(HttpLimits.DEFAULT, raw, status);
    }

    /**
     * Asserts that {@code raw} is rejected with {@code status} however it is split, and that the
     * parser stops at the same byte each time.
     */
    static void assertRejectedInAllSplits(HttpLimits limits, String raw, int status) {
        byte[] input = bytes(raw);
        Integer stoppedAt = null;
        for (List<byte[]> pieces : feedings(input, input.length - 1)) {
            String how = describe(pieces);
            Fed fed = feed(new RequestParser(limits), pieces);
            RequestParser parser = fed.parser();
            assertThat(fed.status()).as("%s: status", how).isEqualTo(ParseStatus.ERROR);
            assertThat(parser.error()).as("%s: error", how).isNotNull();
            assertThat(parser.error().status())
                    .as("%s: error status (%s)", how, parser.error().reason())
                    .isEqualTo(status);
            assertThat(parser.error().reason()).isNotBlank();
            assertThat(fed.consumed()).as("%s: position", how).isBetween(1, input.length);
            if (stoppedAt == null) stoppedAt = fed.consumed();
            assertThat(fed.consumed()).as("%s: stopped at the same byte as when fed whole", how).isEqualTo(stoppedAt);
            // A failed parser stays failed.
            ByteBuffer more = ByteBuffer.wrap(bytes("GET / HTTP/1.1\r\n"));
            assertThat(parser.parse(more)).as("%s: parse after ERROR", how).isEqualTo(ParseStatus.ERROR);
            assertThat(more.position()).isZero();
            assertThat(parser.error().status()).isEqualTo(status);
        }
    }

    /** Whole, then split in two at each of 1..maxSplit, then one byte at a time. */
    static List<List<byte[]>> feedings(byte[] input, int maxSplit) {
        List<List<byte[]>> all = new ArrayList<>();
        all.add(List.of(input));
        for (int i = 1; i <= maxSplit && i < input.length; i++) {
            all.add(List.of(Arrays.copyOfRange(input, 0, i), Arrays.copyOfRange(input, i, input.length)));
        }
        all.add(oneByteEach(input));
        return all;
    }

    /** {@code input} as one piece per byte. */
    static List<byte[]> oneByteEach(byte[] input) {
        List<byte[]> singles = new ArrayList<>(input.length);
        for (byte b : input) singles.add(new byte[] {b});
        return singles;
    }

    /**
     * {@code input} cut at each of {@code at} (offsets from 0 to {@code input.length}, in any
     * order, repeats allowed): {@code at.length + 1} pieces, some perhaps empty.
     */
    static List<byte[]> cut(byte[] input, int... at) {
        int[] cuts = at.clone();
        Arrays.sort(cuts);
        List<byte[]> pieces = new ArrayList<>(cuts.length + 1);
        int from = 0;
        for (int to : cuts) {
            pieces.add(Arrays.copyOfRange(input, from, to));
            from = to;
        }
        pieces.add(Arrays.copyOfRange(input, from, input.length));
        return pieces;
    }

    /**
     * Feeds {@code pieces} in order through one reused read buffer: each piece is appended after
     * any unconsumed bytes, the buffer is flipped, parsed, compacted and its free space scribbled
     * over. Stops at the first result other than NEED_MORE; the bytes still unread (in the buffer
     * and in pieces not yet fed) are the leftover.
     */
    static Fed feed(RequestParser parser, List<byte[]> pieces) {
        int total = 0;
        for (byte[] piece : pieces) total += piece.length;
        ByteBuffer buffer = ByteBuffer.allocate(total + 8);
        scribble(buffer);
        ParseStatus status = ParseStatus.NEED_MORE;
        int consumed = 0;
        int next = 0;
        while (next < pieces.size()) {
            buffer.put(pieces.get(next++));
            buffer.flip();
            int before = buffer.position();
            status = parser.parse(buffer);
            assertThat(buffer.position()).as("position within the buffer").isBetween(before, buffer.limit());
            consumed += buffer.position() - before;
            if (status != ParseStatus.NEED_MORE) break;
            assertThat(buffer.hasRemaining()).as("NEED_MORE consumes every byte given").isFalse();
            buffer.compact();
            scribble(buffer);
        }
        if (status == ParseStatus.NEED_MORE) buffer.flip(); // nothing remains in it
        ByteArrayOutputStream leftover = new ByteArrayOutputStream();
        while (buffer.hasRemaining()) leftover.write(buffer.get());
        while (next < pieces.size()) leftover.writeBytes(pieces.get(next++));
        return new Fed(status, consumed, leftover.toByteArray(), parser);
    }

    /** Overwrites the free part of a buffer in write mode, leaving its position alone. */
    static void scribble(ByteBuffer buffer) {
        for (int i = buffer.position(); i < buffer.limit(); i++) buffer.put(i, SCRIBBLE);
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    private static String describe(List<byte[]> pieces) {
        if (pieces.size() == 1) return "whole";
        if (pieces.size() == 2) return "split at " + pieces.get(0).length;
        return "byte by byte";
    }
}
