package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Steps × the time of a step: estimated until one has run, then measured. */
class TimeLeftTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void theEstimateHoldsUntilAStepHasRunThenTheMeanOfThoseThatHave() {
        TimeLeft left = new TimeLeft(10, Duration.ofSeconds(30));
        assertThat(left.estimatedTotal()).isEqualTo(Duration.ofMinutes(5));
        assertThat(left.remaining(0)).isEqualTo(Duration.ofMinutes(5));

        left.stepDone(10 * SECOND);
        left.stepDone(20 * SECOND);
        assertThat(left.perStep()).isEqualTo(Duration.ofSeconds(15));
        assertThat(left.remaining(0)).isEqualTo(Duration.ofSeconds(8 * 15));
        // the estimate of the whole stays what it was: the later scenarios' share of a run's time left
        assertThat(left.estimatedTotal()).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void theCurrentStepCountsWhatItHasRunButNotPastNineTenths() {
        TimeLeft left = new TimeLeft(2, Duration.ofSeconds(10));

        assertThat(left.remaining(4 * SECOND)).isEqualTo(Duration.ofSeconds(16));
        // a step running long is nearly done, not done: it still holds the lab
        assertThat(left.remaining(60 * SECOND)).isEqualTo(Duration.ofSeconds(11));
        left.stepDone(10 * SECOND);
        left.stepDone(10 * SECOND);
        assertThat(left.remaining(0)).isZero();
    }
}
