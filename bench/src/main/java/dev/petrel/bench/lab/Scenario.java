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

    /**
     * Whether the servers should also serve HTTPS, on the port after their HTTP port with the lab
     * certificate. Only the scenarios that measure HTTPS ask: an idle TLS listener would add
     * JSSE's classes and contexts to the other scenarios' figures (the idle scenario's heap).
     */
    default boolean https() {
        return false;
    }

    /** Measures one running server in one pass, recording samples through {@code run}. */
    void measure(Measurement run) throws Exception;

    /** Figures derived from several servers of the same pass (the latency overhead over the baseline). */
    default void derive(RunResults results) {}
}
