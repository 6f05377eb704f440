package dev.petrel.server;

/**
 * Serves one WebSocket session in the listener style: the server calls it back with each whole
 * message as it arrives, and it answers by sending, without ever waiting. Declared per route like
 * any {@link WebSocketHandler} (it is one), with {@link Router.Builder#websocket(String, WebSocketListener)}.
 *
 * <pre>{@code
 * Router.builder().websocket("/echo", (socket, message) -> {
 *     switch (message) {
 *         case WebSocketMessage.Text text -> socket.sendText(text.text());
 *         case WebSocketMessage.Binary binary -> socket.sendBinary(binary.bytes());
 *     }
 * }).build();
 * }</pre>
 *
 * <p><b>Where it runs.</b> On the {@code nio} transport the callbacks run inline on the event
 * loop that reads the connection: no thread is handed the message and none waits for the next
 * one, so a session costs no thread while it is idle. A callback must therefore never block: no
 * I/O of its own, no locks held long. Its sends never wait either: what the client's socket does
 * not take at once is queued, and the loop sends it as the client reads, reading nothing more from
 * that session until it is out. Each queued frame must leave within the route's send timeout, and
 * more than {@code maxMessageSize} or 1 MiB (whichever is larger) queued from the loop ends the
 * session with {@code 1008}; a send from a thread that may wait (a virtual thread broadcasting)
 * waits for room instead (see {@link dev.petrel.server.config.WebSocketConfig}). Over TLS the
 * sends wait on the loop for the socket, within the same limits. On the {@code blocking} and
 * {@code virtual} transports the session runs on its connection's thread, as {@link #serve} shows.
 *
 * <p>A session ends as a handler's does: the client's close is answered, a protocol error or the
 * idle timeout closes it with the RFC's code, and a callback that throws closes it with
 * {@code 1011} (internal error) and is logged. {@link #onClose} comes once, last.
 */
@FunctionalInterface
public interface WebSocketListener extends WebSocketHandler {
    /**
     * A whole message came; answer it with {@link WebSocket#sendText}, {@link WebSocket#sendBinary}
     * or {@link WebSocket#close}, or keep {@code socket} to send to later from anywhere.
     *
     * @throws Exception anything: the session is closed with {@code 1011}
     */
    void onMessage(WebSocket socket, WebSocketMessage message) throws Exception;

    /**
     * The session has opened, before its first message. Default: nothing.
     *
     * @throws Exception anything: the session is closed with {@code 1011}
     */
    default void onOpen(WebSocket socket) throws Exception {}

    /**
     * The session has closed with {@code code} (see {@link WebSocket#closeCode()}); nothing more
     * can be sent on it. Called once, on every path out, the failed ones too. Default: nothing.
     */
    default void onClose(WebSocket socket, int code) {}

    /**
     * The listener on a thread that may block (the {@code blocking} and {@code virtual}
     * transports): {@link #onOpen}, then {@link #onMessage} for each message {@link
     * WebSocket#receive() received}; the server calls {@link #onClose} once the session has
     * closed. The server calls it; a listener has no reason to override it.
     */
    @Override
    default void serve(WebSocket socket) throws Exception {
        onOpen(socket);
        for (WebSocketMessage message; (message = socket.receive()) != null; ) onMessage(socket, message);
    }
}
