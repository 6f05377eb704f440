package dev.petrel.server.engine.exchange;

/**
 * What the server observes of each exchange (its access log line, its connector's request
 * counters), told by the {@link Exchange} itself: the protocols only run exchanges, and an
 * exchange nobody observes costs nothing more.
 */
public interface ExchangeObserver {
    /** Observes nothing. */
    ExchangeObserver NONE = new ExchangeObserver() {
        @Override
        public void started() {}

        @Override
        public void finished(ExchangeRequest request, ExchangeResponse response, long startNanos) {}
    };

    /** An exchange is starting: its handler is about to run. */
    void started();

    /**
     * The exchange that started at {@code startNanos} ({@link System#nanoTime()}) is over: its
     * response finished, replaced by an error answer, or cut. The response says the status it had,
     * its bytes, and whether it ended complete.
     */
    void finished(ExchangeRequest request, ExchangeResponse response, long startNanos);

    /**
     * The handshake {@code request} is accepted and its connection becomes a WebSocket session:
     * what observes that session. Asked during the exchange, while {@code request} is still
     * armed: what the observer keeps of it, it copies. Default: nothing observes it.
     */
    default WebSocketSessionObserver webSocketSession(ExchangeRequest request) {
        return WebSocketSessionObserver.NONE;
    }
}
