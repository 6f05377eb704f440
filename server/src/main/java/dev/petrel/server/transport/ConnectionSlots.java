package dev.petrel.server.transport;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The connection limit, as one listener sees it: a slot per connection served, taken
 * from the {@link ConnectionLimit} the listeners share, and a clock for how long the server has
 * been full. One thread at a time acquires for a listener (its acceptor thread; on {@code nio} its
 * event loop, or the thread the loop hands a connection to while the server is full, the loop
 * accepting nothing meanwhile); any thread releases.
 *
 * <p>A slot is taken only for a connection already accepted, never held while waiting in
 * {@code accept()}: the listeners share the slots, and an acceptor must not keep one that another
 * listener's client could use. While a connection waits for a slot, the admitting thread sheds, a few
 * times per {@code headTimeoutWhenFull}, the connections of every listener that have waited that
 * long for a request head, so that slow or idle clients make room for the one waiting; a full
 * server that nobody else is waiting for keeps its idle connections.
 */
final class ConnectionSlots {
    private final ConnectionLimit limit;
    private final Semaphore free;
    private final long queueNanos;
    private final long headWhenFullNanos;
    private final long shedPeriodNanos;
    private long fullSince; // the acquiring thread's; 0 while slots are free

    ConnectionSlots(ConnectionLimit limit, Duration queueTimeout, Duration headTimeoutWhenFull) {
        this.limit = limit;
        this.free = limit.free;
        this.queueNanos = queueTimeout.toNanos();
        this.headWhenFullNanos = headTimeoutWhenFull.toNanos();
        this.shedPeriodNanos = Math.clamp(headWhenFullNanos / 4, TimeUnit.MILLISECONDS.toNanos(10), TimeUnit.MILLISECONDS.toNanos(500));
    }

    /**
     * Takes a slot for a connection just accepted: one free now, or one freed (by a connection
     * ending, or shed to make room) within what is left of the queue timeout, the time since the
     * server was first found full.
     *
     * @return whether a slot was taken; false turns the connection away
     */
    boolean take() throws InterruptedException {
        if (tryTake()) return true;
        while (true) {
            long wait = queueLeft();
            if (wait <= 0) return false;
            limit.shedWaitingSince(System.nanoTime() - headWhenFullNanos);
            if (free.tryAcquire(Math.min(wait, shedPeriodNanos), TimeUnit.NANOSECONDS)) {
                fullSince = 0;
                return true;
            }
        }
    }

    /** Takes a slot if one is free now; false when the server is full. */
    boolean tryTake() {
        if (!free.tryAcquire()) return false;
        fullSince = 0;
        return true;
    }

    /** Nanoseconds left before the server has been full for the queue timeout, starting the clock if it was not running. */
    private long queueLeft() {
        long now = System.nanoTime();
        if (fullSince == 0) fullSince = now;
        return fullSince + queueNanos - now;
    }

    /** Gives a slot back when its connection has closed. */
    void release() {
        free.release();
    }
}
