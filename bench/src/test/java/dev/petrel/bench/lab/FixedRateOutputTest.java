package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The fixed-rate generator's report, as a lab run wrote it (petrel-nio through mod_jk, quick). */
class FixedRateOutputTest {
    private static final String REPORT = """
            url: http://127.0.0.1:37765/
            rate per second: 400
            duration ms: 3000
            connections: 16
            timeout ms: 2000
            started late ms: 0
            scheduled: 1200
            completed: 1200
            ok: 1190
            non-200: 1
            connect errors: 2
            read errors: 3
            timeouts: 4
            unfinished: 0
            connections opened: 16
            achieved per second: 400.225
            latency p50 ms: 0.340
            latency p90 ms: 0.762
            latency p99 ms: 9.910
            latency max ms: 37.868
            generator lag p99 ms: 2.017
            generator lag max ms: 3.549
            """;

    @Test
    void readsEveryFigure() {
        FixedRateOutput out = FixedRateOutput.parse(REPORT);

        assertThat(out).isEqualTo(new FixedRateOutput(1200, 1190, 1, 2, 3, 4, 0, 0, 400.225, 0.340, 9.910, 37.868, 3.549));
        assertThat(out.errors()).isEqualTo(10);
        assertThat(out.errorText()).isEqualTo("connect 2, read 3, timeout 4, non-200 1, unfinished 0");
    }

    @Test
    void namesTheLineThatIsMissingOrUnreadable() {
        assertThatThrownBy(() -> FixedRateOutput.parse(REPORT.replace("timeouts: 4\n", "")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'timeouts:'");
        assertThatThrownBy(() -> FixedRateOutput.parse(REPORT.replace("ok: 1190", "ok: many")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'ok' is not a whole number");
        assertThatThrownBy(() -> FixedRateOutput.parse("FixedRateLoad: usage: ...\n"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
