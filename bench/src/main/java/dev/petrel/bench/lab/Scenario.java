package dev.petrel.bench.lab;

import dev.petrel.bench.model.RunResults;
import dev.petrel.bench.model.ScenarioInfo;

/**
 * One of the seeds' experiments. The runner starts each server (pinned, ready), hands it to
 * {@link #measure}, and stops it; the scenario warms it up and runs its load tool.
 */
interface Scenario {
    /** What the report says of this scenario. */
    ScenarioInfo info();

    /**
     * Why this scenario cannot run on this machine, in one line, or {@code null} when it can. Asked
     * once, before any server is started for it.
     */
    default String unavailable() {
        return null;
    }

    /** Measures one running server in one pass, recording samples through {@code run}. */
    void measure(Measurement run) throws Exception;

    /** Figures derived from several servers of the same pass (the latency overhead over the baseline). */
    default void derive(RunResults results) {}
}
