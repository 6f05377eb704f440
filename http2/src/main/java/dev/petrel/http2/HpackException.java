package dev.petrel.http2;

/**
 * A field block that HPACK cannot decode (RFC 7541). The decoder's dynamic table is then out of
 * step with the peer's encoder, so the connection cannot go on: it is a connection error of type
 * {@link Http2ErrorCode#COMPRESSION_ERROR} (RFC 9113 section 4.3).
 *
 * <p>The reason is a fixed text that never quotes the input.
 */
public final class HpackException extends Exception {
    /** A decoding failure, {@code reason} saying why in words for the log. */
    public HpackException(String reason) {
        super(reason);
    }

    /** The connection error to answer with: {@code COMPRESSION_ERROR} and this reason. */
    public Http2Error toError() {
        return Http2Error.connection(Http2ErrorCode.COMPRESSION_ERROR, getMessage());
    }
}
