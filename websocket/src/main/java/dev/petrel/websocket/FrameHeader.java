package dev.petrel.websocket;

import java.nio.ByteBuffer;

/**
 * The header of the frame being read (RFC 6455 section 5.2), gathered from pieces of any size:
 * two bytes, then the extended length (2 or 8 bytes) and the masking key (4) they announce. Its
 * fields are valid after {@link #read} answered true, until the next header starts.
 *
 * <p>It checks only what the bytes alone decide (a 64-bit length must have its top bit clear);
 * what the fields may be, given the connection's state, is the decoder's business.
 */
final class FrameHeader {
    private static final int LONGEST = 2 + 8 + 4;

    private final byte[] bytes = new byte[LONGEST];
    private int filled;
    /** How many bytes this header has: 2 until the second byte has told. */
    private int size = 2;

    boolean fin;
    boolean rsv1;
    boolean rsv2;
    boolean rsv3;
    int opcode;
    boolean masked;
    long length;
    /** The masking key, its first byte the most significant; 0 when not masked. */
    int maskKey;

    /**
     * Consumes header bytes from {@code in}, never past the header's end. Answers true once the
     * header is whole and its fields are set, false when {@code in} ran out first (every byte of it
     * consumed and kept).
     *
     * @throws WebSocketException 1002 for a 64-bit length with its most significant bit set
     */
    boolean read(ByteBuffer in) throws WebSocketException {
        while (true) {
            int n = Math.min(size - filled, in.remaining());
            in.get(bytes, filled, n);
            filled += n;
            if (filled < size) return false;
            if (filled == 2) {
                int lengthField = bytes[1] & 0x7F;
                size = 2 + (lengthField == 126 ? 2 : lengthField == 127 ? 8 : 0) + ((bytes[1] & 0x80) != 0 ? 4 : 0);
                if (size > 2) continue;
            }
            decode();
            filled = 0;
            size = 2;
            return true;
        }
    }

    /** Whether no byte of the next header has been read. */
    boolean atStart() {
        return filled == 0;
    }

    private void decode() throws WebSocketException {
        int first = bytes[0] & 0xFF;
        fin = (first & 0x80) != 0;
        rsv1 = (first & 0x40) != 0;
        rsv2 = (first & 0x20) != 0;
        rsv3 = (first & 0x10) != 0;
        opcode = first & 0x0F;
        masked = (bytes[1] & 0x80) != 0;
        int lengthField = bytes[1] & 0x7F;
        int at = 2;
        if (lengthField == 126) {
            length = ((bytes[2] & 0xFF) << 8) | (bytes[3] & 0xFF);
            at = 4;
        } else if (lengthField == 127) {
            long value = 0;
            for (int i = 2; i < 10; i++) value = (value << 8) | (bytes[i] & 0xFF);
            // section 5.2: "the most significant bit MUST be 0"
            if (value < 0) throw new WebSocketException(CloseCodes.PROTOCOL_ERROR, "64-bit payload length with the most significant bit set");
            length = value;
            at = 10;
        } else {
            length = lengthField;
        }
        // Lengths not in their shortest form (126 announcing less than 126, say) are accepted: the
        // RFC asks senders for the minimal form, but the length read is the same either way.
        maskKey = masked
                ? ((bytes[at] & 0xFF) << 24) | ((bytes[at + 1] & 0xFF) << 16) | ((bytes[at + 2] & 0xFF) << 8) | (bytes[at + 3] & 0xFF)
                : 0;
    }
}
