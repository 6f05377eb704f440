package dev.petrel.server;

/**
 * Application code that answers one request. Handlers are plain blocking code: they may read
 * the body, call a database and write the response in straight lines; the transport decides on
 * which thread that runs.
 *
 * <p>What the handler leaves unsent is completed when it returns: a response never written
 * becomes an empty 200 (or the status set), a body stream left open is closed. An exception
 * becomes a 500 ({@link HttpStatusException} its own status) when nothing was sent yet, or an
 * aborted connection when the head already left; it is logged once and never shown to the client.
 */
@FunctionalInterface
public interface Handler {
    /**
     * Answers {@code request} through {@code response}.
     *
     * @throws Exception anything; see the class comment for what the client then sees
     */
    void handle(Request request, Response response) throws Exception;

    /**
     * Whether this handler may block: wait on I/O, a lock, a sleep. On the {@code nio} transport
     * a handler that never blocks runs inline on its event loop, which saves the hand-over to a
     * worker thread; one that may block runs on a virtual thread, so that the loop keeps serving
     * its other connections. Over HTTP/2, on every transport, a request without a body for a
     * handler that never blocks runs inline on the connection's reader rather than on a thread of
     * its own. HTTP/1.1 on the other transports ignores it. Default: true.
     */
    default boolean mayBlock() {
        return true;
    }

    /**
     * Whether handling this request may block; asked on the {@code nio} transport once the
     * request's head has arrived, before the handler runs, to choose between the event loop and a
     * virtual thread for this request alone (and for each HTTP/2 request without a body, between
     * the connection's reader and a thread of its own). A handler that serves some requests from memory and
     * others from a database or a disk answers per request, and the quick ones skip the
     * hand-over. It must decide from the request line and headers only, without reading the body
     * or blocking. Default: {@link #mayBlock()}.
     */
    default boolean mayBlock(Request request) {
        return mayBlock();
    }

    /**
     * Whether this handler serves WebSocket sessions ({@link Response#upgradeToWebSocket}): a
     * {@link Router} with a WebSocket route says yes. Over HTTP/2 the server then announces
     * {@code SETTINGS_ENABLE_CONNECT_PROTOCOL} and accepts the extended CONNECT that opens a
     * WebSocket there (RFC 8441); otherwise it announces nothing: a browser told that the server
     * accepts it opens its WebSockets over HTTP/2 instead of HTTP/1.1, and fails where they are
     * served over HTTP/1.1 alone. A handler of its own that
     * calls {@code upgradeToWebSocket} says yes here to be reached over HTTP/2. Asked once, when
     * the server starts. Default: false.
     */
    default boolean servesWebSockets() {
        return false;
    }

    /**
     * Marks {@code handler} as one that never blocks (see {@link #mayBlock()}): it computes its
     * answer from the request and memory, and writes a response the socket can take at once.
     * A handler that blocks anyway stalls every connection of its event loop meanwhile.
     */
    static Handler nonBlocking(Handler handler) {
        java.util.Objects.requireNonNull(handler, "handler");
        return new Handler() {
            @Override
            public void handle(Request request, Response response) throws Exception {
                handler.handle(request, response);
            }

            @Override
            public boolean mayBlock() {
                return false;
            }

            @Override
            public boolean mayBlock(Request request) {
                return false;
            }

            @Override
            public boolean servesWebSockets() {
                return handler.servesWebSockets();
            }
        };
    }
}
