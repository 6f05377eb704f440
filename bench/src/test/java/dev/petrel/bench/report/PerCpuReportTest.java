package dev.petrel.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.bench.model.Environment;
import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.RunResults;
import dev.petrel.bench.model.Sample;
import dev.petrel.bench.model.ScenarioInfo;
import dev.petrel.bench.model.ScenarioInfo.Layout;
import dev.petrel.bench.model.ServerInfo;
import dev.petrel.bench.model.ServerInfo.Group;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Passes alternate the server's CPU: every output gives each CPU's median beside the median of all
 * passes, and the headline compares the bests on each CPU too, leaving out a scenario's asides
 * (the connectors scenario's client-bound ab -k columns).
 */
class PerCpuReportTest {
    private static final MetricInfo RPS = new MetricInfo("rps", "requests/s", "req/s", true);
    private static final String WRK = "HTTP keep-alive";
    private static final String AB_K = "HTTP keep-alive (ab -k, client-bound)";

    /** Four passes, server on CPU 0 in odd ones; Petrel ahead on CPU 0, behind on CPU 1, level over all. */
    private static RunResults run(int passes) {
        RunResults r = new RunResults(new Environment("2026-01-01T10:00:00Z", "abc", "25", "", "6.8", "cpu", 2, 0, 1,
                Map.of(), "x", false, true));
        r.server(new ServerInfo("petrel-nio", Group.PETREL, "Petrel", null));
        r.server(new ServerInfo("jetty", Group.PEER, "Jetty", null));
        r.scenario(new ScenarioInfo("connectors", "000", "Connectors", "wrk and ab", List.of(RPS), List.of(WRK, AB_K),
                Layout.SERVERS_BY_VARIANT, List.of(), Set.of(AB_K)));
        double[] petrel = {1000, 1400, 1100, 1300};
        double[] jetty = {900, 1500, 950, 1450};
        for (int pass = 1; pass <= passes; pass++) {
            int cpu = pass % 2 == 1 ? 0 : 1;
            r.add(new Sample("connectors", WRK, "petrel-nio", pass, "rps", petrel[pass - 1], cpu));
            r.add(new Sample("connectors", WRK, "jetty", pass, "rps", jetty[pass - 1], cpu));
            // under ab -k the client is the limit: here jetty would look 2x better, and the headline must not say so
            r.add(new Sample("connectors", AB_K, "petrel-nio", pass, "rps", 300, cpu));
            r.add(new Sample("connectors", AB_K, "jetty", pass, "rps", 600, cpu));
        }
        return r;
    }

    @Test
    void eachCpusMedianIsKeptBesideTheMedianOfAllPasses() {
        Aggregation.ScenarioResult s = Aggregation.of(run(4)).scenarios().getFirst();
        Aggregation.Entry petrel = s.variant(WRK).entry("petrel-nio");

        assertThat(s.serverCpus()).containsExactly(0, 1);
        assertThat(petrel.summary("rps").median()).isEqualTo(1200);
        assertThat(petrel.summary("rps", 0).median()).isEqualTo(1050);
        assertThat(petrel.summary("rps", 1).median()).isEqualTo(1350);
        assertThat(petrel.summary("rps", 0).count()).isEqualTo(2);
    }

    @Test
    void theVariantTablesAndTheCsvGiveBothAssignments() {
        RunResults r = run(4);
        String md = ReportWriter.markdown(r);
        Aggregation.ScenarioResult s = Aggregation.of(r).scenarios().getFirst();

        assertThat(md).contains("| Server | requests/s (req/s) | requests/s (req/s), server on CPU 0 / CPU 1 | × best peer |")
                .contains("| 1,050 / 1,350 |", "| 925 / 1,475 |")
                .contains("Passes alternated the CPUs")
                .contains("odd passes: servers on CPU 0, load tools on CPU 1; even passes: the other way round")
                .doesNotContain("only (one pass)");
        assertThat(CsvWriter.summary(s).lines()).contains("connectors,HTTP keep-alive,petrel-nio,rps,1200,1000,1400,4,,1,1050,1350");
        assertThat(CsvWriter.samples(s).lines()).contains("connectors,HTTP keep-alive,jetty,2,rps,1500,1");
    }

    @Test
    void theHeadlineComparesTheBestsOnEachCpuAndLeavesTheClientBoundColumnOut() {
        List<String> lines = ReportWriter.headline(run(4)).lines().toList();

        assertThat(lines.getFirst()).contains("× best peer", "× best peer, server on CPU 0", "× best peer, server on CPU 1");
        assertThat(lines).hasSize(2);
        // over all passes 1200 against 1200; on CPU 0 1050/925, on CPU 1 1350/1475
        assertThat(lines.get(1)).startsWith("connectors  HTTP keep-alive ")
                .contains("1.00", "1.14 (petrel-nio vs jetty)", "0.92 (petrel-nio vs jetty)")
                .doesNotContain("ab -k");
    }

    @Test
    void aScenarioMeasuredOnOneAssignmentOnlySaysSoAndHasNoPerCpuColumns() {
        RunResults r = run(1);
        String md = ReportWriter.markdown(r);

        assertThat(md).contains("Measured with the server on CPU 0 only (one pass)")
                .doesNotContain("server on CPU 0 / CPU 1");
        assertThat(ReportWriter.headline(r).lines().toList().getFirst()).doesNotContain("server on CPU");
    }
}
