package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each scenario's step estimate is the sum of its own durations and request counts at the nominal rates. */
class StepEstimateTest {
    @TempDir
    Path home;

    @Test
    void singleCpuIsStartWarmUpAndItsWrkDuration() {
        assertThat(new SingleCpuScenario(true).stepEstimate()).isEqualTo(Duration.ofSeconds(3 + 1 + 2));
        assertThat(new SingleCpuScenario(false).stepEstimate()).isEqualTo(Duration.ofSeconds(3 + 5 + 15));
    }

    @Test
    void latencyIsTheWarmUpAndRunOfEachVariantAtOneConnectionsRate() {
        // (20,000 + 100,000) requests at 15,000 a second = 8 s per variant, two variants
        assertThat(new LatencyScenario(false, false).stepEstimate()).isEqualTo(Duration.ofSeconds(3 + 8 + 8));
        assertThat(new LatencyScenario(false, true).stepEstimate()).isEqualTo(Duration.ofSeconds(3 + 8));
    }

    @Test
    void connectorsIsMostlyItsHandshakes() {
        ConnectorsScenario full = new ConnectorsScenario(false);
        // 10,000 full handshakes at 400 a second
        assertThat(full.httpsEstimate()).isGreaterThan(Duration.ofSeconds(25));
        assertThat(full.stepEstimate()).isEqualTo(NominalTimes.HELLO_START.plus(full.httpEstimate()).plus(full.httpsEstimate()));
        assertThat(new ConnectorsScenario(true).stepEstimate()).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void theRampGrowsWithItsLevelsAndTheApplicationStartsSlower() {
        Duration ramp = new RampScenario(false).stepEstimate();
        // six levels, each 2 s apart and ramped up in 5 s, 1,275,000 requests in all at 30,000 a second
        assertThat(ramp).isEqualTo(Duration.ofSeconds(3 + 1).plusMillis(667).plusSeconds(6 * 7).plusMillis(42_500));
        assertThat(RampScenario.tomcat(false).stepEstimate().minus(ramp))
                .isEqualTo(NominalTimes.APPLICATION_START.minus(NominalTimes.HELLO_START));
    }

    @Test
    void aFullAjpStepIsItsFourMinutesOfWindowsAndLadders() {
        AjpScenario ajp = new AjpScenario(false, new LabPaths(home, Path.of("/jdk/bin/java")));
        // per module: httpd 2 + warm-up 10 + lead 2 + window 60; ladder: httpd 2 + warm-up 5 + 5 × (10 + 2)
        assertThat(ajp.stepEstimate()).isEqualTo(Duration.ofSeconds(3 + 2 * (74 + 67)));
    }

    @Test
    void everyQuickScenarioTakesSecondsAStep() {
        LabPaths paths = new LabPaths(home, Path.of("/jdk/bin/java"));
        for (Scenario s : new Scenario[] {new LatencyScenario(true, false), new ConnectorsScenario(true),
                new SingleCpuScenario(true), new RampScenario(true), new IdleScenario(true, false), new AjpScenario(true, paths),
                new TomcatScenario(true, paths), RampScenario.tomcat(true)}) {
            assertThat(s.stepEstimate()).as(s.info().name()).isBetween(Duration.ofSeconds(3), Duration.ofSeconds(40));
        }
    }
}
