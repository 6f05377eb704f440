package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.bench.model.ServerInfo;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A smoke run starts each server once per way of starting it, and the baselines and one Petrel
 * server in every scenario; nothing a scenario can measure goes unstarted by the whole run.
 */
class SmokeSelectionTest {
    @TempDir
    Path home;

    @Test
    void eachServerRunsOncePerLaunchAndEveryScenarioKeepsItsBaselineAndAPetrel() throws LabException {
        LabPaths paths = new LabPaths(home, Path.of("/jdk/bin/java"));
        List<ServerSpec> servers = ServerCatalog.all(paths);
        List<Scenario> scenarios = List.of(new LatencyScenario(true, false), new SingleCpuScenario(true), new TailScenario(true),
                new ConnectorsScenario(true), new IdleScenario(true, true), new H2Scenario(true));
        Map<Scenario, List<ServerSpec>> applicable = new LinkedHashMap<>();
        for (Scenario scenario : scenarios) applicable.put(scenario, Applicability.applicable(scenario, servers));

        Map<Scenario, List<ServerSpec>> chosen = SmokeSelection.select(scenarios, applicable);

        Scenario latency = scenarios.get(0);
        Scenario singleCpu = scenarios.get(1);
        Scenario tail = scenarios.get(2);
        // the first scenario of a launch starts all it can measure
        assertThat(chosen.get(latency)).isEqualTo(applicable.get(latency));
        // a later one of the same launch: the baseline, the first Petrel, and those the first one could not measure
        // and those the latency scenario could not start (ab cannot measure Helidon)
        List<String> notInLatency = names(applicable.get(singleCpu)).stream()
                .filter(n -> !names(applicable.get(latency)).contains(n)).toList();
        assertThat(notInLatency).contains("helidon");
        List<String> baselines = applicable.get(singleCpu).stream().filter(s -> s.group() == ServerInfo.Group.BASELINE)
                .map(ServerSpec::name).toList();
        assertThat(baselines).contains("baseline-c");
        assertThat(names(chosen.get(singleCpu))).contains("petrel-blocking").containsAll(baselines).containsAll(notInLatency)
                .hasSize(1 + baselines.size() + notInLatency.size());
        assertThat(names(chosen.get(tail))).containsExactlyInAnyOrderElementsOf(
                Stream.concat(baselines.stream(), Stream.of("petrel-blocking")).toList());
        // HTTPS is a launch of its own: the connectors scenario starts everything again, idle-tls after it does not
        assertThat(chosen.get(scenarios.get(3))).isEqualTo(applicable.get(scenarios.get(3)));
        assertThat(chosen.get(scenarios.get(4)).size()).isLessThan(applicable.get(scenarios.get(4)).size());
        // a launch with HTTPS covers the same one without: plain HTTP after the connectors scenario starts only the must-runs
        List<Scenario> httpsFirst = List.of(new ConnectorsScenario(true), new LatencyScenario(true, false));
        Map<Scenario, List<ServerSpec>> plainAfter = SmokeSelection.select(httpsFirst, Map.of(
                httpsFirst.get(0), Applicability.applicable(httpsFirst.get(0), servers),
                httpsFirst.get(1), Applicability.applicable(httpsFirst.get(1), servers)));
        assertThat(names(plainAfter.get(httpsFirst.get(1)))).containsExactlyInAnyOrderElementsOf(
                Stream.concat(baselines.stream().filter(names(applicable.get(latency))::contains), Stream.of("petrel-blocking")).toList());
        // every (server, scenario) pair of the run that was left out was started the same way before
        Set<String> everyApplicable = applicable.values().stream().flatMap(List::stream).map(ServerSpec::name).collect(Collectors.toSet());
        Set<String> everyChosen = chosen.values().stream().flatMap(List::stream).map(ServerSpec::name).collect(Collectors.toSet());
        assertThat(everyChosen).isEqualTo(everyApplicable);
    }

    private static List<String> names(List<ServerSpec> specs) {
        return specs.stream().map(ServerSpec::name).toList();
    }
}
