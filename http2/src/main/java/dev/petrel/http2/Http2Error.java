package dev.petrel.http2;

import java.util.Objects;

/**
 * A breach of RFC 9113 or RFC 7541 found by the codec: which error code to send, on which stream,
 * and why in words for the log (a fixed text that never quotes the input).
 *
 * <p>A <em>connection error</em> ({@code streamId == 0}) ends the connection with {@code GOAWAY};
 * a <em>stream error</em> resets one stream with {@code RST_STREAM} and the connection goes on
 * (RFC 9113 section 5.4).
 *
 * @param code what to send
 * @param streamId the stream to reset, or 0 for the whole connection
 * @param reason why, for the log
 */
public record Http2Error(Http2ErrorCode code, int streamId, String reason) {
    public Http2Error {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(reason, "reason");
        if (streamId < 0) throw new IllegalArgumentException("stream id " + streamId);
    }

    /** An error that ends the connection. */
    public static Http2Error connection(Http2ErrorCode code, String reason) {
        return new Http2Error(code, 0, reason);
    }

    /** An error that resets stream {@code streamId} only. */
    public static Http2Error stream(Http2ErrorCode code, int streamId, String reason) {
        if (streamId == 0) throw new IllegalArgumentException("a stream error needs a stream");
        return new Http2Error(code, streamId, reason);
    }

    /** Whether this ends the whole connection rather than one stream. */
    public boolean isConnectionError() {
        return streamId == 0;
    }
}
