package dev.petrel.server.engine.exchange;

import dev.petrel.server.Detached;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The completion of a detached response: the exchange's thread waits in {@link #await} until
 * another thread completes or fails it, or the timeout passes, whichever comes first; what comes
 * after is refused.
 */
final class Completion implements Detached {
    /** How a detached response ended. */
    enum Outcome { COMPLETED, FAILED, TIMED_OUT }

    private final long timeoutNanos;
    private Outcome outcome; // guarded by this
    private Throwable failure; // guarded by this

    Completion(Duration timeout) {
        this.timeoutNanos = Math.max(1, timeout.toNanos());
    }

    @Override
    public synchronized boolean complete() {
        if (outcome != null) return false;
        outcome = Outcome.COMPLETED;
        notifyAll();
        return true;
    }

    @Override
    public synchronized boolean fail(Throwable failure) {
        if (outcome != null) return false;
        this.failure = failure != null ? failure : new IllegalStateException("failed without a cause");
        outcome = Outcome.FAILED;
        notifyAll();
        return true;
    }

    @Override
    public synchronized boolean done() {
        return outcome != null;
    }

    /** Waits for the outcome; at the timeout, it is {@link Outcome#TIMED_OUT} and later calls are refused. */
    synchronized Outcome await() throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        while (outcome == null) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                outcome = Outcome.TIMED_OUT;
                break;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return outcome;
    }

    /** What {@link #fail} was given, after {@link Outcome#FAILED}. */
    synchronized Throwable failure() {
        return failure;
    }

    /** How long the exchange waits, for a log line. */
    long timeoutMillis() {
        return TimeUnit.NANOSECONDS.toMillis(timeoutNanos);
    }
}
