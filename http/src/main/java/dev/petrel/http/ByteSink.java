package dev.petrel.http;

import java.util.Arrays;

/**
 * A growable byte array that response heads and small bodies are encoded into, so that a whole
 * response can leave in one write. One owner; reuse it with {@link #clear()}.
 */
public final class ByteSink {
    private byte[] bytes;
    private int length;

    /** An empty sink with room for {@code capacity} bytes before it grows. */
    public ByteSink(int capacity) {
        bytes = new byte[capacity];
    }

    /** Appends one byte. */
    public ByteSink write(int b) {
        ensure(1);
        bytes[length++] = (byte) b;
        return this;
    }

    /** Appends {@code len} bytes of {@code src} from {@code off}. */
    public ByteSink write(byte[] src, int off, int len) {
        ensure(len);
        System.arraycopy(src, off, bytes, length, len);
        length += len;
        return this;
    }

    /** Appends all of {@code src}. */
    public ByteSink write(byte[] src) {
        return write(src, 0, src.length);
    }

    /** Appends {@code s}, each char as one byte; callers pass only validated ASCII or Latin-1 text. */
    public ByteSink writeLatin1(String s) {
        int n = s.length();
        ensure(n);
        for (int i = 0; i < n; i++) bytes[length++] = (byte) s.charAt(i);
        return this;
    }

    /** Appends the decimal digits of a non-negative {@code value}. */
    public ByteSink writeDecimal(long value) {
        if (value < 0) throw new IllegalArgumentException("negative: " + value);
        int digits = 1;
        for (long v = value; v >= 10; v /= 10) digits++;
        ensure(digits);
        int end = length + digits;
        for (int i = end - 1; i >= length; i--) {
            bytes[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        length = end;
        return this;
    }

    /** Appends the lower-case hex digits of a non-negative {@code value}. */
    public ByteSink writeHex(long value) {
        if (value < 0) throw new IllegalArgumentException("negative: " + value);
        int digits = value == 0 ? 1 : (64 - Long.numberOfLeadingZeros(value) + 3) / 4;
        ensure(digits);
        int end = length + digits;
        for (int i = end - 1; i >= length; i--) {
            bytes[i] = (byte) "0123456789abcdef".charAt((int) (value & 0xF));
            value >>>= 4;
        }
        length = end;
        return this;
    }

    /** The backing array; bytes {@code [0, length())} are the content. */
    public byte[] array() {
        return bytes;
    }

    /** The number of bytes written. */
    public int length() {
        return length;
    }

    /** Forgets the content, keeping the storage. */
    public void clear() {
        length = 0;
    }

    /** A copy of the content. */
    public byte[] toByteArray() {
        return Arrays.copyOf(bytes, length);
    }

    private void ensure(int more) {
        if (length + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
        }
    }
}
