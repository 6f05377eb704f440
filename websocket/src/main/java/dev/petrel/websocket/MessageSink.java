package dev.petrel.websocket;

import java.io.IOException;

/**
 * Receives what a {@link MessageDecoder} takes from the wire, in the order it came: whole data
 * messages (however they were fragmented, and inflated when they were compressed) and each
 * control frame as it arrives, even between the fragments of a message.
 *
 * <p>The arrays and strings handed over belong to the sink: the decoder keeps no reference to
 * them. A sink may throw {@link IOException} (when it writes an answer, say); the decoder lets it
 * through {@link MessageDecoder#decode} untouched, its own state already past the frame.
 */
public interface MessageSink {
    /** A whole text message, its UTF-8 already validated across all its fragments. */
    void text(String message) throws IOException;

    /** A whole binary message. */
    void binary(byte[] message) throws IOException;

    /** A ping's payload (0 to 125 bytes), which the endpoint should answer with a pong carrying the same (section 5.5.2). */
    void ping(byte[] payload) throws IOException;

    /** A pong's payload (0 to 125 bytes). */
    void pong(byte[] payload) throws IOException;

    /**
     * The peer's close frame: its status code, valid on the wire, or {@link CloseCodes#NO_STATUS}
     * when the frame had no body; its reason, valid UTF-8, or {@code ""} when it gave none. The
     * decoder reads nothing after it.
     */
    void close(int code, String reason) throws IOException;
}
