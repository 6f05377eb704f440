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
import dev.petrel.bench.report.Aggregation.VariantResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A connectors-like run: four variants, the baseline without TLS (not applicable in the HTTPS
 * variants), a peer that failed one variant, and the TLS sessions noted.
 */
class NotApplicableReportTest {
    private static final List<String> VARIANTS =
            List.of("HTTP keep-alive", "HTTP no keep-alive", "HTTPS keep-alive", "HTTPS no keep-alive");
    private static final String NO_TLS = "the C baseline speaks no TLS";

    private static RunResults run() {
        RunResults r = new RunResults(AggregationTest.environment());
        r.server(new ServerInfo("dummy", Group.BASELINE, "C", null));
        r.server(new ServerInfo("petrel-nio", Group.PETREL, "Petrel nio", null));
        r.server(new ServerInfo("jetty", Group.PEER, "Jetty", null));
        r.server(new ServerInfo("helidon", Group.PEER, "Helidon, refuses HTTP/1.0", null));
        r.scenario(new ScenarioInfo("connectors", "000", "Connectors", "ab", List.of(
                new MetricInfo("rps", "requests/s", "req/s", true)), VARIANTS, Layout.SERVERS_BY_VARIANT));
        double[] petrel = {40000, 10000, 30000, 900};
        double[] jetty = {30000, 8000, 20000, 700};
        for (int i = 0; i < VARIANTS.size(); i++) {
            r.add(new Sample("connectors", VARIANTS.get(i), "petrel-nio", 1, "rps", petrel[i]));
            if (i != 3) r.add(new Sample("connectors", VARIANTS.get(i), "jetty", 1, "rps", jetty[i]));
        }
        r.add(new Sample("connectors", VARIANTS.get(0), "dummy", 1, "rps", 80000));
        r.add(new Sample("connectors", VARIANTS.get(1), "dummy", 1, "rps", 20000));
        r.notApplicable(new NotApplicable("connectors", VARIANTS.get(2), "dummy", NO_TLS));
        r.notApplicable(new NotApplicable("connectors", VARIANTS.get(3), "dummy", NO_TLS));
        r.notApplicable(new NotApplicable("connectors", VARIANTS.get(3), "dummy", "marked twice: the first reason stays"));
        r.note("connectors", "TLS negotiated by ab with jetty: TLSv1.3, TLS_AES_256_GCM_SHA384");
        r.note("connectors", "TLS negotiated by ab with jetty: TLSv1.3, TLS_AES_256_GCM_SHA384");
        return r;
    }

    @Test
    void theOverviewHasAColumnPerVariantAndSaysNotApplicableApartFromNoResult() {
        String md = ReportWriter.markdown(run());

        List<String> overview = MarkdownReportTest.table(md, "### requests/s (req/s), median per server");
        assertThat(overview).containsExactly(
                "| Server | HTTP keep-alive | HTTP no keep-alive | HTTPS keep-alive | HTTPS no keep-alive |",
                "| --- | ---: | ---: | ---: | ---: |",
                "| dummy (baseline) | 80,000 | 20,000 | n/a | n/a |",
                "| **petrel-nio** | 40,000 | 10,000 | 30,000 | 900 |",
                "| jetty | 30,000 | 8,000 | 20,000 | no result |",
                "| helidon | no result | no result | no result | no result |");
    }

    @Test
    void anHttpsVariantTableGivesTheReasonAndNoBaselineRatio() {
        String md = ReportWriter.markdown(run());

        List<String> https = MarkdownReportTest.table(md, "### HTTPS no keep-alive (1 pass)");
        assertThat(https.getFirst()).isEqualTo("| Server | requests/s (req/s) |");
        assertThat(https).contains("| dummy (baseline) | n/a (" + NO_TLS + ") |", "| jetty | no result |");
        assertThat(md).doesNotContain("marked twice");
    }

    @Test
    void notesAreListedOnceUnderTheScenario() {
        String md = ReportWriter.markdown(run());

        assertThat(md).containsOnlyOnce("- TLS negotiated by ab with jetty: TLSv1.3, TLS_AES_256_GCM_SHA384");
        assertThat(md.indexOf("### Notes")).isGreaterThan(md.indexOf("### HTTPS no keep-alive"));
    }

    @Test
    void aVariantWhereTheOnlyServerIsNotApplicableIsStillReported() {
        RunResults r = new RunResults(AggregationTest.environment());
        r.server(new ServerInfo("dummy", Group.BASELINE, "C", null));
        r.scenario(new ScenarioInfo("connectors", "000", "Connectors", "ab", List.of(
                new MetricInfo("rps", "requests/s", "req/s", true)), VARIANTS, Layout.SERVERS_BY_VARIANT));
        r.add(new Sample("connectors", VARIANTS.get(0), "dummy", 1, "rps", 80000));
        r.notApplicable(new NotApplicable("connectors", VARIANTS.get(2), "dummy", NO_TLS));

        Aggregation.ScenarioResult scenario = Aggregation.of(r).scenarios().getFirst();

        assertThat(scenario.variants()).containsExactly(VARIANTS.get(0), VARIANTS.get(2));
        VariantResult https = scenario.variant(VARIANTS.get(2));
        assertThat(https.entry("dummy").hasResult()).isFalse();
        assertThat(https.entry("dummy").notApplicable()).isEqualTo(NO_TLS);
        assertThat(scenario.missing()).isEmpty();
    }

    @Test
    void theHtmlReportAndTheChartsSayNotApplicableToo() {
        Aggregation aggregation = Aggregation.of(run());
        List<Charts.Chart> charts = Charts.plan(aggregation);
        String html = HtmlReport.render(MarkdownReport.render(Outline.of(aggregation, charts)));

        assertThat(html).contains("n/a (" + NO_TLS + ")");
        assertThat(charts).anySatisfy(c -> assertThat(c.svg().get()).contains("n/a"));
    }

    /** A ramp-like scenario in which the baseline and jetty can have no figure at all (as without AJP). */
    private static RunResults everywhere(boolean anyMeasured) {
        List<String> levels = List.of("10 connections", "100 connections");
        RunResults r = new RunResults(AggregationTest.environment());
        r.server(new ServerInfo("dummy", Group.BASELINE, "C", null));
        r.server(new ServerInfo("petrel-nio", Group.PETREL, "Petrel nio", null));
        r.server(new ServerInfo("jetty", Group.PEER, "Jetty", null));
        r.server(new ServerInfo("helidon", Group.PEER, "Helidon", null));
        r.scenario(new ScenarioInfo("ladder", "002", "Ladder", "wrk", List.of(
                new MetricInfo("rps", "requests/s", "req/s", true)), levels, Layout.VARIANTS_BY_SERVER));
        for (String level : levels) {
            if (anyMeasured) r.add(new Sample("ladder", level, "petrel-nio", 1, "rps", 1000));
            r.notApplicable(new NotApplicable("ladder", level, "dummy", "speaks no AJP"));
            r.notApplicable(new NotApplicable("ladder", level, "jetty", "speaks no AJP"));
        }
        return r;
    }

    @Test
    void aServerNotApplicableInEveryVariantIsNamedOnceAndInNoTable() {
        RunResults r = everywhere(true);
        Aggregation.ScenarioResult scenario = Aggregation.of(r).scenarios().getFirst();

        assertThat(scenario.servers()).extracting(ServerInfo::name).containsExactly("petrel-nio");
        assertThat(scenario.inapplicable()).extracting(i -> i.server().name() + ": " + i.reason())
                .containsExactly("dummy: speaks no AJP", "jetty: speaks no AJP");
        assertThat(scenario.missing()).extracting(ServerInfo::name).containsExactly("helidon");

        String md = ReportWriter.markdown(r);
        String section = md.substring(md.indexOf("## Ladder"));
        assertThat(section).containsOnlyOnce("Not applicable (speaks no AJP): dummy, jetty.");
        assertThat(MarkdownReportTest.table(md, "### requests/s (req/s), median per server").getFirst())
                .isEqualTo("| Variant | petrel-nio | helidon |");
        assertThat(section).doesNotContain("### dummy").doesNotContain("### jetty").contains("### petrel-nio (Petrel)");
    }

    @Test
    void aScenarioNobodyCouldMeasureSaysWhyWithoutAnEmptyTable() {
        RunResults r = onlyTheInapplicable(everywhere(false));

        String md = ReportWriter.markdown(r);
        String section = md.substring(md.indexOf("## Ladder"), md.indexOf("## Problems"));

        assertThat(section).contains("No server has a result in this scenario.",
                "Not applicable (speaks no AJP): dummy, jetty.");
        assertThat(section).doesNotContain("| Server | Result |");
        // a server that simply has no result still gets its row
        assertThat(ReportWriter.markdown(everywhere(false))).contains("| helidon | no result |");
    }

    /** The run with only the servers that are not applicable anywhere (dummy and jetty). */
    private static RunResults onlyTheInapplicable(RunResults source) {
        RunResults r = new RunResults(source.environment());
        source.servers().stream().filter(s -> s.name().equals("dummy") || s.name().equals("jetty")).forEach(r::server);
        source.scenarios().forEach(r::scenario);
        source.samples().forEach(r::add);
        source.notApplicable().forEach(r::notApplicable);
        return r;
    }
}
