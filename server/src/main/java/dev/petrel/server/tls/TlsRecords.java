package dev.petrel.server.tls;

import dev.petrel.http.ByteSink;
import dev.petrel.http.DateCache;
import dev.petrel.http.ResponseHeadEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What the first byte on a TLS port says, and the answer to a client that spoke plain HTTP
 * there. A TLS client's first record is a handshake record (content type 22, RFC 8446 section
 * 5.1); an HTTP request starts with its method, ASCII letters, which no TLS record type is.
 */
final class TlsRecords {
    /** The content type of a handshake record, the first byte a TLS client sends. */
    static final int HANDSHAKE = 22;

    private static final byte[] TEXT_PLAIN = "text/plain;charset=UTF-8".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLOSE = "close".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PLAIN_HTTP_TEXT = "This port speaks HTTPS; use https://\n".getBytes(StandardCharsets.US_ASCII);

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

    /**
     * The whole clear-text answer to an HTTP request sent to a TLS port: a short {@code 400} that
     * says so and closes, as nginx answers "The plain HTTP request was sent to HTTPS port".
     * Nothing of the request is echoed: it was never parsed, and reflecting it would invite abuse.
     */
    static byte[] plainHttpAnswer(DateCache dates) {
        ByteSink sink = new ByteSink(256);
        ResponseHeadEncoder.statusLine(400, sink);
        ResponseHeadEncoder.field(ResponseHeadEncoder.DATE, dates.bytes(), sink);
        ResponseHeadEncoder.field(ResponseHeadEncoder.CONTENT_TYPE, TEXT_PLAIN, sink);
        ResponseHeadEncoder.field(ResponseHeadEncoder.CONTENT_LENGTH, PLAIN_HTTP_TEXT.length, sink);
        ResponseHeadEncoder.field(ResponseHeadEncoder.CONNECTION, CLOSE, sink);
        ResponseHeadEncoder.end(sink);
        sink.write(PLAIN_HTTP_TEXT);
        return Arrays.copyOf(sink.array(), sink.length());
    }
}
