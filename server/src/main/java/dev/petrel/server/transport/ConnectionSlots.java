package dev.petrel.server.transport;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The connection limit, as one listener's acceptor sees it: a slot per connection served, taken
 * from the {@link ConnectionLimit} the listeners share, and a clock for how long the server has
 * been full. Only this listener's acceptor thread acquires; any thread releases.
 */
final class ConnectionSlots {
    private final Semaphore free;
    private final long queueNanos;
    private long fullSince; // acceptor thread only; 0 while slots are free

    ConnectionSlots(ConnectionLimit limit, Duration queueTimeout) {
        this.free = limit.free;
        this.queueNanos = queueTimeout.toNanos();
    }

    /**
     * Takes a slot for the next connection, waiting while the server has been full for less than
     * the queue timeout.
     *
     * @return true with a slot taken; false when the server has been full too long and the next
     *     connection should be turned away
     */
    boolean acquire() throws InterruptedException {
        if (free.tryAcquire()) {
            fullSince = 0;
            return true;
        }
        long now = System.nanoTime();
        if (fullSince == 0) fullSince = now;
        long wait = fullSince + queueNanos - now;
        if (wait > 0 && free.tryAcquire(wait, TimeUnit.NANOSECONDS)) {
            fullSince = 0;
            return true;
        }
        return false;
    }

    /** Takes a slot if one is free now. */
    boolean tryAcquire() {
        if (!free.tryAcquire()) return false;
        fullSince = 0;
        return true;
    }

    /** Gives a slot back when its connection has closed. */
    void release() {
        free.release();
    }
}
