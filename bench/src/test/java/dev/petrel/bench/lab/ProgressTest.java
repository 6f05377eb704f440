package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lines the lab prints while it runs, on a terminal and in a log, against a clock the test moves. */
class ProgressTest {
    private static final long SECOND = 1_000_000_000L;

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private long now;

    private Progress progress(boolean terminal, List<Progress.Plan> plans) {
        return new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), terminal, () -> now, plans);
    }

    private String printed() {
        String text = bytes.toString(StandardCharsets.UTF_8);
        bytes.reset();
        return text;
    }

    @Test
    void eachScenarioAndStepSaysTheTimeLeftEstimatedThenMeasured() {
        Progress p = progress(false, List.of(new Progress.Plan("ajp", 24, Duration.ofSeconds(20)),
                new Progress.Plan("idle", 10, Duration.ofSeconds(30))));

        p.scenario("ajp");
        assertThat(printed()).isEqualTo("ajp: 24 steps (server start, warm-up, load: ~20 s each), ~8 min; the run: ~13 min left\n");
        p.step(1, 3, "petrel-nio", 1, 8);
        // before any step has finished: 24 × the estimate of 20 s, and idle's 10 × 30 s after it
        assertThat(printed()).isEqualTo("ajp: step 1/24 (pass 1/3, petrel-nio 1/8), ~8 min left (the run: ~13 min)\n");
        now += 10 * SECOND;
        p.step(1, 3, "tomcat-nio", 2, 8);
        now += 10 * SECOND;
        p.step(1, 3, "jetty", 3, 8);
        // two steps took 10 s each: 22 steps left at the measured 10 s (220 s), not the estimated 20 (440 s)
        assertThat(printed()).endsWith("ajp: step 3/24 (pass 1/3, jetty 3/8), ~4 min left (the run: ~9 min)\n");
        p.scenarioDone();
        p.scenario("idle");
        p.step(1, 1, "petrel-nio", 1, 10);
        // the last scenario: its own time left is the run's
        assertThat(printed()).endsWith("idle: step 1/10 (pass 1/1, petrel-nio 1/10), ~5 min left\n");
    }

    @Test
    void onATerminalTheLiveLineIsRewrittenInPlaceAndWipedBeforeOtherLines() {
        Progress p = progress(true, List.of(new Progress.Plan("latency", 2, Duration.ofSeconds(60))));
        p.scenario("latency");
        p.step(1, 1, "petrel-nio", 1, 2);
        printed();

        now += 3 * SECOND;
        p.live("ab same CPU: 12,500 req/s so far");
        now += SECOND / 4;
        p.live("ab same CPU: 12,600 req/s so far");
        p.note("problem: something");

        assertThat(printed()).isEqualTo("\r\033[K  ab same CPU: 12,500 req/s so far; ~2 min left"
                + "\r\033[K  ab same CPU: 12,600 req/s so far; ~2 min left"
                + "\r\033[K  problem: something\n");
        p.live("x".repeat(200));
        assertThat(printed()).hasSize("\r\033[K".length() + 79).endsWith("x...");
        p.liveDone();
        assertThat(printed()).isEqualTo("\r\033[K");
    }

    @Test
    void inALogTheLiveLineIsALineOfItsOwnAtMostEveryFiveSeconds() {
        Progress p = progress(false, List.of(new Progress.Plan("single-cpu", 1, Duration.ofSeconds(23))));
        p.scenario("single-cpu");
        p.step(1, 1, "petrel-nio", 1, 1);
        printed();

        for (int tick = 1; tick <= 48; tick++) { // 12 s of live updates, four a second
            now += SECOND / 4;
            p.live("wrk 35 KB page: " + tick);
        }
        // the first 5 s into the step, then 5 s later; none of the other 46, and no carriage return
        assertThat(printed()).isEqualTo("  wrk 35 KB page: 20; ~18 s left\n"
                + "  wrk 35 KB page: 40; ~13 s left\n");
        p.liveDone();
        assertThat(printed()).isEmpty();
    }

    @Test
    void timesReadAsRoughAsTheyAre() {
        assertThat(Progress.human(Duration.ofSeconds(45))).isEqualTo("45 s");
        assertThat(Progress.human(Duration.ofSeconds(89))).isEqualTo("89 s");
        assertThat(Progress.human(Duration.ofSeconds(150))).isEqualTo("3 min");
        assertThat(Progress.human(Duration.ofMinutes(80))).isEqualTo("80 min");
        assertThat(Progress.human(Duration.ofMinutes(125))).isEqualTo("2 h 5 min");
        assertThat(Progress.human(Duration.ofSeconds(-3))).isEqualTo("0 s");
    }
}
