package dev.petrel.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.RunResults;
import dev.petrel.bench.model.Sample;
import dev.petrel.bench.model.ScenarioInfo;
import dev.petrel.bench.model.ScenarioInfo.Layout;
import dev.petrel.bench.model.ServerInfo;
import dev.petrel.bench.model.ServerInfo.Group;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MarkdownReportTest {
    private final String md = ReportWriter.markdown(RunFixture.run(false));

    /** The lines of the table right under {@code heading}, header and separator included. */
    static List<String> table(String md, String heading) {
        List<String> lines = md.lines().toList();
        int at = lines.indexOf(heading);
        assertThat(at).as("heading %s", heading).isNotNegative();
        List<String> table = new ArrayList<>();
        for (int i = at + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) table.add(lines.get(i));
        return table;
    }

    private static String firstCell(String row) {
        return row.split(" \\| ")[0].substring(2);
    }

    @Test
    void titleAndEnvironmentOfAFullRunCarryNoQuickWarning() {
        assertThat(md).startsWith("# Petrel benchmark report, 2025-06-01\n\n## Headline\n");
        assertThat(md).contains("\n## Environment\n");
        assertThat(md).doesNotContain("--quick").doesNotContain("Warning");
        assertThat(md).contains("- **Petrel commit:** `5f411e1`", "- **JVM options:** `-Xms1g -Xmx1g`",
                "- **CPU:** AMD EPYC 7B13, 8 CPUs", "- **Pinning:** servers on CPU 2, load tools on CPU 3",
                "- **Tool wrk:** wrk 4.2.0 [epoll]", "- **Command:** `./petrel bench latency`");
    }

    @Test
    void aQuickRunSaysSoInTheTitleAndInBold() {
        String quick = ReportWriter.markdown(RunFixture.run(true));
        assertThat(quick.lines().findFirst().orElseThrow()).isEqualTo("# Petrel benchmark report, 2025-06-01 (--quick run)");
        assertThat(quick).contains("\n**Warning: this was a --quick smoke run")
                .contains("Its figures mean nothing");
    }

    @Test
    void serversByVariantTablesRankBaselinePetrelPeersBestFirstWithRatios() {
        assertThat(md).contains("\n## Per-request latency over one keep-alive connection [seeds 004]\n\n"
                + "`ab -k -c1 -n100000`, server and `ab` pinned to *separate* CPUs.\n");
        List<String> same = table(md, "### same-cpu (3 passes)");
        assertThat(same.getFirst()).isEqualTo(
                "| Server | round-trip (µs) | requests/s (req/s) | p50 (µs) | p99 (µs) | × baseline | × best peer |");
        assertThat(same.get(1)).isEqualTo("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
        assertThat(same.subList(2, same.size())).extracting(MarkdownReportTest::firstCell).containsExactly(
                "dummy (baseline)", "**petrel-virtual**", "**petrel-nio**", "undertow (best peer)", "jetty",
                "tomcat-nio", "netty");
        // 42/50 = 0.84 and 61/50 = 1.22; rps 1e6/50, 1e6/52, 1e6/49; p50 = 0.9 rtt; p99 = 2.5 rtt
        assertThat(same.get(3)).isEqualTo("| **petrel-virtual** | 50.0 (49.0–52.0) | 20,000 (19,231–20,408) "
                + "| 45.0 (44.1–46.8) | 125.0 (122.5–130.0) | 0.84 | 1.22 |");
        assertThat(same.get(2)).endsWith("| 1.00 | 1.45 |"); // the baseline against the best peer: 61/42
        assertThat(same.getLast()).isEqualTo("| netty | no result | | | | | |");

        // the server without any sample is listed once, in the scenario's first table
        List<String> cross = table(md, "### cross-cpu (3 passes)");
        assertThat(cross.subList(2, cross.size())).extracting(MarkdownReportTest::firstCell).containsExactly(
                "dummy (baseline)", "**petrel-nio**", "**petrel-virtual**", "jetty (best peer)", "undertow", "tomcat-nio");
        assertThat(md.indexOf("### same-cpu")).isLessThan(md.indexOf("### cross-cpu"));
    }

    @Test
    void rampHasAnOverviewAndATablePerServerInVariantOrder() {
        List<String> overview = table(md, "### requests/s (req/s), median per server");
        assertThat(overview).containsExactly(
                "| Variant | dummy | petrel-virtual | petrel-nio | jetty | tomcat-nio | undertow | netty |",
                "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
                "| 1000 users | 21,000 | 15,500 | 14,200 | 12,250 | 9,250 | 13,200 | no result |",
                "| 2000 users | 24,000 | 18,250 | 16,400 | 14,050 | 10,050 | 15,250 | no result |",
                "| 3000 users | 23,250 | 17,300 | 15,900 | 13,400 | 9,800 | no result | no result |");
        // identical passes show no range: errors were the same in both
        assertThat(table(md, "### petrel-virtual (Petrel)")).containsExactly(
                "| Variant | requests/s (req/s) | errors (%) |",
                "| --- | ---: | ---: |",
                "| 1000 users | 15,500 (15,000–16,000) | 0.50 |",
                "| 2000 users | 18,250 (18,000–18,500) | 1.00 |",
                "| 3000 users | 17,300 (17,000–17,600) | 1.50 |");
        assertThat(table(md, "### undertow (peer)")).contains("| 3000 users | no result | |");
        assertThat(md.indexOf("### dummy (baseline)")).isLessThan(md.indexOf("### petrel-virtual (Petrel)"));
    }

    @Test
    void chartsAreLinkedBelowTheirScenario() {
        int latency = md.indexOf("## Per-request latency"), ramp = md.indexOf("## Users ramp"), problems = md.indexOf("## Problems");
        int bars = md.indexOf("![Per-request latency over one keep-alive connection: same-cpu](latency-same-cpu.svg)");
        assertThat(bars).isBetween(md.indexOf("### cross-cpu"), ramp);
        assertThat(md.indexOf("(latency-same-cpu-percentiles.svg)")).isBetween(latency, ramp);
        assertThat(md.indexOf("(latency-cross-cpu.svg)")).isBetween(latency, ramp);
        assertThat(md.indexOf("![Users ramp: requests/s](ramp-rps.svg)")).isBetween(ramp, problems);
        assertThat(md.indexOf("![Users ramp: errors](ramp-errors.svg)")).isBetween(ramp, problems);
        assertThat(md).contains("Data: [latency.csv](latency.csv) (every pass), [latency-summary.csv](latency-summary.csv)");
    }

    @Test
    void serversResponseSamplesProblemsAndEscaping() {
        assertThat(md).contains("| Server | Group | Description |", "| **petrel-nio** | Petrel | Petrel, NIO transport |",
                "| netty | peer | Netty 4.2, never started |");
        assertThat(md).contains("| jetty | peer | Jetty 12 &lt;script&gt;alert('x')&lt;/script&gt; |")
                .doesNotContain("<script>");
        assertThat(md).contains("<details>\n<summary>", "**dummy** (49 bytes; CRLF shown as line breaks)\n\n"
                + "```http\nHTTP/1.1 200 OK\nContent-Length: 10\n\nHelloWorld\n```\n", "**jetty**: not captured", "</details>");
        assertThat(md).endsWith("## Problems\n\n- " + RunFixture.PROBLEM + "\n");
    }

    @Test
    void aScenarioOfTheLabsOwnHasNoSeedAndChartsTheMetricsItNames() {
        RunResults r = new RunResults(AggregationTest.environment());
        r.server(new ServerInfo("dummy", Group.BASELINE, "C", null));
        r.server(new ServerInfo("jetty", Group.PEER, "Jetty", null));
        MetricInfo total = new MetricInfo("rss", "RSS", "MiB", false);
        MetricInfo each = new MetricInfo("rss_per_conn", "RSS per connection", "KiB", false);
        MetricInfo held = new MetricInfo("held", "held", "connections", true);
        r.scenario(new ScenarioInfo("idle", null, "Idle memory", "", List.of(total, held, each), List.of("10 idle"),
                Layout.SERVERS_BY_VARIANT, List.of("rss", "rss_per_conn")));
        for (String server : List.of("dummy", "jetty")) {
            for (MetricInfo m : List.of(total, held, each)) r.add(new Sample("idle", "10 idle", server, 1, m.key(), 1));
        }

        String report = ReportWriter.markdown(r);

        assertThat(report).contains("\n## Idle memory\n").doesNotContain("[seeds");
        assertThat(report).contains("![Idle memory: 10 idle](idle-10-idle.svg)",
                "![Idle memory: 10 idle, RSS per connection](idle-10-idle-rss-per-conn.svg)");
        assertThat(ReportWriter.files(r)).contains("idle-10-idle.svg", "idle-10-idle-rss-per-conn.svg")
                .noneMatch(f -> f.contains("held"));
    }

    @Test
    void noProblemsSaysNone() {
        RunResults r = new RunResults(AggregationTest.environment());
        assertThat(ReportWriter.markdown(r)).endsWith("## Problems\n\nnone\n");
    }

    @Test
    void markdownEscapesRunTextButKeepsWordInnerUnderscores() {
        assertThat(Escape.markdown("a*b <i> `x` snake_case _lead")).isEqualTo("a\\*b &lt;i&gt; \\`x\\` snake_case \\_lead");
        assertThat(Escape.markdownCell("a|b")).isEqualTo("a\\|b");
        assertThat(Escape.markdownCode("echo `x`")).isEqualTo("`` echo `x` ``");
    }
}
