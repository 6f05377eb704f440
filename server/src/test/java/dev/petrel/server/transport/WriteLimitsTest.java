package dev.petrel.server.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.config.DataRate;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The deadlines a response write gets, the same on every transport. */
class WriteLimitsTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void aSliceMustBeTakenWithinTheGraceOrWhatItsBytesEarnAtTheMinimumRate() {
        WriteLimits limits = new WriteLimits(Duration.ofSeconds(20), new DataRate(1024, Duration.ofSeconds(5)));
        // 1 KiB earns 1 s, less than the grace: the grace decides
        assertThat(limits.deadline(0, 1024, 0, 0)).isEqualTo(5 * SECOND);
        // 16 KiB earn 16 s: more than the grace, less than the write timeout
        assertThat(limits.deadline(0, 16 * 1024, 0, 0)).isEqualTo(16 * SECOND);
        // and never beyond the write timeout from the last byte taken
        assertThat(limits.deadline(0, 64 * 1024, 0, 0)).isEqualTo(20 * SECOND);
        assertThat(limits.deadline(0, 64 * 1024, 30 * SECOND, 0)).isEqualTo(50 * SECOND);
    }

    @Test
    void theSocketsSendBufferIsAllowedForAtTheMinimumRate() {
        WriteLimits limits = new WriteLimits(Duration.ofSeconds(20), new DataRate(1024 * 1024, Duration.ofMillis(500)));
        // 16 KiB alone earn 16 ms, less than the grace
        assertThat(limits.deadline(0, 16 * 1024, 0, 0)).isEqualTo(SECOND / 2);
        // behind a full 2 MiB send buffer the kernel shows no progress until much of it has
        // drained: the slice earns the time the minimum rate takes for the buffer and itself
        assertThat(limits.deadline(0, 16 * 1024, 0, 2 * 1024 * 1024)).isEqualTo((2 * 1024 * 1024 + 16 * 1024) * SECOND / (1024 * 1024));
        // still never beyond the write timeout
        assertThat(limits.deadline(0, 16 * 1024, 0, 64L * 1024 * 1024)).isEqualTo(20 * SECOND);
    }

    @Test
    void withoutAMinimumRateOnlyTheWriteTimeoutCounts() {
        WriteLimits limits = new WriteLimits(Duration.ofSeconds(20), DataRate.OFF);
        assertThat(limits.deadline(0, 1, 0, 0)).isEqualTo(20 * SECOND);
        assertThat(limits.deadline(0, Integer.MAX_VALUE, 7 * SECOND, 0)).isEqualTo(27 * SECOND);
    }

    @Test
    void writesAreSlicedBySixteenKibibytesWithoutASmallTail() {
        assertThat(WriteLimits.slice(100)).isEqualTo(100);
        assertThat(WriteLimits.slice(16 * 1024 + 300)).as("a full response buffer with its head").isEqualTo(16 * 1024 + 300);
        assertThat(WriteLimits.slice(20 * 1024)).isEqualTo(20 * 1024);
        assertThat(WriteLimits.slice(20 * 1024 + 1)).isEqualTo(16 * 1024);
        assertThat(WriteLimits.slice(1 << 20)).isEqualTo(16 * 1024);
    }

    @Test
    void theWatchdogLooksAFewTimesPerShortestAllowance() {
        assertThat(new WriteLimits(Duration.ofSeconds(20), new DataRate(240, Duration.ofSeconds(5))).checkPeriodMillis()).isEqualTo(1000);
        assertThat(new WriteLimits(Duration.ofMillis(400), DataRate.OFF).checkPeriodMillis()).isEqualTo(100);
        assertThat(new WriteLimits(Duration.ofSeconds(20), new DataRate(240, Duration.ofMillis(200))).checkPeriodMillis()).isEqualTo(50);
    }
}
