package dev.petrel.http2;

import dev.petrel.http.ByteSink;
import java.nio.ByteBuffer;

/**
 * Prefix integers (RFC 7541 section 5.1): a value that fits the low {@code prefixBits} bits of the
 * first byte stays there; a larger one fills the prefix with ones and goes on in 7-bit groups,
 * least significant first, the high bit saying another byte follows.
 */
final class HpackInteger {
    /**
     * Continuation bytes allowed after a full prefix. Five groups of 7 bits hold any value up to
     * 2^31-1; a peer sending more (zero groups that add nothing, say) is refused rather than read
     * for as long as it cares to send them.
     */
    static final int MAX_CONTINUATION_BYTES = 5;

    private HpackInteger() {}

    /**
     * Decodes an integer whose first byte has already been read: {@code prefixValue} is that byte
     * with the representation's flag bits masked off. Reads the continuation bytes from {@code in}.
     */
    static int decode(ByteBuffer in, int prefixValue, int prefixBits) throws HpackException {
        int max = (1 << prefixBits) - 1;
        if (prefixValue < max) return prefixValue;
        long value = max;
        for (int i = 0; i < MAX_CONTINUATION_BYTES; i++) {
            if (!in.hasRemaining()) throw new HpackException("HPACK integer truncated");
            int b = in.get() & 0xFF;
            value += (long) (b & 0x7F) << (7 * i);
            if (value > Integer.MAX_VALUE) throw new HpackException("HPACK integer too large");
            if ((b & 0x80) == 0) return (int) value;
        }
        throw new HpackException("HPACK integer too large");
    }

    /**
     * Writes {@code value} (non-negative) with a {@code prefixBits}-bit prefix, {@code flags} being
     * the representation's bits above the prefix in the first byte.
     */
    static void encode(ByteSink out, int flags, int prefixBits, int value) {
        if (value < 0) throw new IllegalArgumentException("negative");
        int max = (1 << prefixBits) - 1;
        if (value < max) {
            out.write(flags | value);
            return;
        }
        out.write(flags | max);
        value -= max;
        while (value >= 0x80) {
            out.write((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        out.write(value);
    }
}
