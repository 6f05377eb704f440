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
        assertThat(Applicability.reason(new IdleScenario(true, false), helidon)).isNull();
    }

    @Test
    void aDeclaredToolIsCheckedWhateverTheServer() {
        ServerSpec undertow = named(catalog(), "undertow").unmeasurableBy(LoadTool.WRK, "a reason");

        assertThat(Applicability.reason(new SingleCpuScenario(true), undertow)).isEqualTo("not measurable with wrk: a reason");
        assertThat(Applicability.reason(new LatencyScenario(true, false), undertow)).isNull();
        assertThat(undertow.unmeasurableBy(LoadTool.AB, "another").unmeasurableBy()).containsOnlyKeys(LoadTool.WRK, LoadTool.AB);
    }

    @Test
    void serversThatDifferOnlyInTheirTlsEngineAreMeasuredOverTlsOnly() {
        List<ServerSpec> servers = catalog();

        assertThat(servers.stream().filter(s -> s.onlyOverTls() != null)).extracting(ServerSpec::name).containsExactly(
                "petrel-blocking-native", "petrel-virtual-native", "petrel-nio-native", "petrel-nio-inline-native",
                "netty-epoll-boringssl");
        assertThat(servers.stream().filter(s -> s.onlyOverTls() != null)).extracting(ServerSpec::onlyOverTls)
                .containsOnly(ServerCatalog.ONLY_TLS_ENGINE);
        assertThat(ServerCatalog.ONLY_TLS_ENGINE).contains("TLS engine", "changes nothing without TLS");
    }

    @Test
    void aTlsOnlyServerIsNotRunByScenariosOverPlainHttp() {
        ServerSpec nativeNio = named(catalog(), "petrel-nio-native");
        String reason = ServerCatalog.ONLY_TLS_ENGINE;

        for (Scenario plain : List.of(new LatencyScenario(true, false), new SingleCpuScenario(true), new RampScenario(true),
                new IdleScenario(true, false))) {
            assertThat(Applicability.reason(plain, nativeNio)).as(plain.info().name()).isEqualTo(reason);
        }
        // AJP has no TLS either; the ajp scenario's own reason comes first
        assertThat(Applicability.reason(new AjpScenario(true, new LabPaths(home, Path.of("/jdk/bin/java"))), nativeNio))
                .isEqualTo("speaks no AJP");
    }

    @Test
    void inTheConnectorsScenarioATlsOnlyServerRunsForTheHttpsColumnsAlone() {
        List<ServerSpec> servers = catalog();
        ConnectorsScenario connectors = new ConnectorsScenario(true);
        ServerSpec boringSsl = named(servers, "netty-epoll-boringssl");

        assertThat(Applicability.reason(connectors, boringSsl)).isNull();
        assertThat(Applicability.applicable(connectors, servers)).contains(boringSsl, named(servers, "petrel-nio-native"));
        assertThat(ConnectorsScenario.VARIANTS).map(v -> Applicability.measures(connectors, boringSsl, v.name()))
                .containsExactly(false, false, true, true, false, true);
        // its twin, and every other server, in every column
        assertThat(ConnectorsScenario.VARIANTS).allMatch(v -> Applicability.measures(connectors, named(servers, "netty-epoll"), v.name()));

        RunResults results = new RunResults(null);
        Lab.markNotApplicable(connectors, List.of(boringSsl, named(servers, "petrel-nio")), results);
        String reason = ServerCatalog.ONLY_TLS_ENGINE;
        assertThat(results.notApplicable()).containsExactly(
                new NotApplicable("connectors", "HTTP keep-alive", "netty-epoll-boringssl", reason),
                new NotApplicable("connectors", "HTTP no keep-alive", "netty-epoll-boringssl", reason),
                new NotApplicable("connectors", "HTTP keep-alive (ab -k, client-bound)", "netty-epoll-boringssl", reason));
    }

    @Test
    void theTlsScenarioRunsOneServerPerTlsStackAndMarksTheOthers() {
        List<ServerSpec> servers = catalog();
        TlsScenario tls = new TlsScenario(true);

        assertThat(Applicability.applicable(tls, servers)).extracting(ServerSpec::name).containsExactlyInAnyOrderElementsOf(TlsScenario.SERVERS);
        assertThat(Applicability.reason(tls, named(servers, "petrel-virtual"))).isEqualTo(TlsScenario.NOT_IN_SET);
        assertThat(Applicability.reason(tls, named(servers, "baseline-c"))).isEqualTo(TlsScenario.NOT_IN_SET);
        // ab rules helidon out before the set does
        assertThat(Applicability.reason(tls, named(servers, "helidon"))).startsWith("not measurable with ab");

        RunResults results = new RunResults(null);
        Lab.markNotApplicable(tls, List.of(named(servers, "petrel-virtual"), named(servers, "petrel-nio-native")), results);
        assertThat(results.notApplicable()).extracting(NotApplicable::server).containsOnly("petrel-virtual");
        assertThat(results.notApplicable()).extracting(NotApplicable::scenario).containsOnly("tls", "tls-cold-start");
        assertThat(results.notApplicable()).hasSize(5);
    }

    @Test
    void nginxIsMeasuredWhereverItsHttpAndHttpsReach() {
        List<ServerSpec> servers = catalog();
        ServerSpec nginx = named(servers, "nginx");

        for (Scenario scenario : List.of(new LatencyScenario(true, false), new ConnectorsScenario(true), new SingleCpuScenario(true),
                new RampScenario(true), new IdleScenario(true, false), new TlsScenario(true))) {
            assertThat(Applicability.reason(scenario, nginx)).as(scenario.info().name()).isNull();
        }
        assertThat(Applicability.reason(new AjpScenario(true, new LabPaths(home, Path.of("/jdk/bin/java"))), nginx)).isNotNull();
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
