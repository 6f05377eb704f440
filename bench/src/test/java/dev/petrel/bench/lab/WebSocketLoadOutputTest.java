package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The load tool's arguments, both ways, and the lines the lab reads back; its histogram. */
class WebSocketLoadOutputTest {
    @Test
    void argumentsGiveTheSameRunBack() {
        String[] args = {"18400", "/ws/echo", "60", "4242", "check", "round-trip:text:10:500:2000",
                "rate:100:binary:65536:500:1000"};
        WebSocketLoad.Config config = WebSocketLoad.Config.parse(args);

        assertThat(config.server().getPort()).isEqualTo(18_400);
        assertThat(config.limit()).isEqualTo(Duration.ofSeconds(60));
        assertThat(config.serverPid()).isEqualTo(4242);
        assertThat(config.steps()).containsExactly(new WebSocketLoad.Check(),
                new WebSocketLoad.RoundTrip(WebSocketLoad.Kind.TEXT, 10, 500, 2000),
                new WebSocketLoad.Rate(100, WebSocketLoad.Kind.BINARY, 65_536, 500, 1000));
        assertThat(config.arguments()).containsExactly(args);
    }

    @Test
    void refusesStepsOutsideItsBounds() {
        assertThatThrownBy(() -> WebSocketLoad.Config.parse(new String[] {"18400", "/ws/echo", "60", "0", "rate:5000:text:10:0:1000"}))
                .hasMessageContaining("connections");
        assertThatThrownBy(() -> WebSocketLoad.Config.parse(new String[] {"18400", "/ws/echo", "60", "0", "round-trip:text:2000000:0:1"}))
                .hasMessageContaining("bytes");
        assertThatThrownBy(() -> WebSocketLoad.Config.parse(new String[] {"18400", "/ws/echo", "60", "0", "round-trip:json:10:0:1"}))
                .hasMessageContaining("text or binary");
        assertThatThrownBy(() -> WebSocketLoad.Config.parse(new String[] {"18400", "/ws/echo", "3600", "0", "check"}))
                .hasMessageContaining("limit");
    }

    @Test
    void readsEachStepsFiguresOrItsFailureAndIgnoresOtherLines() {
        WebSocketLoadOutput output = WebSocketLoadOutput.parse("""
                WARNING: something the JVM says
                check messages=5
                round-trip:text:10:500:2000 count=2000 seconds=0.250 mean_us=125.000 p50_us=89.000 p99_us=975.000 max_us=4303.573
                rate:100:text:10:500:1000 failed: IOException: every connection failed
                """);

        assertThat(output.step("check").ok()).isTrue();
        assertThat(output.step("round-trip:text:10:500:2000").figure("mean_us")).isEqualTo(125.0);
        assertThat(output.step("rate:100:text:10:500:1000").failure()).isEqualTo("IOException: every connection failed");
        assertThat(output.step("round-trip:binary:65536:50:200")).isNull();
        assertThatThrownBy(() -> output.step("check").figure("mean_us")).hasMessageContaining("no mean_us");
    }

    @Test
    void percentilesAreTheUpperEndOfTheirMicrosecondAndTheSlowestAreKeptApart() {
        LatencyHistogram times = new LatencyHistogram();
        for (int i = 1; i <= 98; i++) times.record(10_400); // 10.4 µs
        times.record(250_000);
        times.record(2_500_000_000L); // 2.5 s

        assertThat(times.count()).isEqualTo(100);
        assertThat(times.percentileMicros(50)).isEqualTo(11);
        assertThat(times.percentileMicros(99)).isEqualTo(251);
        assertThat(times.percentileMicros(100)).isEqualTo(2_500_000);
        assertThat(times.maxMicros()).isEqualTo(2_500_000);
        assertThat(new LatencyHistogram().percentileMicros(50)).isNaN();
        assertThat(List.of(times.percentileMicros(0.5))).containsExactly(11.0);
    }
}
