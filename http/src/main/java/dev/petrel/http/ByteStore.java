package dev.petrel.http;

import java.util.Arrays;

/**
 * The bytes of one head (or trailer section), copied as the parser consumes them so that the
 * caller may reuse its read buffer. Grows on demand up to the parser's limits and is kept for
 * the next request, so a keep-alive connection stops allocating once it has seen its largest head.
 */
final class ByteStore {
    private byte[] bytes;
    private int length;

    ByteStore(int initialCapacity) {
        bytes = new byte[initialCapacity];
    }

    void append(byte b) {
        if (length == bytes.length) bytes = Arrays.copyOf(bytes, bytes.length * 2);
        bytes[length++] = b;
    }

    void append(byte[] src, int off, int len) {
        if (length + len > bytes.length) bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + len));
        System.arraycopy(src, off, bytes, length, len);
        length += len;
    }

    int length() {
        return length;
    }

    byte[] array() {
        return bytes;
    }

    void clear() {
        length = 0;
    }
}
