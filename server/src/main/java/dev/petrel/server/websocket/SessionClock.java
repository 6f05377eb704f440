package dev.petrel.server.websocket;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The times of one session that the {@link SessionWatch} looks at: by when the frame being sent
 * must be written, and when the client was last heard from and last pinged. The session notes
 * them as it goes, at the cost of a volatile write or two per frame; the watch decides.
 */
final class SessionClock {
    private final long sendTimeoutNanos;
    private final long pingIntervalNanos; // 0: no keep-alive pings
    private final Runnable cutSend;
    private final Runnable ping;
    private final AtomicLong sendDeadline = new AtomicLong(); // System.nanoTime() by which the frame being written must be out; 0: none is
    private final AtomicBoolean pinging = new AtomicBoolean();
    private volatile boolean sendCut;
    private volatile long lastHeard;
    private long lastPinged; // the watch's thread only

    /**
     * @param cutSend ends the session under a send past its timeout; run on the watch's thread, so it must not block
     * @param ping pings the client; run on a virtual thread of its own, as it waits for the socket like any send
     */
    SessionClock(Duration sendTimeout, Duration pingInterval, Runnable cutSend, Runnable ping) {
        this.sendTimeoutNanos = sendTimeout.toNanos();
        this.pingIntervalNanos = pingInterval.toNanos();
        this.cutSend = cutSend;
        this.ping = ping;
        this.lastHeard = System.nanoTime();
        this.lastPinged = lastHeard;
    }

    /** The send timeout, in nanoseconds. */
    long sendTimeoutNanos() {
        return sendTimeoutNanos;
    }

    /** A frame is about to be written: it must be out within the send timeout. */
    void sendStarting() {
        long deadline = System.nanoTime() + sendTimeoutNanos;
        sendDeadline.set(deadline == 0 ? 1 : deadline); // 0 means "not sending"
    }

    /** The frame was written, or its write failed. */
    void sendDone() {
        sendDeadline.set(0);
    }

    /** Whether the watch cut a send that was past its timeout. */
    boolean sendCut() {
        return sendCut;
    }

    /** Bytes came from the client at {@code now} ({@link System#nanoTime()}, which the reader has at hand): it is not quiet. */
    void heard(long now) {
        lastHeard = now;
    }

    /**
     * On the watch's thread, at {@code now}: cuts the send in progress if it is overdue, or starts
     * a keep-alive ping if the client has been quiet for the ping interval since it was last heard
     * from or pinged. Never blocks.
     */
    void look(long now) {
        long deadline = sendDeadline.get();
        // the compare-and-set: a frame that was written meanwhile, and the next one's deadline, are left alone
        if (deadline != 0 && now - deadline > 0 && sendDeadline.compareAndSet(deadline, 0)) {
            sendCut = true;
            cutSend.run();
            return;
        }
        if (pingIntervalNanos > 0 && now - lastHeard >= pingIntervalNanos && now - lastPinged >= pingIntervalNanos
                && pinging.compareAndSet(false, true)) {
            lastPinged = now;
            Thread.ofVirtual().name("petrel-websocket-ping").start(() -> {
                try {
                    ping.run();
                } finally {
                    pinging.set(false);
                }
            });
        }
    }
}
