package dev.petrel.bench.lab;

import java.time.Duration;

/**
 * How much of a scenario is left: its steps (one server in one pass each) times the time a step
 * takes, less what the current step has already run. A step's time is the scenario's own estimate
 * ({@link Scenario#stepEstimate()}) until one has finished, then the mean of those that have: the
 * estimate only has to be right until the lab knows better.
 */
final class TimeLeft {
    private final int steps;
    private final Duration estimate;
    private int done;
    private long doneNanos;

    /**
     * @param steps the scenario's steps (servers it runs × passes)
     * @param estimate the time one step is expected to take before any has finished
     */
    TimeLeft(int steps, Duration estimate) {
        this.steps = steps;
        this.estimate = estimate;
    }

    int steps() {
        return steps;
    }

    /** Steps finished so far. */
    int done() {
        return done;
    }

    /** Records a finished step that took {@code nanos}. */
    void stepDone(long nanos) {
        done++;
        doneNanos += nanos;
    }

    /** The time a step takes: the measured mean once a step has finished, else the estimate. */
    Duration perStep() {
        return done == 0 ? estimate : Duration.ofNanos(doneNanos / done);
    }

    /** The whole scenario's time as estimated before it ran. */
    Duration estimatedTotal() {
        return estimate.multipliedBy(steps);
    }

    /**
     * The time left, the current step having run {@code currentNanos} (0 between steps). A step
     * that overran the mean counts as nearly done, not as finished: it is still running.
     */
    Duration remaining(long currentNanos) {
        if (done >= steps) return Duration.ZERO;
        Duration perStep = perStep();
        Duration current = Duration.ofNanos(Math.min(currentNanos, perStep.toNanos() * 9 / 10));
        return perStep.multipliedBy(steps - done).minus(current);
    }
}
