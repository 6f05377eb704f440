package dev.petrel.bench.soak;

import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A fault the soak injected: what, on which listeners, and when. A request of the soak's clients
 * that failed on one of those listeners while it ran, or within {@link #AFTERMATH} after, is
 * counted as injected; any other failure fails the soak.
 *
 * @param name      the fault's kind, e.g. {@code H2_RAPID_RESET} or {@code HTTPD_PAUSE}
 * @param listeners the listeners it hit ({@link SoakRoute#listener()}'s names), or {@code *} for all
 * @param start     on {@link System#nanoTime()}
 * @param end       the same clock
 * @param detail    what it sent and what came back
 */
record SoakFault(String name, Set<String> listeners, long start, long end, String detail) {
    /** How long after its end a fault may still fail requests: a connection it left that a client then uses, a queue it filled. */
    static final long AFTERMATH = TimeUnit.SECONDS.toNanos(2);
    private static final long BEFORE = TimeUnit.SECONDS.toNanos(1);

    /** Whether {@code outcome} failed where and when this fault could have made it fail. */
    boolean explains(SoakOutcome outcome) {
        boolean where = listeners.contains("*") || listeners.contains(outcome.route().listener());
        return where && outcome.start() <= end + AFTERMATH && outcome.end() >= start - BEFORE;
    }
}
