package dev.petrel.server.websocket;

import dev.petrel.server.WebSocketListener;
import dev.petrel.server.WebSocketMessage;
import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.connection.ProtocolConnection;
import dev.petrel.server.engine.exchange.WebSocketSessionObserver;
import dev.petrel.websocket.CloseCodes;
import java.io.IOException;

/**
 * A {@link WebSocketListener}'s session on an event-loop transport, served inline on the loop:
 * while the session waits, the loop watches its socket and no thread is held; when bytes arrive,
 * {@link #serve()} decodes them and calls the listener with each whole message, then reads on
 * until the socket is dry and hands the connection back to the loop. This is where the listener
 * style saves what a thread per session costs: the hand-over to a thread and back for every
 * message, and a parked thread's stack for every idle session.
 */
final class WebSocketListenerConnection implements ProtocolConnection {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.websocket");

    private final Endpoint endpoint;
    private final WebSocketSession session;
    private final WebSocketListener listener;
    private final WebSocketSessionObserver observer;
    private boolean opened;

    WebSocketListenerConnection(Endpoint endpoint, WebSocketSession session, WebSocketListener listener,
            WebSocketSessionObserver observer) {
        this.endpoint = endpoint;
        this.session = session;
        this.listener = listener;
        this.observer = observer;
    }

    @Override
    public boolean serve() {
        int code = CloseCodes.NORMAL;
        try {
            if (!opened) {
                opened = true;
                observer.opened();
                session.watch(); // finish() below ends what this starts
                listener.onOpen(session);
            }
            for (WebSocketMessage message; (message = session.receiveAvailable()) != null; ) {
                listener.onMessage(session, message);
            }
            if (!session.inputEnded()) {
                if (System.nanoTime() - session.idleDeadline() < 0) return true; // read dry: wait on the loop
                session.timeOut();
            }
        } catch (IOException e) {
            // the connection failed: the session has its code (1006) already, and finish() only frees it
        } catch (Exception | Error e) {
            code = CloseCodes.INTERNAL_ERROR;
            LOG.log(System.Logger.Level.WARNING, "the WebSocket listener of " + session.path() + " for "
                    + session.remoteAddress() + " failed; closing with 1011", e);
        }
        session.finish(code);
        observer.ended(session.closeCode());
        WebSocketConnection.closed(listener, session);
        return false;
    }

    @Override
    public boolean poll() {
        if (!opened) return true; // onOpen is due before any message
        try {
            return session.pollInput();
        } catch (IOException e) {
            return true; // serve() finds the input ended and closes
        }
    }

    @Override
    public long wakeDeadline() {
        return session.idleDeadline();
    }

    /** The listener never blocks: on the loop, with no hand-over. */
    @Override
    public boolean mayBlock() {
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
