package dev.petrel.bench.soak;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The little of RFC 6455 a vanishing WebSocket client needs: the key of its upgrade request and
 * the accept value the server must answer with (section 4.2.2), and a short masked text frame
 * (section 5.2: every client frame is masked).
 */
final class WebSocketFrames {
    private static final String ACCEPT_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    private static final int FIN_TEXT = 0x81;
    private static final int MASKED = 0x80;
    /** The longest payload whose length fits in the second byte. */
    static final int MAX_SHORT_PAYLOAD = 125;

    private WebSocketFrames() {}

    /** The {@code Sec-WebSocket-Key} of 16 key bytes. */
    static String key(byte[] sixteenBytes) {
        return Base64.getEncoder().encodeToString(sixteenBytes);
    }

    /** The {@code Sec-WebSocket-Accept} a server must answer {@code key} with. */
    static String accept(String key) {
        try {
            byte[] sha1 = MessageDigest.getInstance("SHA-1").digest((key + ACCEPT_GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(sha1);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
    }

    /** A final text frame of {@code text} (at most {@value #MAX_SHORT_PAYLOAD} bytes of UTF-8), masked with {@code mask} (4 bytes). */
    static byte[] maskedText(String text, byte[] mask) {
        byte[] payload = text.getBytes(StandardCharsets.UTF_8);
        if (payload.length > MAX_SHORT_PAYLOAD) throw new IllegalArgumentException("a short text only: " + payload.length + " bytes");
        byte[] frame = new byte[2 + 4 + payload.length];
        frame[0] = (byte) FIN_TEXT;
        frame[1] = (byte) (MASKED | payload.length);
        System.arraycopy(mask, 0, frame, 2, 4);
        for (int i = 0; i < payload.length; i++) frame[6 + i] = (byte) (payload[i] ^ mask[i & 3]);
        return frame;
    }

    /** The unmasked frame a server echoes {@code text} in. */
    static byte[] serverText(String text) {
        byte[] payload = text.getBytes(StandardCharsets.UTF_8);
        byte[] frame = new byte[2 + payload.length];
        frame[0] = (byte) FIN_TEXT;
        frame[1] = (byte) payload.length;
        System.arraycopy(payload, 0, frame, 2, payload.length);
        return frame;
    }
}
