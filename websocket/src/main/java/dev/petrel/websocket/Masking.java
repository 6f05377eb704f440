package dev.petrel.websocket;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The payload masking of RFC 6455 section 5.3: byte {@code i} of a payload is XORed with byte
 * {@code i mod 4} of the 4-byte masking key. Masking and unmasking are the same operation.
 *
 * <p>The key is held as an int whose most significant byte is the key's first (the order of the
 * wire). A payload that arrives in pieces is unmasked piece by piece with a running key index,
 * the position in the key of the piece's first byte. Eight bytes are XORed at a time with the key
 * repeated twice, rotated to the index: the only per-byte work on the plain path of the codec.
 */
final class Masking {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final boolean BIG_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN;

    private Masking() {}

    /**
     * XORs {@code length} bytes of {@code bytes} from {@code offset} in place with the key, the
     * first of them with key byte {@code keyIndex} (0 to 3); returns the key index of the byte
     * after them.
     */
    static int apply(byte[] bytes, int offset, int length, int key, int keyIndex) {
        int rotated = Integer.rotateLeft(key, 8 * keyIndex); // the key as it lines up from offset on
        int i = offset;
        int end = offset + length;
        if (length >= Long.BYTES) {
            long wire = ((rotated & 0xFFFF_FFFFL) << 32) | (rotated & 0xFFFF_FFFFL);
            long mask = BIG_ENDIAN ? wire : Long.reverseBytes(wire);
            for (; end - i >= Long.BYTES; i += Long.BYTES) {
                LONG.set(bytes, i, (long) LONG.get(bytes, i) ^ mask);
            }
        }
        // What is left starts at a multiple of 8 (so of 4) from offset: the rotated key lines up.
        for (int k = 0; i < end; i++, k++) {
            bytes[i] ^= (byte) (rotated >>> (24 - 8 * (k & 3)));
        }
        return (keyIndex + length) & 3;
    }
}
