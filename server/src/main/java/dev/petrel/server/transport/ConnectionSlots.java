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
     * Waits until a slot is free, while the server has been full for less than the queue timeout,
     * without taking it: the listeners share the slots, and an acceptor waiting in accept() must
     * not hold one that another listener's client could use (with one slot and two listeners, the
     * second would turn its first client away). Returns at once when the server has been full
     * for the queue timeout already: the next connection is then accepted and, unless a slot
     * frees, turned away by {@link #take()}.
     */
    void awaitFree() throws InterruptedException {
        if (free.availablePermits() > 0) {
            fullSince = 0;
            return;
        }
        long wait = queueLeft();
        if (wait > 0 && free.tryAcquire(wait, TimeUnit.NANOSECONDS)) {
            free.release(); // seen free; taken only for an accepted connection
            fullSince = 0;
        }
    }

    /**
     * Takes a slot for a connection just accepted: one free now, or one freed within what is left
     * of the queue timeout (another listener may have taken the slot seen free before accept).
     *
     * @return whether a slot was taken; false turns the connection away
     */
    boolean take() throws InterruptedException {
        if (free.tryAcquire()) {
            fullSince = 0;
            return true;
        }
        long wait = queueLeft();
        if (wait > 0 && free.tryAcquire(wait, TimeUnit.NANOSECONDS)) {
            fullSince = 0;
            return true;
        }
        return false;
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
