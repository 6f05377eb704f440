package dev.petrel.server.websocket;

import dev.petrel.server.WebSocketHandler;
import dev.petrel.server.WebSocketListener;
import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.connection.ProtocolConnection;
import dev.petrel.server.engine.exchange.WebSocketSessionObserver;
import dev.petrel.websocket.CloseCodes;
import java.io.IOException;

/**
 * A connection after the switch to WebSocket, as the transport sees it: {@link #serve()} runs the
 * route's handler on the thread it is given (a worker: the handler blocks in
 * {@code receive()}), then closes the session. A stopping server sends {@code 1001}. The session's
 * observer hears of its start and end here, around the handler, so that every session counted
 * open is counted closed.
 */
final class WebSocketConnection implements ProtocolConnection {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.websocket");

    private final Endpoint endpoint;
    private final WebSocketSession session;
    private final WebSocketHandler handler;
    private final WebSocketSessionObserver observer;

    WebSocketConnection(Endpoint endpoint, WebSocketSession session, WebSocketHandler handler, WebSocketSessionObserver observer) {
        this.endpoint = endpoint;
        this.session = session;
        this.handler = handler;
        this.observer = observer;
    }

    /**
     * The connection that serves {@code session}: a listener's inline on an endpoint that waits
     * without a thread (the {@code nio} transport's), else one that runs the handler on its thread.
     */
    static ProtocolConnection open(Endpoint endpoint, WebSocketSession session, WebSocketHandler handler,
            WebSocketSessionObserver observer) {
        if (handler instanceof WebSocketListener listener && endpoint.waitsWithoutThread()) {
            session.readOnLoop();
            return new WebSocketListenerConnection(endpoint, session, listener, observer);
        }
        return new WebSocketConnection(endpoint, session, handler, observer);
    }

    @Override
    public boolean serve() {
        int code = CloseCodes.NORMAL;
        observer.opened();
        session.watch(); // here, not in the session's constructor: finish() below is sure to end what this starts
        try {
            handler.serve(session);
        } catch (IOException e) {
            if (session.closeCode() != 0) {
                // the connection had already ended under the handler (the client reset it or stopped
                // reading): the client's doing, which a WebSocket peer that vanishes is every day
                LOG.log(System.Logger.Level.DEBUG, () -> "the WebSocket connection of " + session.path() + " for "
                        + session.remoteAddress() + " ended under its handler (" + session.closeCode() + "): " + e);
            } else {
                code = handlerFailed(e);
            }
        } catch (Exception | Error e) {
            code = handlerFailed(e);
        } finally {
            session.finish(code);
            observer.ended(session.closeCode());
            closed(handler, session);
        }
        return false;
    }

    private int handlerFailed(Throwable e) {
        LOG.log(System.Logger.Level.WARNING, "the WebSocket handler of " + session.path() + " for "
                + session.remoteAddress() + " failed; closing with 1011", e);
        return CloseCodes.INTERNAL_ERROR;
    }

    /** Tells a listener its session has closed; what it throws is logged, since the session is over. */
    static void closed(WebSocketHandler handler, WebSocketSession session) {
        if (!(handler instanceof WebSocketListener listener)) return;
        try {
            listener.onClose(session, session.closeCode());
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.WARNING, "the WebSocket listener of " + session.path() + " failed in onClose", e);
        }
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
