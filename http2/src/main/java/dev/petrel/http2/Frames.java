package dev.petrel.http2;

import java.nio.ByteBuffer;

/**
 * Constants of RFC 9113: frame types (section 6), flags, lengths and the client connection
 * preface (section 3.4).
 */
public final class Frames {
    /** DATA (section 6.1). */
    public static final int DATA = 0x0;
    /** HEADERS (section 6.2). */
    public static final int HEADERS = 0x1;
    /** PRIORITY (section 6.3), deprecated but still to be parsed. */
    public static final int PRIORITY = 0x2;
    /** RST_STREAM (section 6.4). */
    public static final int RST_STREAM = 0x3;
    /** SETTINGS (section 6.5). */
    public static final int SETTINGS = 0x4;
    /** PUSH_PROMISE (section 6.6). */
    public static final int PUSH_PROMISE = 0x5;
    /** PING (section 6.7). */
    public static final int PING = 0x6;
    /** GOAWAY (section 6.8). */
    public static final int GOAWAY = 0x7;
    /** WINDOW_UPDATE (section 6.9). */
    public static final int WINDOW_UPDATE = 0x8;
    /** CONTINUATION (section 6.10). */
    public static final int CONTINUATION = 0x9;

    /** END_STREAM, on DATA and HEADERS. */
    public static final int FLAG_END_STREAM = 0x1;
    /** ACK, on SETTINGS and PING (the same bit as END_STREAM). */
    public static final int FLAG_ACK = 0x1;
    /** END_HEADERS, on HEADERS, PUSH_PROMISE and CONTINUATION. */
    public static final int FLAG_END_HEADERS = 0x4;
    /** PADDED, on DATA, HEADERS and PUSH_PROMISE. */
    public static final int FLAG_PADDED = 0x8;
    /** PRIORITY, on HEADERS. */
    public static final int FLAG_PRIORITY = 0x20;

    /** The fixed frame header: 24-bit length, type, flags, 31-bit stream id (section 4.1). */
    public static final int HEADER_LENGTH = 9;
    /** The initial SETTINGS_MAX_FRAME_SIZE, and the least it may be (section 6.5.2). */
    public static final int DEFAULT_MAX_FRAME_SIZE = 16_384;
    /** The greatest SETTINGS_MAX_FRAME_SIZE, 2^24-1 (section 6.5.2). */
    public static final int MAX_MAX_FRAME_SIZE = 16_777_215;
    /** The initial flow-control window of a connection and of each stream (section 6.9.2). */
    public static final int DEFAULT_WINDOW = 65_535;
    /** The greatest flow-control window, 2^31-1 (section 6.9.1). */
    public static final int MAX_WINDOW = Integer.MAX_VALUE;

    private static final byte[] PREFACE = {
        'P', 'R', 'I', ' ', '*', ' ', 'H', 'T', 'T', 'P', '/', '2', '.', '0', '\r', '\n',
        '\r', '\n', 'S', 'M', '\r', '\n', '\r', '\n'
    };

    private Frames() {}

    /**
     * The 24 bytes a client sends first, {@code "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"}
     * (section 3.4). Returns a copy the caller may keep.
     */
    public static byte[] clientPreface() {
        return PREFACE.clone();
    }

    /**
     * How many leading bytes of {@code buf}, from its position to its limit, match the client
     * preface: 24 when it is all there, fewer when the buffer ends or a byte differs. The buffer's
     * position is not moved. On a plain port this tells a prior-knowledge HTTP/2 client (section
     * 3.3) from an HTTP/1.1 one: a result equal to {@code buf.remaining()} and below 24 means
     * "read more before deciding"; a result below both means HTTP/1.1.
     */
    public static int prefaceMatch(ByteBuffer buf) {
        int start = buf.position();
        int n = Math.min(buf.remaining(), PREFACE.length);
        for (int i = 0; i < n; i++) {
            if (buf.get(start + i) != PREFACE[i]) return i;
        }
        return n;
    }
}
