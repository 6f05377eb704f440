package dev.petrel.server.tls;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * The little DER (X.690) needed to turn PKCS#1 and SEC1 private keys into PKCS#8: read a
 * tag-length-value, write one. Definite lengths only, which is all DER allows; tags are single
 * bytes, which covers every structure read here.
 */
final class Der {
    static final int INTEGER = 0x02;
    static final int OCTET_STRING = 0x04;
    static final int NULL = 0x05;
    static final int OID = 0x06;
    static final int SEQUENCE = 0x30;
    /** {@code [0]} constructed, explicit: SEC1's optional curve parameters. */
    static final int CONTEXT_0 = 0xA0;

    private Der() {}

    /** One value read from DER: its tag and its content bytes. */
    record Value(int tag, byte[] content) {}

    /** Reads the values of a sequence one after the other. */
    static final class Reader {
        private final byte[] bytes;
        private int pos;
        private final int end;

        Reader(byte[] bytes) {
            this(bytes, 0, bytes.length);
        }

        private Reader(byte[] bytes, int start, int end) {
            this.bytes = bytes;
            this.pos = start;
            this.end = end;
        }

        boolean hasMore() {
            return pos < end;
        }

        Value next() {
            if (end - pos < 2) throw new IllegalArgumentException("truncated DER value");
            int tag = bytes[pos++] & 0xFF;
            int length = bytes[pos++] & 0xFF;
            if (length >= 0x80) {
                int lengthBytes = length & 0x7F;
                // four bytes would already allow 2 GiB; a key never needs more than two
                if (lengthBytes == 0 || lengthBytes > 3 || end - pos < lengthBytes) {
                    throw new IllegalArgumentException("bad DER length");
                }
                length = 0;
                for (int i = 0; i < lengthBytes; i++) length = (length << 8) | (bytes[pos++] & 0xFF);
            }
            if (length > end - pos) throw new IllegalArgumentException("truncated DER value");
            byte[] content = Arrays.copyOfRange(bytes, pos, pos + length);
            pos += length;
            return new Value(tag, content);
        }

        /** Reads the next value, which must have {@code tag}. */
        byte[] next(int tag) {
            Value value = next();
            if (value.tag() != tag) {
                throw new IllegalArgumentException("expected DER tag 0x" + Integer.toHexString(tag)
                        + ", found 0x" + Integer.toHexString(value.tag()));
            }
            return value.content();
        }
    }

    /** A reader over {@code content}, the content bytes of a sequence already read. */
    static Reader sequenceOf(byte[] content) {
        return new Reader(content);
    }

    /** A reader over the content of the sequence that {@code bytes} must be. */
    static Reader sequence(byte[] bytes) {
        Reader outer = new Reader(bytes);
        byte[] content = outer.next(SEQUENCE);
        return new Reader(content);
    }

    /** Encodes one tag-length-value. */
    static byte[] encode(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
        out.write(tag);
        int length = content.length;
        if (length < 0x80) {
            out.write(length);
        } else if (length <= 0xFF) {
            out.write(0x81);
            out.write(length);
        } else if (length <= 0xFFFF) {
            out.write(0x82);
            out.write(length >>> 8);
            out.write(length);
        } else {
            out.write(0x83);
            out.write(length >>> 16);
            out.write(length >>> 8);
            out.write(length);
        }
        out.writeBytes(content);
        return out.toByteArray();
    }

    /** Encodes a sequence of already encoded values. */
    static byte[] sequence(byte[]... encodedValues) {
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        for (byte[] value : encodedValues) content.writeBytes(value);
        return encode(SEQUENCE, content.toByteArray());
    }
}
