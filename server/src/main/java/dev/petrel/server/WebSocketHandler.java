package dev.petrel.server;

/**
 * Serves one WebSocket session (RFC 6455), in the blocking style: on a thread of its own (a
 * virtual thread on the {@code virtual} and {@code nio} transports), it {@linkplain
 * WebSocket#receive() receives} messages and sends its own until it is done. Declared per route
 * with {@link Router.Builder#websocket}.
 *
 * <pre>{@code
 * Router.builder().websocket("/echo", socket -> {
 *     for (WebSocketMessage message; (message = socket.receive()) != null; ) {
 *         switch (message) {
 *             case WebSocketMessage.Text text -> socket.sendText(text.text());
 *             case WebSocketMessage.Binary binary -> socket.sendBinary(binary.bytes());
 *         }
 *     }
 * }).build();
 * }</pre>
 *
 * <p>When {@code serve} returns, the server closes the session with {@code 1000} (normal) if it
 * is still open; when it throws, with {@code 1011} (internal error), and the exception is logged.
 * The client's pings are answered while the handler is in {@code receive()}.
 */
@FunctionalInterface
public interface WebSocketHandler {
    /**
     * Serves {@code socket} until the session is done.
     *
     * @throws Exception anything: the session is closed with {@code 1011}
     */
    void serve(WebSocket socket) throws Exception;
}
