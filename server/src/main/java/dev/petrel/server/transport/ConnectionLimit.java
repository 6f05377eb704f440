package dev.petrel.server.transport;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;

/**
 * How many connections may be served at once, shared by every listener given the same instance:
 * a server listening for HTTP and HTTPS serves at most this many over both, so that one limit
 * fits under one open-file limit. When it is reached, the thread admitting for any listener may shed the
 * connections of every listener sharing it (see {@link ListenerSettings}).
 */
public final class ConnectionLimit {
    private final int max;
    final Semaphore free; // a permit per connection that may still be served
    private final List<Listener<?>> listeners = new CopyOnWriteArrayList<>();

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

    void register(Listener<?> listener) {
        listeners.add(listener);
    }

    void unregister(Listener<?> listener) {
        listeners.remove(listener);
    }

    /**
     * Closes, on every listener sharing this limit, the connections waiting for a request head
     * since before {@code waitingSinceBefore} ({@link System#nanoTime()}); returns how many.
     */
    int shedWaitingSince(long waitingSinceBefore) {
        int shed = 0;
        for (Listener<?> listener : listeners) shed += listener.shed(waitingSinceBefore);
        return shed;
    }
}
