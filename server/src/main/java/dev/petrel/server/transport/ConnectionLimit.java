package dev.petrel.server.transport;

import java.util.concurrent.Semaphore;

/**
 * How many connections may be served at once, shared by every listener given the same instance:
 * a server listening for HTTP and HTTPS serves at most this many over both, so that one limit
 * fits under one open-file limit.
 */
public final class ConnectionLimit {
    private final int max;
    final Semaphore free; // a permit per connection that may still be served

    /** A limit of {@code max} connections. */
    public ConnectionLimit(int max) {
        if (max < 1) throw new IllegalArgumentException("the connection limit must be positive: " + max);
        this.max = max;
        this.free = new Semaphore(max);
    }

    /** The limit. */
    public int max() {
        return max;
    }

    /** Connections holding a slot now. */
    public int inUse() {
        return max - free.availablePermits();
    }
}
