package dev.petrel.server.http2;

/**
 * The connection's receive window (RFC 9113 section 6.9): what the client may still send in DATA
 * on all streams together. DATA takes from it as the reader receives it; bytes the handlers read,
 * or that are dropped unread, go back to the client in {@code WINDOW_UPDATE}s of half the window
 * at a time, so that a steady upload costs few updates. The reader and the streams' handlers
 * share it, under its own lock.
 */
final class ReceiveWindow {
    private final int size;
    private int window;          // guarded by this: what the client may still send
    private int unacknowledged;  // guarded by this: bytes given back, not yet announced

    /** A window of {@code size} bytes, the size announced to the client. */
    ReceiveWindow(int size) {
        this.size = size;
        this.window = size;
    }

    /** A DATA frame of {@code flowLength} bytes (padding included) arrived; false when it went beyond the window. */
    synchronized boolean take(int flowLength) {
        window -= flowLength;
        return window >= 0;
    }

    /**
     * Gives {@code n} bytes back.
     *
     * @return the increment to announce in a {@code WINDOW_UPDATE} on stream 0 now, or 0
     */
    synchronized int credit(int n) {
        unacknowledged += n;
        if (unacknowledged < size / 2) return 0;
        int increment = unacknowledged;
        window += increment;
        unacknowledged = 0;
        return increment;
    }
}
