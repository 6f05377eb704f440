package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.bench.model.NotApplicable;
import dev.petrel.bench.model.RunResults;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Applicability is declared: a server names the load tools that cannot measure it, a scenario the
 * tools it measures with, and the lab marks the pair "n/a" with the reason instead of running it.
 */
class ApplicabilityTest {
    @TempDir
    Path home;

    private List<ServerSpec> catalog() {
        return ServerCatalog.all(new LabPaths(home, Path.of("/jdk/bin/java")));
    }

    private static ServerSpec named(List<ServerSpec> servers, String name) {
        return servers.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void helidonIsDeclaredUnmeasurableByAbAndByNoOtherTool() {
        ServerSpec helidon = named(catalog(), "helidon");

        assertThat(helidon.unmeasurableBy()).containsOnlyKeys(LoadTool.AB);
        assertThat(helidon.unmeasurableBy().get(LoadTool.AB)).contains("HTTP/1.0", "505");
        assertThat(catalog().stream().filter(s -> !s.unmeasurableBy().isEmpty()).map(ServerSpec::name)).containsExactly("helidon");
    }

    @Test
    void theScenariosMeasuredWithAbLeaveHelidonOutAndTheOthersRunIt() {
        List<ServerSpec> servers = catalog();
        ServerSpec helidon = named(servers, "helidon");

        assertThat(Applicability.reason(new LatencyScenario(true, false), helidon))
                .isEqualTo("not measurable with ab: " + ServerCatalog.HELIDON_AND_AB);
        assertThat(Applicability.reason(new ConnectorsScenario(true), helidon)).startsWith("not measurable with ab: ");
        assertThat(Applicability.applicable(new ConnectorsScenario(true), servers)).doesNotContain(helidon)
                .contains(named(servers, "undertow"), named(servers, "petrel-nio"));
        // h2load, wrk and the lab's own client speak HTTP/1.1
        assertThat(Applicability.reason(new RampScenario(true), helidon)).isNull();
        assertThat(Applicability.reason(new SingleCpuScenario(true), helidon)).isNull();
        assertThat(Applicability.reason(new IdleScenario(true), helidon)).isNull();
    }

    @Test
    void aDeclaredToolIsCheckedWhateverTheServer() {
        ServerSpec undertow = named(catalog(), "undertow").unmeasurableBy(LoadTool.WRK, "a reason");

        assertThat(Applicability.reason(new SingleCpuScenario(true), undertow)).isEqualTo("not measurable with wrk: a reason");
        assertThat(Applicability.reason(new LatencyScenario(true, false), undertow)).isNull();
        assertThat(undertow.unmeasurableBy(LoadTool.AB, "another").unmeasurableBy()).containsOnlyKeys(LoadTool.WRK, LoadTool.AB);
    }

    @Test
    void everyCellOfAnInapplicableServerIsMarkedWithTheReason() {
        List<ServerSpec> servers = catalog();
        RunResults results = new RunResults(null);
        LatencyScenario latency = new LatencyScenario(true, false);

        Lab.markNotApplicable(latency, List.of(named(servers, "helidon"), named(servers, "petrel-nio")), results);

        String reason = "not measurable with ab: " + ServerCatalog.HELIDON_AND_AB;
        assertThat(results.notApplicable()).containsExactly(
                new NotApplicable("latency", LatencyScenario.CROSS_CPU, "helidon", reason),
                new NotApplicable("latency", LatencyScenario.SAME_CPU, "helidon", reason));
    }
}
