package dev.petrel.ajp;

/**
 * Reads AJP's data types from one packet's payload: bytes, booleans, two-byte integers and
 * strings (a two-byte length, the bytes, a NUL; length {@code 0xFFFF} for none). Reading past the
 * payload is reported, never thrown past the parser.
 */
final class PayloadReader {
    /** The length AJP writes for an absent string. */
    static final int NO_STRING = 0xFFFF;

    private byte[] bytes;
    private int pos;
    private int end;
    private boolean overrun;

    void reset(byte[] bytes, int offset, int length) {
        this.bytes = bytes;
        this.pos = offset;
        this.end = offset + length;
        this.overrun = false;
    }

    byte[] bytes() {
        return bytes;
    }

    int position() {
        return pos;
    }

    boolean hasRemaining() {
        return pos < end;
    }

    /** Whether a read went past the payload: the packet was cut short. */
    boolean overrun() {
        return overrun;
    }

    int readByte() {
        if (pos >= end) {
            overrun = true;
            return 0xFF; // reads as "are done" so loops over attributes stop
        }
        return bytes[pos++] & 0xFF;
    }

    int peekByte() {
        return pos < end ? bytes[pos] & 0xFF : -1;
    }

    int readInt() {
        int high = readByte();
        int low = readByte();
        return overrun ? 0 : (high << 8) | low;
    }

    /**
     * Reads a string's length and skips over its bytes and NUL; returns the length, or -1 for an
     * absent string. The bytes lie at {@code position() - length - 1}.
     */
    int skipString() {
        int length = readInt();
        if (overrun) return -1;
        if (length == NO_STRING) return -1;
        if (pos + length + 1 > end) {
            overrun = true;
            pos = end;
            return -1;
        }
        pos += length + 1; // the NUL is not checked: some front ends have sent other bytes there
        return length;
    }

    /** Reads a string as ISO-8859-1, or {@code null} when absent. */
    String readString() {
        int length = skipString();
        if (length < 0) return null;
        return new String(bytes, pos - length - 1, length, java.nio.charset.StandardCharsets.ISO_8859_1);
    }
}
