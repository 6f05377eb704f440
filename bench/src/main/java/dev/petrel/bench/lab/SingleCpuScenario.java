package dev.petrel.bench.lab;

import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.ScenarioInfo;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Seeds 001: peak throughput of a network-intensive page with the server on one CPU. The page is
 * a realistic HTML article of about 35 KB, served from memory by every server (the seed's Olio
 * workload sent 161 Mbit/s from one vCPU).
 */
final class SingleCpuScenario implements Scenario {
    static final String PAGE = "35 KB page";

    private final boolean quick;

    SingleCpuScenario(boolean quick) {
        this.quick = quick;
    }

    private Duration duration() {
        return Duration.ofSeconds(quick ? 2 : 15);
    }

    @Override
    public ScenarioInfo info() {
        return new ScenarioInfo("single-cpu", "001", "Peak throughput on one CPU: a 35 KB HTML page",
                "`wrk -t1 -c 64 -d " + duration().toSeconds() + "s` against `GET /page`, server pinned to one CPU, wrk to the other (swapped every other pass), "
                        + "after a warm-up of " + warmupSeconds() + " s. Every server answers the same page bytes from memory.",
                List.of(new MetricInfo("rps", "requests/s", "req/s", true),
                        new MetricInfo("mbit_per_s", "throughput", "Mbit/s", true),
                        new MetricInfo("latency_avg_ms", "mean latency", "ms", false),
                        new MetricInfo("errors", "errors", "requests", false)),
                List.of(PAGE), ScenarioInfo.Layout.SERVERS_BY_VARIANT);
    }

    @Override
    public Set<LoadTool> tools() {
        return Set.of(LoadTool.WRK);
    }

    @Override
    public Duration stepEstimate() {
        return NominalTimes.HELLO_START.plusSeconds(warmupSeconds()).plus(duration());
    }

    private int warmupSeconds() {
        return quick ? 1 : 5;
    }

    @Override
    public void measure(Measurement run) throws Exception {
        if (LoadTools.wrk(run, "warm-up", run.clientCpu(), 64, Duration.ofSeconds(warmupSeconds()), run.url("/page")) == null) {
            return;
        }
        WrkOutput wrk = LoadTools.wrk(run, PAGE, run.clientCpu(), 64, duration(), run.url("/page"));
        if (wrk == null) return;
        run.record(PAGE, "rps", wrk.requestsPerSecond());
        run.record(PAGE, "mbit_per_s", wrk.bytesPerSecond() * 8 / 1_000_000);
        run.record(PAGE, "latency_avg_ms", wrk.latencyAvgMs());
        run.record(PAGE, "errors", wrk.socketErrors() + wrk.non2xx3xx());
    }
}
