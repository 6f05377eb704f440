package dev.petrel.bench.lab;

import java.util.Comparator;
import java.util.List;

/** What a concurrency ladder reached: the highest rate at a level without errors, and the highest at any. */
final class Ladder {
    private Ladder() {}

    /**
     * One level.
     *
     * @param connections the concurrency
     * @param rps requests per second
     * @param errors requests that failed: socket errors and responses that were not 2xx or 3xx
     */
    record Step(int connections, double rps, long errors) {}

    /**
     * The ladder's summary.
     *
     * @param bestWithoutErrors the level with the highest rate among those without any error, or
     *     {@code null} when every level had errors (or there were none)
     * @param best the level with the highest rate, errors or not, or {@code null} when there were none
     */
    record Summary(Step bestWithoutErrors, Step best) {}

    /** Summarizes {@code steps}; of two levels with the same rate, the one with fewer connections. */
    static Summary summarize(List<Step> steps) {
        Comparator<Step> byRate = Comparator.comparingDouble(Step::rps)
                .thenComparing(Comparator.comparingInt(Step::connections).reversed());
        Step best = steps.stream().max(byRate).orElse(null);
        Step clean = steps.stream().filter(s -> s.errors() == 0).max(byRate).orElse(null);
        return new Summary(clean, best);
    }
}
