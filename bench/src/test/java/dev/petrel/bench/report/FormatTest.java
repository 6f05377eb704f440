package dev.petrel.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class FormatTest {

    @Test
    void valuesFollowTheirUnit() {
        assertThat(Format.value(30223.4, "req/s")).isEqualTo("30,223");
        assertThat(Format.value(42.25, "req/s")).isEqualTo("42.3");
        assertThat(Format.value(1234.56, "µs")).isEqualTo("1,234.6");
        assertThat(Format.value(3.0, "ms")).isEqualTo("3.0");
        assertThat(Format.value(44400, "ns")).isEqualTo("44,400");
        assertThat(Format.value(12.96, "%")).isEqualTo("12.96");
        assertThat(Format.value(1500, "")).isEqualTo("1,500");
        assertThat(Format.value(0.125, "MB")).isEqualTo("0.13");
        assertThat(Format.value(-0.01, "%")).isEqualTo("-0.01");
        assertThat(Format.value(-0.001, "%")).isEqualTo("0.00");
        assertThat(Format.value(Double.NaN, "%")).isEqualTo("–");
        assertThat(Format.range(9000, 9500, "req/s")).isEqualTo("9,000–9,500");
    }

    @Test
    void ratiosHaveTwoDecimalsAndCsvNumbersArePlain() {
        assertThat(Format.ratio(1.2345)).isEqualTo("1.23");
        assertThat(Format.ratio(Double.NaN)).isEqualTo("–");
        assertThat(Format.csv(1e7)).isEqualTo("10000000");
        assertThat(Format.csv(0.1)).isEqualTo("0.1");
        assertThat(Format.csv(42.0)).isEqualTo("42");
        assertThat(Format.csvRatio(2.0 / 3)).isEqualTo("0.6667");
        assertThat(Format.csvRatio(Double.NaN)).isEmpty();
    }

    @Test
    void slugsAreFileNameSafe() {
        assertThat(Format.slug("1000 users")).isEqualTo("1000-users");
        assertThat(Format.slug("Crème brûlée / keep-alive!")).isEqualTo("creme-brulee-keep-alive");
        assertThat(Format.slug("并发")).isEmpty();
        assertThat(Aggregation.unique(new java.util.HashSet<>(List.of("a", "a-2")), "a")).isEqualTo("a-3");
    }

    @Test
    void scalesAreRoundAndCoverTheLargestValue() {
        Svg.Scale s = Svg.Scale.of(23500, 5);
        assertThat(s.step()).isEqualTo(5000);
        assertThat(s.max()).isEqualTo(25000);
        assertThat(s.ticks()).containsExactly(0.0, 5000.0, 10000.0, 15000.0, 20000.0, 25000.0);
        assertThat(Svg.Scale.of(1.5, 5).step()).isEqualTo(0.5);
        assertThat(Svg.Scale.of(100, 5).max()).isEqualTo(100);
        assertThat(Svg.Scale.of(0, 5).max()).isEqualTo(1);
        assertThat(Format.tick(0.5, 0.5)).isEqualTo("0.5");
        assertThat(Format.tick(0.04, 0.02)).isEqualTo("0.04");
        assertThat(Format.tick(25000, 5000)).isEqualTo("25,000");
    }
}
