package dev.petrel.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DataRateTest {
    @Test
    void theWaitAllowedIsTheGraceOrWhatTheBytesEarnIfMore() {
        DataRate rate = new DataRate(240, Duration.ofSeconds(5));
        assertThat(rate.allowedWaitNanos(0)).isEqualTo(TimeUnit.SECONDS.toNanos(5));
        assertThat(rate.allowedWaitNanos(240 * 5)).isEqualTo(TimeUnit.SECONDS.toNanos(5));
        assertThat(rate.allowedWaitNanos(240 * 60)).isEqualTo(TimeUnit.SECONDS.toNanos(60));
        assertThat(rate.allowedWaitNanos(Long.MAX_VALUE)).as("no overflow").isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void offAllowsAnyWait() {
        assertThat(DataRate.OFF.enabled()).isFalse();
        assertThat(DataRate.OFF.allowedWaitNanos(0)).isEqualTo(Long.MAX_VALUE);
        assertThat(DataRate.OFF).hasToString("off");
        assertThat(new DataRate(240, Duration.ofSeconds(5))).hasToString("240 B/s after 5000 ms");
    }

    @Test
    void refusesNegativeValues() {
        assertThatThrownBy(() -> new DataRate(-1, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DataRate(1, Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
    }
}
