package dev.petrel.server.transport;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The connection limit, as one listener's acceptor sees it: a slot per connection served, taken
 * from the {@link ConnectionLimit} the listeners share, and a clock for how long the server has
 * been full. Only this listener's acceptor thread acquires; any thread releases. While it waits
 * for a slot it sheds, a few times per {@code headTimeoutWhenFull}, the connections of every
 * listener that have waited that long for a request head, so that slow or idle clients make room
 * for the one waiting.
 */
final class ConnectionSlots {
    private final ConnectionLimit limit;
    private final Semaphore free;
    private final long queueNanos;
    private final long headWhenFullNanos;
    private final long shedPeriodNanos;
    private long fullSince; // acceptor thread only; 0 while slots are free

    ConnectionSlots(ConnectionLimit limit, Duration queueTimeout, Duration headTimeoutWhenFull) {
        this.limit = limit;
        this.free = limit.free;
        this.queueNanos = queueTimeout.toNanos();
        this.headWhenFullNanos = headTimeoutWhenFull.toNanos();
        this.shedPeriodNanos = Math.clamp(headWhenFullNanos / 4, TimeUnit.MILLISECONDS.toNanos(10), TimeUnit.MILLISECONDS.toNanos(500));
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
        if (acquireShedding()) {
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
        if (free.tryAcquire() || acquireShedding()) {
            fullSince = 0;
            return true;
        }
        return false;
    }

    /**
     * Waits for a slot within what is left of the queue timeout, shedding connections that have
     * waited too long for a head before each part of the wait; returns whether a slot was taken.
     */
    private boolean acquireShedding() throws InterruptedException {
        while (true) {
            long wait = queueLeft();
            if (wait <= 0) return false;
            limit.shedWaitingSince(System.nanoTime() - headWhenFullNanos);
            if (free.tryAcquire(Math.min(wait, shedPeriodNanos), TimeUnit.NANOSECONDS)) return true;
        }
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
