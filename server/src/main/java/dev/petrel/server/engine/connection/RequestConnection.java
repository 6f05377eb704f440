package dev.petrel.server.engine.connection;

import java.io.IOException;

/**
 * What every protocol connection that reads one request head at a time shares (HTTP/1.1 and AJP
 * today): the connection's input, its {@link ConnectionLifecycle}, its {@link HeadWait}, and the
 * answers to what the transport may ask at any time (a poll for a head on an event loop, when to
 * come back, drain, abort, shed). A protocol adds only its parser, its exchanges and its rules.
 */
public abstract class RequestConnection implements ProtocolConnection {
    /** The connection. */
    protected final Endpoint endpoint;
    /** Its input: the head parser and the body read from here. */
    protected final ConnectionInput input;
    /** Idle, receiving a head, or busy; closing. */
    protected final ConnectionLifecycle lifecycle;
    /** The wait for the next head. */
    protected final HeadWait heads;

    /** A connection on {@code endpoint} reading from {@code input}, whose heads must be complete within {@code headerTimeoutNanos} of their first byte. */
    protected RequestConnection(Endpoint endpoint, ConnectionInput input, long headerTimeoutNanos) {
        this.endpoint = endpoint;
        this.input = input;
        this.lifecycle = new ConnectionLifecycle(endpoint);
        this.heads = new HeadWait(lifecycle, input, headerTimeoutNanos);
    }

    /**
     * Takes in bytes toward the next head, through {@link #heads} with the protocol's parser and
     * idle timeout; with {@code mayWait} false it never blocks.
     */
    protected abstract HeadWait.Progress readHead(boolean mayWait) throws IOException;

    @Override
    public final boolean poll() {
        heads.readinessReported(true); // the socket is readable: read, however dry the last read left it
        try {
            return readHead(false) != HeadWait.Progress.WAITING;
        } catch (IOException | RuntimeException e) {
            return true; // serve() meets the failure again and ends the connection
        } finally {
            heads.readinessReported(false);
        }
    }

    @Override
    public final long wakeDeadline() {
        return heads.wakeDeadline();
    }

    /**
     * Asks the connection to finish: an idle one closes now, a busy one after its current
     * exchange. Safe from any thread.
     */
    @Override
    public final void drain() {
        lifecycle.drain();
    }

    /** Closes the connection now, whatever it is doing. Safe from any thread. */
    @Override
    public final void abort() {
        lifecycle.abort();
    }

    /** Closes the connection if it has waited for its next head since before {@code waitingSinceBefore}. Safe from any thread. */
    @Override
    public boolean shed(long waitingSinceBefore) {
        return lifecycle.shed(waitingSinceBefore);
    }
}
