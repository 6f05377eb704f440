package dev.petrel.server.engine.connection;

import java.net.InetSocketAddress;

/**
 * Whether a connection may go on, shared by the protocol engines: the engine marks it idle
 * between requests, receiving a head once the next one has begun but is not complete, and busy
 * inside an exchange; the server, from any thread, asks it to drain (close when idle, else after
 * the current exchange), sheds it when full (close when it has waited too long for a head), or
 * aborts it. One lock keeps the state and "closed by the server" consistent, so neither a drain
 * nor a shed ever closes a connection that has just begun an exchange.
 */
public final class ConnectionLifecycle {
    private enum State { IDLE, HEAD, BUSY }

    /** How long a closing connection reads and discards what its peer still sends (see {@link Endpoint#closeGracefully}). */
    private static final int LINGER_MILLIS = 1000;
    private static final int LINGER_BYTES = 256 * 1024;

    private final Endpoint endpoint;
    private boolean closeHandedOver; // serving thread only: closeGracefully() closes the endpoint, now or after lingering
    private State state = State.BUSY; // guarded by this
    private long waitingSince;        // guarded by this: System.nanoTime() the wait for the next head began
    private boolean closedByServer;   // guarded by this
    private volatile boolean draining;

    public ConnectionLifecycle(Endpoint endpoint) {
        this.endpoint = endpoint;
    }

    /**
     * Between requests, from {@code now} ({@link System#nanoTime()}); returns false when the
     * connection must end instead (draining or closed).
     */
    public synchronized boolean enterIdle(long now) {
        if (draining || closedByServer) return false;
        state = State.IDLE;
        waitingSince = now;
        return true;
    }

    /**
     * The next head has begun but is not complete; returns false when the server closed the
     * connection meanwhile. A draining server lets such a request finish; a full one may shed it.
     */
    public synchronized boolean headBegun() {
        if (closedByServer) return false;
        state = State.HEAD;
        return true;
    }

    /** A whole head is in: the exchange begins; returns false when the server closed the connection meanwhile. */
    public synchronized boolean beginExchange() {
        if (closedByServer) return false;
        state = State.BUSY;
        return true;
    }

    /** Whether the server closed the connection (drained while idle, shed, aborted or reset). */
    public synchronized boolean closedByServer() {
        return closedByServer;
    }

    /** Whether the server asked the connection to finish. */
    public boolean draining() {
        return draining;
    }

    /** Closes now when idle, else lets the current exchange (or the head being received) finish and the engine close after it. */
    public synchronized void drain() {
        draining = true;
        if (state == State.IDLE) {
            closedByServer = true;
            endpoint.close();
        }
    }

    /**
     * The server is full: closes the connection when it is waiting for a head, idle or receiving
     * one, since before {@code waitingSinceBefore} ({@link System#nanoTime()}). Returns whether it did.
     */
    public synchronized boolean shed(long waitingSinceBefore) {
        if (closedByServer || state == State.BUSY || waitingSince - waitingSinceBefore > 0) return false;
        closedByServer = true;
        endpoint.close();
        return true;
    }

    /**
     * Lets the last answer reach the peer before the connection closes: half-closes, lingers on
     * what the peer still sends, then closes ({@link Endpoint#closeGracefully}). On the serving
     * thread, which then must not close the endpoint itself.
     */
    public void closeGracefully() {
        closeHandedOver = true;
        endpoint.closeGracefully(LINGER_MILLIS, LINGER_BYTES);
    }

    /** The serving thread is done with the connection: closes it, unless a graceful close has taken it over. */
    public void end() {
        if (!closeHandedOver) endpoint.close();
    }

    /** Closes now, whatever the connection is doing. */
    public void abort() {
        synchronized (this) {
            closedByServer = true;
        }
        endpoint.close();
    }

    /**
     * Closes now so that the peer sees a failure, not an end ({@link Endpoint#reset}): a response
     * cut after bytes of it had left.
     */
    public void reset() {
        synchronized (this) {
            closedByServer = true;
        }
        endpoint.reset();
    }

    /** Whether the connection is served on its transport's event loop now. */
    public boolean onEventLoop() {
        return endpoint.onEventLoop();
    }

    /** The peer's address. */
    public InetSocketAddress remoteAddress() {
        return endpoint.remoteAddress();
    }
}
