package dev.petrel.server.websocket;

import dev.petrel.server.WebSocketListener;
import dev.petrel.server.WebSocketMessage;
import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.connection.ProtocolConnection;
import dev.petrel.server.engine.exchange.WebSocketSessionObserver;
import dev.petrel.websocket.CloseCodes;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * A {@link WebSocketListener}'s session on an event-loop transport, served inline on the loop:
 * while the session waits, the loop watches its socket and no thread is held; when bytes arrive,
 * {@link #serve()} decodes them and calls the listener with each whole message, then reads on
 * until the socket is dry and hands the connection back to the loop. This is where the listener
 * style saves what a thread per session costs: the hand-over to a thread and back for every
 * message, and a parked thread's stack for every idle session.
 *
 * <p>Nothing here waits for the client: what a send cannot write at once is queued, and the
 * connection then waits on the loop for room instead of for input
 * ({@link WebSocketSession#queueOutput()}); its next message is read once the queue is out.
 */
final class WebSocketListenerConnection implements ProtocolConnection {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.websocket");

    private final Endpoint endpoint;
    private final WebSocketSession session;
    private final WebSocketListener listener;
    private final WebSocketSessionObserver observer;
    private boolean opened;
    private int finishCode; // 0 until the session ends; then the code it ends with, while the close is queued

    WebSocketListenerConnection(Endpoint endpoint, WebSocketSession session, WebSocketListener listener,
            WebSocketSessionObserver observer) {
        this.endpoint = endpoint;
        this.session = session;
        this.listener = listener;
        this.observer = observer;
        session.queueOutput();
    }

    @Override
    public boolean serve() {
        if (finishCode != 0) return finish();
        int code = CloseCodes.NORMAL;
        try {
            if (!opened) {
                opened = true;
                observer.opened();
                session.watch(); // finish() below ends what this starts
                listener.onOpen(session);
            }
            if (!session.flushOutput()) return true; // the client has not read it all: no more messages yet
            for (WebSocketMessage message; !session.outputQueued() && (message = session.receiveAvailable()) != null; ) {
                listener.onMessage(session, message);
            }
            if (session.outputQueued() && !session.inputEnded()) return true; // wait on the loop for room
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
        finishCode = code;
        return finish();
    }

    /** Ends the session, once the close and anything queued before it are out: false when it has ended. */
    private boolean finish() {
        if (!session.finish(finishCode)) return true; // the loop sends the rest when the client reads, then calls again
        observer.ended(session.closeCode());
        WebSocketConnection.closed(listener, session);
        return false;
    }

    @Override
    public boolean poll() {
        if (!opened) return true; // onOpen is due before any message
        try {
            if (session.outputQueued()) return session.flushOutput(); // room: once all is out, serve() goes on
            return session.pollInput();
        } catch (IOException e) {
            return true; // serve() finds the session ended and closes
        }
    }

    /** While output is queued the loop watches for room and reads nothing, so that the client cannot make it queue more. */
    @Override
    public boolean awaitsWritable() {
        return session.outputQueued();
    }

    /** A send cut by the session's watch closes the connection while it waits: serve() then ends the session. */
    @Override
    public boolean servesOnceClosed() {
        return true;
    }

    /** The idle deadline; none while output is queued (the session reads nothing then), where the send timeout holds instead. */
    @Override
    public long wakeDeadline() {
        long now = System.nanoTime();
        return session.outputQueued() ? now + TimeUnit.HOURS.toNanos(1) : session.idleDeadline();
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
