package dev.petrel.bench.soak;

import java.util.concurrent.TimeUnit;

/**
 * What one fault did, for the soak to put client failures down to it: a request that failed on
 * the same listener while the fault ran is counted as injected, not as a failure of the server.
 *
 * @param kind the fault
 * @param listener the name of the listener it aimed at ({@code plain}, {@code tls-jsse},
 *        {@code tls-native}, {@code proxy})
 * @param start when it began, on {@link System#nanoTime()}
 * @param end when its last socket was closed, on {@link System#nanoTime()}
 * @param detail one line: what it sent and what came back
 */
public record FaultRecord(FaultKind kind, String listener, long start, long end, String detail) {
    /** Whether the fault was running on {@code listener} at {@code nanoTime}. */
    public boolean covers(String listener, long nanoTime) {
        return this.listener.equals(listener) && nanoTime - start >= 0 && end - nanoTime >= 0;
    }

    /** How long it ran, in milliseconds. */
    public long millis() {
        return TimeUnit.NANOSECONDS.toMillis(end - start);
    }

    @Override
    public String toString() {
        return kind + " on " + listener + " (" + millis() + " ms): " + detail;
    }
}
