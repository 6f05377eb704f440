package dev.petrel.server;

import java.nio.charset.StandardCharsets;

/** A whole WebSocket message, as {@link WebSocket#receive()} returns it: text or binary. */
public sealed interface WebSocketMessage {
    /**
     * A text message, its UTF-8 checked.
     *
     * @param text the message
     */
    record Text(String text) implements WebSocketMessage {}

    /**
     * A binary message.
     *
     * @param bytes the message; the handler owns the array
     */
    record Binary(byte[] bytes) implements WebSocketMessage {
        /** The bytes read as UTF-8, for logs and tests. */
        @Override
        public String toString() {
            return "Binary[" + bytes.length + " bytes: " + new String(bytes, 0, Math.min(bytes.length, 32), StandardCharsets.UTF_8) + "]";
        }
    }
}
