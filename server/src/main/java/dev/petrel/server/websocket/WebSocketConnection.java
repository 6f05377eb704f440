package dev.petrel.server.websocket;

import dev.petrel.server.WebSocketHandler;
import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.connection.ProtocolConnection;
import dev.petrel.websocket.CloseCodes;

/**
 * A connection after the switch to WebSocket, as the transport sees it: {@link #serve()} runs the
 * route's handler on the thread it is given (a worker: the handler blocks in
 * {@code receive()}), then closes the session. A stopping server sends {@code 1001}.
 */
final class WebSocketConnection implements ProtocolConnection {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.websocket");

    private final Endpoint endpoint;
    private final WebSocketSession session;
    private final WebSocketHandler handler;

    WebSocketConnection(Endpoint endpoint, WebSocketSession session, WebSocketHandler handler) {
        this.endpoint = endpoint;
        this.session = session;
        this.handler = handler;
    }

    @Override
    public boolean serve() {
        int code = CloseCodes.NORMAL;
        session.watch(); // here, not in the session's constructor: finish() below is sure to end what this starts
        try {
            handler.serve(session);
        } catch (Exception | Error e) {
            code = CloseCodes.INTERNAL_ERROR;
            LOG.log(System.Logger.Level.WARNING, "the WebSocket handler of " + session.path() + " for "
                    + session.remoteAddress() + " failed; closing with 1011", e);
        } finally {
            session.finish(code);
        }
        return false;
    }

    @Override
    public void drain() {
        // off the stopping thread: the close may wait on a client that does not read
        Thread.ofVirtual().name("petrel-websocket-close").start(session::goAway);
    }

    @Override
    public void abort() {
        endpoint.close();
    }
}
