package dev.petrel.server.engine.exchange;

/**
 * What the server observes of one WebSocket session, from the switch to its end: its access log
 * line and its connector's WebSocket counters. The session tells it of each whole data message it
 * received and sent (control frames are not messages); an {@link ExchangeObserver} makes one per
 * handshake ({@link ExchangeObserver#webSocketSession}). Sizes are message payloads as the handler
 * sees them: after inflating, before compressing, text as UTF-8.
 *
 * <p>{@link #received} is called by one thread at a time (the session's reader), {@link #sent} by
 * one at a time (the session sends under its lock), {@link #ended} once, after the handler is done.
 */
public interface WebSocketSessionObserver {
    /** Observes nothing. */
    WebSocketSessionObserver NONE = new WebSocketSessionObserver() {
        @Override
        public void opened() {}

        @Override
        public void received(int bytes) {}

        @Override
        public void sent(int bytes) {}

        @Override
        public void ended(int closeCode) {}
    };

    /** The session has begun: its handler is about to run. */
    void opened();

    /** A data message of {@code bytes} payload bytes was received. */
    void received(int bytes);

    /** A data message of {@code bytes} payload bytes was sent. */
    void sent(int bytes);

    /**
     * The session is over with {@code closeCode}: the code of the first close frame sent or
     * received, or 1006 when the connection ended without one. Called once, after {@link #opened}.
     */
    void ended(int closeCode);
}
