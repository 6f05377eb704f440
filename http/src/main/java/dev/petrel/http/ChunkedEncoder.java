package dev.petrel.http;

/** Frames response body pieces as chunks (RFC 9112 section 7.1). */
public final class ChunkedEncoder {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] LAST_CHUNK = {'0', '\r', '\n', '\r', '\n'};

    private ChunkedEncoder() {}

    /** Writes the size line of a chunk of {@code length} bytes (which must not be 0: that is the last chunk). */
    public static void chunkHeader(int length, ByteSink out) {
        if (length <= 0) throw new IllegalArgumentException("a data chunk has at least one byte");
        out.writeHex(length).write(CRLF);
    }

    /** Writes the CRLF that follows chunk data. */
    public static void chunkEnd(ByteSink out) {
        out.write(CRLF);
    }

    /**
     * Writes the size line of the last chunk alone: its trailer fields follow
     * ({@link ResponseHeadEncoder#field(String, String, ByteSink)}), then the CRLF that ends them
     * ({@link ResponseHeadEncoder#end(ByteSink)}).
     */
    public static void lastChunkLine(ByteSink out) {
        out.write((byte) '0').write(CRLF);
    }

    /** Writes the last chunk with an empty trailer section. */
    public static void lastChunk(ByteSink out) {
        out.write(LAST_CHUNK);
    }
}
