package dev.petrel.http2;

import dev.petrel.http.ByteSink;
import java.nio.ByteBuffer;

/**
 * The static Huffman code of RFC 7541 Appendix B, for string literals (section 5.2).
 *
 * <p>The code is canonical: within one length, codes run up in symbol order, and the first code
 * of each length follows the last code of the length before, shifted left. So the table below
 * holds only each symbol's length, taken from Appendix B, and the codes are derived from it.
 *
 * <p>Decoding walks the code tree four bits at a time through a precomputed table: from each of
 * the tree's 256 inner nodes and each nibble, the node reached and the symbol completed on the
 * way, if any (codes are at least five bits long, so a nibble completes at most one).
 */
final class Huffman {
    /** The symbol that ends a code stream; it must never appear in a string (RFC 7541 section 5.2). */
    static final int EOS = 256;

    /** Code length in bits of each symbol 0..255 and EOS, as listed in RFC 7541 Appendix B. */
    private static final byte[] LENGTHS = {
        13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28, //   0..15
        28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28, //  16..31
        6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6, //          ' '..'/'
        5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10, //               '0'..'?'
        13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, //                 '@'..'O'
        7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6, //              'P'..'_'
        15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5, //                 '`'..'o'
        6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28, //             'p'..127
        20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23, // 128..143
        24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24, // 144..159
        22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23, // 160..175
        21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23, // 176..191
        26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25, // 192..207
        19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27, // 208..223
        20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23, // 224..239
        26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26, // 240..255
        30, //                                                             EOS
    };

    private static final int[] CODES = new int[257];

    /** Inner nodes of the code tree; the root is node 0. */
    private static final int NODES = 256;

    /** Per node and nibble: the node reached (bits 0-7), a symbol completed (bit 8, symbol in bits 9-16), EOS reached (bit 17). */
    private static final int[] STEPS = new int[NODES * 16];

    private static final int EMITS = 1 << 8;
    private static final int HITS_EOS = 1 << 17;

    /** Depth of each inner node, and whether the path to it is all ones: where a string may end (section 5.2 padding). */
    private static final byte[] DEPTH = new byte[NODES];
    private static final boolean[] ALL_ONES = new boolean[NODES];

    static {
        int code = 0;
        for (int length = 1; length <= 30; length++) {
            for (int symbol = 0; symbol <= EOS; symbol++) {
                if (LENGTHS[symbol] == length) CODES[symbol] = code++;
            }
            code <<= 1;
        }
        // The tree: child[2 * node + bit] is an inner node (> 0) or ~symbol for a leaf (< 0).
        int[] child = new int[NODES * 2];
        ALL_ONES[0] = true;
        int nextNode = 1;
        for (int symbol = 0; symbol <= EOS; symbol++) {
            int node = 0;
            for (int i = LENGTHS[symbol] - 1; i > 0; i--) {
                int bit = (CODES[symbol] >>> i) & 1;
                int next = child[2 * node + bit];
                if (next == 0) {
                    next = nextNode++;
                    child[2 * node + bit] = next;
                    DEPTH[next] = (byte) (DEPTH[node] + 1);
                    ALL_ONES[next] = ALL_ONES[node] && bit == 1;
                }
                node = next;
            }
            child[2 * node + (CODES[symbol] & 1)] = ~symbol;
        }
        for (int node = 0; node < NODES; node++) {
            for (int nibble = 0; nibble < 16; nibble++) {
                int at = node;
                int step = 0;
                for (int i = 3; i >= 0; i--) {
                    int next = child[2 * at + ((nibble >>> i) & 1)];
                    if (next >= 0) {
                        at = next;
                    } else if (~next == EOS) {
                        step |= HITS_EOS;
                        break;
                    } else {
                        step |= EMITS | (~next << 9);
                        at = 0;
                    }
                }
                STEPS[node * 16 + nibble] = step | at;
            }
        }
    }

    private Huffman() {}

    /** The code of {@code symbol}, right-aligned (for tests). */
    static int code(int symbol) {
        return CODES[symbol];
    }

    /** The code length of {@code symbol} in bits (for tests). */
    static int codeLength(int symbol) {
        return LENGTHS[symbol];
    }

    /** The number of bytes {@code len} bytes of {@code src} take Huffman-encoded, padding included. */
    static long encodedLength(byte[] src, int off, int len) {
        long bits = 0;
        for (int i = off; i < off + len; i++) bits += LENGTHS[src[i] & 0xFF];
        return (bits + 7) >>> 3;
    }

    /** Appends the Huffman encoding of {@code len} bytes of {@code src}, padded with ones to a byte boundary. */
    static void encode(ByteSink out, byte[] src, int off, int len) {
        long pending = 0; // bits not yet written, right-aligned; never more than 7 + 30
        int count = 0;
        for (int i = off; i < off + len; i++) {
            int symbol = src[i] & 0xFF;
            pending = (pending << LENGTHS[symbol]) | CODES[symbol];
            count += LENGTHS[symbol];
            while (count >= 8) {
                count -= 8;
                out.write((int) (pending >>> count));
            }
        }
        if (count > 0) {
            // the most significant bits of EOS, which are all ones (section 5.2)
            out.write((int) ((pending << (8 - count)) | (0xFF >>> count)));
        }
    }

    /** The most bytes {@code encodedLength} Huffman-encoded bytes can decode to (5 bits per byte at best). */
    static int maxDecodedLength(int encodedLength) {
        return (int) (((long) encodedLength * 8) / 5);
    }

    /**
     * Decodes {@code len} Huffman-encoded bytes from {@code in}'s position into {@code dst}, which
     * has room for {@link #maxDecodedLength(int)} bytes, and returns the decoded length. Refuses
     * what section 5.2 makes a decoding error: EOS inside the string, and padding that is longer
     * than 7 bits or not the most significant bits of EOS (all ones).
     */
    static int decode(ByteBuffer in, int len, byte[] dst) throws HpackException {
        int node = 0;
        int n = 0;
        for (int i = 0; i < len; i++) {
            int b = in.get() & 0xFF;
            int step = STEPS[node * 16 + (b >>> 4)];
            if ((step & HITS_EOS) != 0) throw new HpackException("HPACK Huffman string contains EOS");
            if ((step & EMITS) != 0) dst[n++] = (byte) (step >>> 9);
            node = step & 0xFF;
            step = STEPS[node * 16 + (b & 0xF)];
            if ((step & HITS_EOS) != 0) throw new HpackException("HPACK Huffman string contains EOS");
            if ((step & EMITS) != 0) dst[n++] = (byte) (step >>> 9);
            node = step & 0xFF;
        }
        if (!ALL_ONES[node]) throw new HpackException("HPACK Huffman padding not all ones");
        if (DEPTH[node] > 7) throw new HpackException("HPACK Huffman padding longer than 7 bits");
        return n;
    }
}
