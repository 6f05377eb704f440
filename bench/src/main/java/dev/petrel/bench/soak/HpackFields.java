package dev.petrel.bench.soak;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The few HPACK field representations the h2 faults need (RFC 7541), encoded by hand: entries of
 * the static table, and literals without indexing, so that the server's dynamic table is never
 * touched and every block can be sent again as it is. No Huffman coding.
 */
final class HpackFields {
    /** Static table entry 2: {@code :method GET}, indexed (section 6.1: the high bit, then the index). */
    private static final int METHOD_GET = 0x82;
    /** Static table entry 6: {@code :scheme http}, indexed. */
    private static final int SCHEME_HTTP = 0x86;
    /** Static table entry 1, the name {@code :authority}, for a literal without indexing (section 6.2.2: a 4-bit index). */
    private static final int AUTHORITY_NAME = 0x01;
    /** Static table entry 4, the name {@code :path}, for a literal without indexing. */
    private static final int PATH_NAME = 0x04;
    /** A literal without indexing whose name follows as a string (index 0). */
    private static final int NEW_NAME = 0x00;

    private HpackFields() {}

    /** The header block of {@code GET path} to 127.0.0.1 over h2c. */
    static byte[] get(String path, int port) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(METHOD_GET);
        out.write(SCHEME_HTTP);
        out.write(PATH_NAME);
        string(out, path);
        out.write(AUTHORITY_NAME);
        string(out, FaultSockets.HOST + ":" + port);
        return out.toByteArray();
    }

    /** Appends {@code name: value} as a literal without indexing with a new name. */
    static void literal(ByteArrayOutputStream out, String name, String value) {
        out.write(NEW_NAME);
        string(out, name);
        string(out, value);
    }

    /** A string literal, not Huffman-coded: its length as a 7-bit-prefix integer, then its bytes (section 5.2). */
    private static void string(ByteArrayOutputStream out, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        integer(out, bytes.length, 7);
        out.writeBytes(bytes);
    }

    /** An integer with a {@code prefixBits}-bit prefix (section 5.1), the first byte's other bits zero. */
    private static void integer(ByteArrayOutputStream out, int value, int prefixBits) {
        int max = (1 << prefixBits) - 1;
        if (value < max) {
            out.write(value);
            return;
        }
        out.write(max);
        for (value -= max; value >= 0x80; value >>>= 7) out.write(value & 0x7F | 0x80);
        out.write(value);
    }
}
