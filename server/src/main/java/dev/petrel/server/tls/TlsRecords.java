package dev.petrel.server.tls;

/**
 * What the first byte on a TLS port says. A TLS client's first record is a handshake record
 * (content type 22, RFC 8446 section 5.1); an HTTP request starts with its method, ASCII
 * letters, which no TLS record type is.
 */
final class TlsRecords {
    /** The content type of a handshake record, the first byte a TLS client sends. */
    static final int HANDSHAKE = 22;

    private TlsRecords() {}

    /** What a connection's first byte announces. */
    enum Opening {
        /** A TLS handshake record: hand the bytes to the engine. */
        TLS,
        /** An ASCII letter or a line break: most likely an HTTP request, sent in clear text. */
        PLAIN_TEXT,
        /** Neither: garbage, or a protocol this port does not speak. */
        UNKNOWN
    }

    /** Classifies a connection by its first byte. */
    static Opening opening(int firstByte) {
        int b = firstByte & 0xff;
        if (b == HANDSHAKE) return Opening.TLS;
        // a method's letters; or the empty line a client may send before its request line (RFC 9112 section 2.2)
        if ((b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || b == '\r' || b == '\n') return Opening.PLAIN_TEXT;
        return Opening.UNKNOWN;
    }
}
