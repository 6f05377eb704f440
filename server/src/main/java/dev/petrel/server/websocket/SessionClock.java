package dev.petrel.server.websocket;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The times of one session that the {@link SessionWatch} looks at: by when the frame being sent
 * must be written. The session notes it as it goes, at the cost of a volatile write or two per
 * frame; the watch decides.
 */
final class SessionClock {
    private final long sendTimeoutNanos;
    private final Runnable cutSend;
    private final AtomicLong sendDeadline = new AtomicLong(); // System.nanoTime() by which the frame being written must be out; 0: none is
    private volatile boolean sendCut;

    /**
     * @param cutSend ends the session under a send past its timeout; run on the watch's thread, so it must not block
     */
    SessionClock(Duration sendTimeout, Runnable cutSend) {
        this.sendTimeoutNanos = sendTimeout.toNanos();
        this.cutSend = cutSend;
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

    /** On the watch's thread, at {@code now}: cuts the send in progress if it is overdue. Never blocks. */
    void look(long now) {
        long deadline = sendDeadline.get();
        // the compare-and-set: a frame that was written meanwhile, and the next one's deadline, are left alone
        if (deadline != 0 && now - deadline > 0 && sendDeadline.compareAndSet(deadline, 0)) {
            sendCut = true;
            cutSend.run();
        }
    }
}
