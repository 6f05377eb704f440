package dev.petrel.server.engine;

/**
 * Whether a connection may go on, shared by the protocol engines: the engine marks it idle
 * between requests and busy inside one; the server, from any thread, asks it to drain (close when
 * idle, else after the current exchange) or aborts it. One lock keeps "idle" and "closed by the
 * server" consistent, so a drain never closes a connection that has just begun a request.
 */
final class ConnectionLifecycle {
    private final Endpoint endpoint;
    private boolean idle;            // guarded by this
    private boolean closedByServer;  // guarded by this
    private volatile boolean draining;

    ConnectionLifecycle(Endpoint endpoint) {
        this.endpoint = endpoint;
    }

    /** Between requests; returns false when the connection must end instead (draining or closed). */
    synchronized boolean enterIdle() {
        if (draining || closedByServer) return false;
        idle = true;
        return true;
    }

    /** The next request has begun; returns false when the server closed the connection meanwhile. */
    synchronized boolean leaveIdle() {
        if (closedByServer) return false;
        idle = false;
        return true;
    }

    /** Whether the server asked the connection to finish. */
    boolean draining() {
        return draining;
    }

    /** Closes now when idle, else lets the current exchange finish and the engine close after it. */
    synchronized void drain() {
        draining = true;
        if (idle) {
            closedByServer = true;
            endpoint.close();
        }
    }

    /** Closes now, whatever the connection is doing. */
    void abort() {
        synchronized (this) {
            closedByServer = true;
        }
        endpoint.close();
    }
}
