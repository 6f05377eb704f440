package dev.petrel.websocket;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;

/**
 * The pure parts of the opening handshake (RFC 6455 section 4): the key a client sends and the
 * accept value a server answers with, and the choice of a subprotocol. Reading the request and
 * writing the 101 response are the server's business.
 */
public final class Handshake {
    /** The {@code Sec-WebSocket-Version} this codec speaks, and the only one RFC 6455 defines. */
    public static final String VERSION = "13";

    /** Appended to the key before hashing (section 1.3). */
    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    private static final int KEY_BYTES = 16;

    private Handshake() {}

    /**
     * The {@code Sec-WebSocket-Accept} value answering {@code secWebSocketKey}: base64 of the
     * SHA-1 of the key (as sent, base64 text) followed by the protocol's GUID (section 4.2.2).
     */
    public static String acceptKey(String secWebSocketKey) {
        MessageDigest sha1;
        try {
            sha1 = MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
        byte[] digest = sha1.digest((secWebSocketKey + GUID).getBytes(StandardCharsets.ISO_8859_1));
        return Base64.getEncoder().encodeToString(digest);
    }

    /**
     * Whether {@code secWebSocketKey} is what section 4.1 requires: the base64 encoding (with
     * padding, 24 characters) of exactly 16 bytes.
     */
    public static boolean validKey(String secWebSocketKey) {
        if (secWebSocketKey == null || secWebSocketKey.length() != 24) return false;
        try {
            return Base64.getDecoder().decode(secWebSocketKey).length == KEY_BYTES;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** A new {@code Sec-WebSocket-Key} for a client: 16 random bytes in base64 (section 4.1). */
    public static String newKey() {
        byte[] nonce = new byte[KEY_BYTES];
        new SecureRandom().nextBytes(nonce);
        return Base64.getEncoder().encodeToString(nonce);
    }

    /**
     * The subprotocol to answer with: the first of the server's {@code supported} ones, in its
     * order of preference, that the client offered in its {@code Sec-WebSocket-Protocol} values
     * (each a comma-separated list of tokens, section 4.1); null when none is, and then the
     * response names none (section 4.2.2). Names are matched exactly.
     *
     * @param offeredHeaderValues the request's header values in order; null or empty for none
     * @param supported the server's subprotocols, most preferred first
     */
    public static String chooseSubprotocol(List<String> offeredHeaderValues, List<String> supported) {
        if (offeredHeaderValues == null || offeredHeaderValues.isEmpty() || supported == null) return null;
        for (String candidate : supported) {
            if (candidate == null || candidate.isEmpty()) continue;
            for (String value : offeredHeaderValues) {
                if (value != null && offers(value, candidate)) return candidate;
            }
        }
        return null;
    }

    /** Whether the comma-separated list {@code value} holds {@code name}, optional spaces and tabs around each element. */
    private static boolean offers(String value, String name) {
        int at = 0;
        while (at <= value.length()) {
            int comma = value.indexOf(',', at);
            int end = comma < 0 ? value.length() : comma;
            int start = at;
            while (start < end && isSpace(value.charAt(start))) start++;
            int stop = end;
            while (stop > start && isSpace(value.charAt(stop - 1))) stop--;
            if (stop - start == name.length() && value.regionMatches(start, name, 0, name.length())) return true;
            if (comma < 0) return false;
            at = comma + 1;
        }
        return false;
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t';
    }
}
