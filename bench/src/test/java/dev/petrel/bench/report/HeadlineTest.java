package dev.petrel.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.NotApplicable;
import dev.petrel.bench.model.RunResults;
import dev.petrel.bench.model.Sample;
import dev.petrel.bench.model.ScenarioInfo;
import dev.petrel.bench.model.ScenarioInfo.Layout;
import dev.petrel.bench.model.ServerInfo;
import dev.petrel.bench.model.ServerInfo.Group;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The headline: per scenario and variant the best Petrel median against the best peer's. */
class HeadlineTest {

    @Test
    void theReportOpensWithTheBestPetrelAgainstTheBestPeer() {
        String md = ReportWriter.markdown(RunFixture.run(false));

        List<String> lines = md.lines().toList();
        int at = lines.indexOf("## Headline");
        assertThat(lines.get(at + 2)).isEqualTo(Headline.EXPLANATION);
        assertThat(lines.subList(at + 4, at + 9)).containsExactly(
                "| Scenario | Variant | Metric | Best Petrel | Best peer | × best peer |",
                "| --- | --- | --- | ---: | ---: | ---: |",
                // round trip, lower is better: petrel-virtual 50 against undertow 61, 61/50
                "| latency | same-cpu | round-trip (µs) | 50.0 (petrel-virtual) | 61.0 (undertow) | 1.22 |",
                // petrel-nio is Petrel's best across CPUs: 71 against jetty's 86
                "| latency | cross-cpu | round-trip (µs) | 71.0 (petrel-nio) | 86.0 (jetty) | 1.21 |",
                // a ramp: its last level only, where undertow has no result and jetty is the best peer
                "| ramp | 3000 users | requests/s (req/s) | 17,300 (petrel-virtual) | 13,400 (jetty) | 1.29 |");
        assertThat(lines.get(at + 9)).isEmpty();
        assertThat(md.indexOf("## Headline")).isLessThan(md.indexOf("## Environment"));
    }

    @Test
    void theLabPrintsTheSameTableAsPlainText() {
        assertThat(ReportWriter.headline(RunFixture.run(false)).lines().toList()).containsExactly(
                "Scenario  Variant     Metric                          Best Petrel        Best peer  × best peer",
                "latency   same-cpu    round-trip (µs)       50.0 (petrel-virtual)  61.0 (undertow)         1.22",
                "latency   cross-cpu   round-trip (µs)           71.0 (petrel-nio)     86.0 (jetty)         1.21",
                "ramp      3000 users  requests/s (req/s)  17,300 (petrel-virtual)   13,400 (jetty)         1.29");
    }

    @Test
    void aSideWithoutFigureSaysWhetherItIsNotApplicableOrMissing() {
        MetricInfo rps = new MetricInfo("rps", "requests/s", "req/s", true);
        RunResults r = new RunResults(AggregationTest.environment());
        r.server(new ServerInfo("petrel-nio", Group.PETREL, "Petrel", null));
        r.server(new ServerInfo("helidon", Group.PEER, "Helidon", null));
        r.server(new ServerInfo("jetty", Group.PEER, "Jetty", null));
        r.scenario(new ScenarioInfo("connectors", "000", "Connectors", "ab", List.of(rps), List.of("keep-alive", "close"),
                Layout.SERVERS_BY_VARIANT));
        r.add(new Sample("connectors", "keep-alive", "petrel-nio", 1, "rps", 1000));
        r.add(new Sample("connectors", "keep-alive", "jetty", 1, "rps", 800));
        r.add(new Sample("connectors", "close", "jetty", 1, "rps", 500));
        r.notApplicable(new NotApplicable("connectors", "close", "petrel-nio", "no reason at all"));
        r.notApplicable(new NotApplicable("connectors", "keep-alive", "helidon", "answers HTTP/1.0 with 505"));
        r.notApplicable(new NotApplicable("connectors", "close", "helidon", "answers HTTP/1.0 with 505"));

        assertThat(ReportWriter.headline(r).lines().skip(1).toList()).containsExactly(
                "connectors  keep-alive  requests/s (req/s)  1,000 (petrel-nio)  800 (jetty)         1.25",
                "connectors  close       requests/s (req/s)                 n/a  500 (jetty)            –");
    }

    @Test
    void aRunWithoutAnyPrimaryFigureHasNoHeadline() {
        RunResults r = new RunResults(AggregationTest.environment());
        assertThat(ReportWriter.headline(r)).isEmpty();
        assertThat(ReportWriter.markdown(r)).doesNotContain("## Headline");
    }
}
