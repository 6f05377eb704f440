package dev.petrel.bench.lab;

import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Locale;
import java.util.random.RandomGenerator;

/**
 * The opening handshake of a lab client (RFC 6455 section 4): the request, with a fresh key and no
 * extension or subprotocol offered, and the check of the server's answer. The lab's clients offer
 * no {@code permessage-deflate}, so that every server echoes plain frames; a server that names an
 * extension all the same is refused, as a client must (section 4.1).
 */
final class WebSocketHandshake {
    /** The GUID every accept key is made with (RFC 6455 section 1.3). */
    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    private final String key;
    private final byte[] request;

    /** A handshake for {@code path} on {@code host:port}, its key drawn from {@code random}. */
    WebSocketHandshake(String host, int port, String path, RandomGenerator random) {
        byte[] nonce = new byte[16];
        random.nextBytes(nonce);
        this.key = Base64.getEncoder().encodeToString(nonce);
        this.request = ("GET " + path + " HTTP/1.1\r\n"
                + "Host: " + host + ":" + port + "\r\n"
                + "Upgrade: websocket\r\n"
                + "Connection: Upgrade\r\n"
                + "Sec-WebSocket-Key: " + key + "\r\n"
                + "Sec-WebSocket-Version: 13\r\n"
                + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** The request's bytes. */
    byte[] request() {
        return request.clone();
    }

    /** The key the request carries. */
    String key() {
        return key;
    }

    /** The accept key a server must answer {@code key} with: base64 of SHA-1 of the key and the GUID. */
    static String acceptKey(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest((key + GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
    }

    /**
     * The offset just past the end of the response head in {@code bytes[0, length)}, or -1 when the
     * head is not complete yet.
     */
    static int headEnd(byte[] bytes, int length) {
        for (int i = 3; i < length; i++) {
            if (bytes[i] == '\n' && bytes[i - 1] == '\r' && bytes[i - 2] == '\n' && bytes[i - 3] == '\r') return i + 1;
        }
        return -1;
    }

    /**
     * Checks a whole response head (through its empty line): {@code 101}, {@code Upgrade: websocket},
     * {@code Connection: upgrade}, the right accept key, and no extension or subprotocol.
     *
     * @throws ProtocolException saying what is wrong, with the status line
     */
    void check(String head) throws ProtocolException {
        String[] lines = head.split("\r\n");
        String status = lines[0];
        if (!status.startsWith("HTTP/1.1 101")) throw new ProtocolException("answered '" + status + "', not 101");
        boolean upgrade = false, connection = false;
        String accept = null;
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon <= 0) continue;
            String name = lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT);
            String value = lines[i].substring(colon + 1).strip();
            switch (name) {
                case "upgrade" -> upgrade = value.equalsIgnoreCase("websocket");
                case "connection" -> connection = hasToken(value, "upgrade");
                case "sec-websocket-accept" -> accept = value;
                case "sec-websocket-extensions" -> throw new ProtocolException("negotiated extensions '" + value + "' though none was offered");
                case "sec-websocket-protocol" -> throw new ProtocolException("chose subprotocol '" + value + "' though none was offered");
                default -> { }
            }
        }
        if (!upgrade) throw new ProtocolException(status + " without 'Upgrade: websocket'");
        if (!connection) throw new ProtocolException(status + " without 'Connection: upgrade'");
        if (!acceptKey(key).equals(accept)) {
            throw new ProtocolException(status + " with Sec-WebSocket-Accept '" + accept + "', not '" + acceptKey(key) + "'");
        }
    }

    private static boolean hasToken(String value, String token) {
        for (String part : value.split(",")) {
            if (part.strip().equalsIgnoreCase(token)) return true;
        }
        return false;
    }
}
