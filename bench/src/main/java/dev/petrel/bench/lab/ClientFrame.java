package dev.petrel.bench.lab;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.random.RandomGenerator;

/**
 * A WebSocket frame as a client sends it (RFC 6455 section 5.2): FIN set, one opcode, the payload
 * masked with a 4-byte key. The lab's WebSocket clients build their frames once, before they
 * measure, and send the same bytes again: the server unmasks every frame whatever its key, and the
 * client spends no time masking while it measures. Each frame's key is drawn at random when it is
 * built (RFC 6455 section 5.3 asks for unpredictable keys; several frames with keys of their own
 * are cycled through by the load tool).
 */
final class ClientFrame {
    /** Opcode of a text frame. */
    static final int TEXT = 0x1;
    /** Opcode of a binary frame. */
    static final int BINARY = 0x2;
    /** Opcode of a close frame. */
    static final int CLOSE = 0x8;
    /** Opcode of a ping frame. */
    static final int PING = 0x9;
    /** Opcode of a pong frame. */
    static final int PONG = 0xA;

    private ClientFrame() {}

    /** One whole, masked frame of {@code opcode} carrying {@code payload}, its key from {@code random}. */
    static byte[] masked(int opcode, byte[] payload, RandomGenerator random) {
        byte[] key = new byte[4];
        random.nextBytes(key);
        return masked(opcode, payload, key);
    }

    /** One whole frame of {@code opcode} carrying {@code payload} masked with {@code key} (4 bytes). */
    static byte[] masked(int opcode, byte[] payload, byte[] key) {
        if (key.length != 4) throw new IllegalArgumentException("a masking key has 4 bytes, not " + key.length);
        int length = payload.length;
        int lengthBytes = length < 126 ? 0 : length <= 0xFFFF ? 2 : 8;
        ByteBuffer frame = ByteBuffer.allocate(2 + lengthBytes + 4 + length);
        frame.put((byte) (0x80 | opcode));
        if (lengthBytes == 0) {
            frame.put((byte) (0x80 | length));
        } else if (lengthBytes == 2) {
            frame.put((byte) (0x80 | 126)).putShort((short) length);
        } else {
            frame.put((byte) (0x80 | 127)).putLong(length);
        }
        frame.put(key);
        for (int i = 0; i < length; i++) frame.put((byte) (payload[i] ^ key[i & 3]));
        return frame.array();
    }

    /** A text frame of {@code text} in UTF-8. */
    static byte[] text(String text, RandomGenerator random) {
        return masked(TEXT, text.getBytes(StandardCharsets.UTF_8), random);
    }

    /** A close frame with status {@code code} and no reason. */
    static byte[] close(int code, RandomGenerator random) {
        return masked(CLOSE, new byte[] {(byte) (code >> 8), (byte) code}, random);
    }
}
