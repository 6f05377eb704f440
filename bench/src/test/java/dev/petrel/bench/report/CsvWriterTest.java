package dev.petrel.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.bench.model.RunResults;
import dev.petrel.bench.model.Sample;
import dev.petrel.bench.model.ScenarioInfo;
import dev.petrel.bench.model.ScenarioInfo.Layout;
import dev.petrel.bench.model.ServerInfo;
import dev.petrel.bench.model.ServerInfo.Group;
import dev.petrel.bench.report.Aggregation.ScenarioResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class CsvWriterTest {
    private final Aggregation aggregation = Aggregation.of(RunFixture.run(false));
    private final ScenarioResult latency = aggregation.scenarios().get(0);
    private final ScenarioResult ramp = aggregation.scenarios().get(1);

    private static List<String> lines(String csv) {
        assertThat(csv).endsWith("\n");
        return List.of(csv.split("\n"));
    }

    @Test
    void samplesHaveOneRowPerSampleUnderTheHeader() {
        List<String> rows = lines(CsvWriter.samples(latency));
        assertThat(rows.getFirst()).isEqualTo("scenario,variant,server,pass,metric,value,server_cpu");
        assertThat(rows).hasSize(1 + RunFixture.LATENCY_SAMPLES);
        // the fixture records no CPU: the last column stays empty
        assertThat(rows.get(1)).isEqualTo("latency,same-cpu,dummy,1,rtt,40,");
        assertThat(rows.get(2)).isEqualTo("latency,same-cpu,dummy,1,rps,25000,");
        assertThat(lines(CsvWriter.samples(ramp))).hasSize(1 + RunFixture.RAMP_SAMPLES)
                .contains("ramp,1000 users,petrel-virtual,2,rps,16000,");
        assertThat(CsvWriter.samplesFile(latency)).isEqualTo("latency.csv");
        assertThat(CsvWriter.summaryFile(ramp)).isEqualTo("ramp-summary.csv");
    }

    @Test
    void summaryHasMediansRangesAndPrimaryRatios() {
        List<String> rows = lines(CsvWriter.summary(latency));
        assertThat(rows.getFirst())
                .isEqualTo("scenario,variant,server,metric,median,min,max,passes,ratio_to_baseline,ratio_to_best_peer,"
                        + "median_server_cpu0,median_server_cpu1");
        assertThat(rows).hasSize(1 + 6 * 2 * 4); // servers × variants × metrics
        // rtt, lower is better: 42/50 and 61/50; jetty 42/72 = 0.58333 and 61/72 = 0.84722
        assertThat(rows).contains("latency,same-cpu,petrel-virtual,rtt,50,49,52,3,0.84,1.22,,",
                "latency,same-cpu,jetty,rtt,72,70,75,3,0.5833,0.8472,,",
                "latency,same-cpu,undertow,rtt,61,60,63,3,0.6885,1,,",
                "latency,same-cpu,dummy,rtt,42,40,44,3,1,1.4524,,",
                "latency,same-cpu,petrel-virtual,rps,20000,19230.76923076923,20408.163265306124,3,,,,");
        // rows follow the table order, so a reader of the file sees the same ranking
        assertThat(rows.stream().filter(r -> r.startsWith("latency,cross-cpu,")).filter(r -> r.contains(",rtt,"))
                .map(r -> r.split(",")[2]))
                .containsExactly("dummy", "petrel-nio", "petrel-virtual", "jetty", "undertow", "tomcat-nio");

        List<String> rampRows = lines(CsvWriter.summary(ramp));
        assertThat(rampRows).hasSize(1 + 17 * 2);
        // rps, higher is better: 15500/21000 = 0.738095, 15500/13200 = 1.174242
        assertThat(rampRows).contains("ramp,1000 users,petrel-virtual,rps,15500,15000,16000,2,0.7381,1.1742,,",
                "ramp,1000 users,petrel-virtual,errors,0.5,0.5,0.5,2,,,,");
    }

    @Test
    void fieldsAreQuotedPerRfc4180() {
        assertThat(Escape.csv("plain")).isEqualTo("plain");
        assertThat(Escape.csv("a,b")).isEqualTo("\"a,b\"");
        assertThat(Escape.csv("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
        assertThat(Escape.csv("two\nlines")).isEqualTo("\"two\nlines\"");

        RunResults r = new RunResults(AggregationTest.environment());
        r.server(new ServerInfo("p", Group.PETREL, "", null));
        r.scenario(new ScenarioInfo("s", "000", "S", "", List.of(RunFixture.RPS), List.of("1,000 \"users\""),
                Layout.VARIANTS_BY_SERVER));
        r.add(new Sample("s", "1,000 \"users\"", "p", 1, "rps", 1.5e7));
        ScenarioResult s = Aggregation.of(r).scenarios().getFirst();
        assertThat(lines(CsvWriter.samples(s))).containsExactly(CsvWriter.SAMPLES_HEADER,
                "s,\"1,000 \"\"users\"\"\",p,1,rps,15000000,");
        // no baseline and no peer: the ratio columns stay empty
        assertThat(lines(CsvWriter.summary(s)).get(1))
                .isEqualTo("s,\"1,000 \"\"users\"\"\",p,rps,15000000,15000000,15000000,1,,,,");
    }
}
