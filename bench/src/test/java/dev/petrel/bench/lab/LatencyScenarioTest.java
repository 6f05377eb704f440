package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.bench.model.RunResults;
import dev.petrel.bench.model.Sample;
import dev.petrel.bench.model.ServerInfo;
import dev.petrel.bench.model.ServerInfo.Group;
import org.junit.jupiter.api.Test;

/** The overhead over the baseline when the run has two baselines: the do-nothing C server's, not nginx's. */
class LatencyScenarioTest {
    @Test
    void theOverheadIsOverTheFirstBaselineOfTheRunWhateverOrderThePassRanIn() {
        RunResults results = new RunResults(null);
        results.server(new ServerInfo("baseline-c", Group.BASELINE, "C", null));
        results.server(new ServerInfo("petrel-nio", Group.PETREL, "Petrel", null));
        results.server(new ServerInfo("nginx", Group.BASELINE, "nginx", null));
        // a reversed pass measures nginx first
        results.add(new Sample("latency", LatencyScenario.SAME_CPU, "nginx", 2, "mean_us", 40));
        results.add(new Sample("latency", LatencyScenario.SAME_CPU, "petrel-nio", 2, "mean_us", 50));
        results.add(new Sample("latency", LatencyScenario.SAME_CPU, "baseline-c", 2, "mean_us", 30));

        new LatencyScenario(true, true).derive(results);

        assertThat(results.samples().stream().filter(s -> s.metric().equals("overhead_us")))
                .extracting(Sample::server, Sample::value)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("nginx", 10.0),
                        org.assertj.core.groups.Tuple.tuple("petrel-nio", 20.0), org.assertj.core.groups.Tuple.tuple("baseline-c", 0.0));
    }
}
