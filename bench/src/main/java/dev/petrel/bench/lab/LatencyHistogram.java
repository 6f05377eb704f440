package dev.petrel.bench.lab;

/**
 * Round-trip times counted in 1 µs steps up to one second, and the slower ones apart with their
 * maximum: a fixed 4 MB however many round trips a run has (a load run of 10 s at 300,000 messages
 * a second would need 24 MB as an array of times), to the resolution the report gives.
 *
 * <p>Not thread-safe: the load tool records from one thread.
 */
final class LatencyHistogram {
    private static final int LIMIT_MICROS = 1_000_000;

    private final int[] counts = new int[LIMIT_MICROS];
    private long total;
    private long slower; // at or above LIMIT_MICROS
    private long maxNanos;

    /** Counts one round trip of {@code nanos}. */
    void record(long nanos) {
        long micros = nanos / 1000;
        if (micros < LIMIT_MICROS) counts[(int) micros]++;
        else slower++;
        if (nanos > maxNanos) maxNanos = nanos;
        total++;
    }

    /** How many round trips were counted. */
    long count() {
        return total;
    }

    /** The longest, in µs. */
    double maxMicros() {
        return maxNanos / 1000.0;
    }

    /**
     * The {@code percent} percentile in µs, to the microsecond: the smallest step at or below which
     * that share of the round trips lie (its upper end, so that it never understates), or the
     * maximum when it lies among the slower-than-a-second ones. NaN when nothing was counted.
     */
    double percentileMicros(double percent) {
        if (total == 0) return Double.NaN;
        long rank = Math.max(1, (long) Math.ceil(total * percent / 100.0));
        long seen = 0;
        for (int micros = 0; micros < LIMIT_MICROS; micros++) {
            seen += counts[micros];
            if (seen >= rank) return Math.min(micros + 1, maxMicros());
        }
        return maxMicros();
    }
}
