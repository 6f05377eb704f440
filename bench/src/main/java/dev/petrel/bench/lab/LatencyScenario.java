package dev.petrel.bench.lab;

import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.RunResults;
import dev.petrel.bench.model.Sample;
import dev.petrel.bench.model.ScenarioInfo;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Seeds 004: per-request latency over one keep-alive connection, {@code ab -k -c1}. Measured
 * with ab on the other CPU and, in the same pass, on the server's CPU: on a virtual machine the
 * cross-CPU wake-up can cost far more than the server's own work and hide the differences the
 * seed measured. The overhead of each server is its mean round trip minus the baseline's in the
 * same pass and variant.
 */
final class LatencyScenario implements Scenario {
    static final String CROSS_CPU = "across CPUs";
    static final String SAME_CPU = "same CPU";

    private final boolean quick;
    private final boolean sameCpuOnly;

    LatencyScenario(boolean quick, boolean sameCpuOnly) {
        this.quick = quick;
        this.sameCpuOnly = sameCpuOnly;
    }

    private int requests() {
        return quick ? 2_000 : 100_000;
    }

    @Override
    public ScenarioInfo info() {
        return new ScenarioInfo("latency", "004", "Per-request latency over one keep-alive connection",
                "`ab -k -c1 -n " + requests() + "` against `GET /` (HelloWorld) after a warm-up of "
                        + warmup() + " requests. *" + CROSS_CPU + "*: server on one CPU, ab on the other, swapped every other pass (odd passes: server on CPU 0). *"
                        + SAME_CPU + "*: both on the server's CPU of that pass. Round trip = 10^6 / requests per second. Overhead = a server's round "
                        + "trip minus the baseline's in the same pass: what the server itself spends per request.",
                List.of(new MetricInfo("mean_us", "round trip", "µs", false),
                        new MetricInfo("overhead_us", "overhead over baseline", "µs", false),
                        new MetricInfo("rps", "requests/s", "req/s", true),
                        new MetricInfo("p50_us", "p50", "µs", false),
                        new MetricInfo("p99_us", "p99", "µs", false)),
                sameCpuOnly ? List.of(SAME_CPU) : List.of(CROSS_CPU, SAME_CPU),
                ScenarioInfo.Layout.SERVERS_BY_VARIANT);
    }

    private int warmup() {
        return quick ? 500 : 20_000;
    }

    @Override
    public Set<LoadTool> tools() {
        return Set.of(LoadTool.AB);
    }

    @Override
    public Duration stepEstimate() {
        // per variant: the warm-up and the measured run over one keep-alive connection
        Duration variant = NominalTimes.requests(warmup() + requests(), NominalTimes.ONE_CONNECTION_PER_SECOND);
        return NominalTimes.HELLO_START.plus(variant.multipliedBy(info().variants().size()));
    }

    @Override
    public void measure(Measurement run) throws Exception {
        for (String variant : info().variants()) {
            int cpu = variant.equals(SAME_CPU) ? run.serverCpu() : run.clientCpu();
            Duration limit = Duration.ofSeconds(quick ? 30 : 120);
            if (LoadTools.ab(run, variant + " warm-up", cpu, true, 1, warmup(), limit, run.url("/")) == null) continue;
            LoadTools.Ab ab = LoadTools.ab(run, variant, cpu, true, 1, requests(), limit, run.url("/"), 50, 99);
            if (ab == null || !LoadTools.answeredWith2xx(run, variant, ab.output())) continue;
            if (ab.output().failed() > 0 || ab.output().complete() < requests()) {
                run.problem(variant, ab.output().failed() + " failed of " + ab.output().complete() + " completed");
            }
            run.record(variant, "rps", ab.output().requestsPerSecond());
            run.record(variant, "mean_us", 1_000_000 / ab.output().requestsPerSecond());
            run.record(variant, "p50_us", ab.percentilesMicros().get(50));
            run.record(variant, "p99_us", ab.percentilesMicros().get(99));
        }
    }

    /**
     * The overhead over the baseline: the first baseline server of the run (the do-nothing C server;
     * nginx, also a baseline, comes after it) that has a round trip in the same variant and pass.
     */
    @Override
    public void derive(RunResults results) {
        deriveOverhead(results, "latency");
    }

    /**
     * Adds {@code overhead_us} to every {@code mean_us} sample of {@code scenario} (a section's
     * name): the sample less the round trip of the first baseline server of the run that has one in
     * the same variant and pass. The websocket scenario's round trips use it too, over its C floor.
     */
    static void deriveOverhead(RunResults results, String scenario) {
        List<String> baselines = results.servers().stream()
                .filter(s -> s.group() == dev.petrel.bench.model.ServerInfo.Group.BASELINE).map(s -> s.name()).toList();
        Map<String, Double> floor = new HashMap<>(); // variant + pass -> the baseline's round trip
        Map<String, Integer> floorRank = new HashMap<>(); // and the rank in the run of the baseline it came from
        List<Sample> rounds = results.samples().stream()
                .filter(s -> s.scenario().equals(scenario) && s.metric().equals("mean_us")).toList();
        for (Sample s : rounds) {
            int rank = baselines.indexOf(s.server());
            String key = s.variant() + "#" + s.pass();
            if (rank >= 0 && rank < floorRank.getOrDefault(key, Integer.MAX_VALUE)) {
                floor.put(key, s.value());
                floorRank.put(key, rank);
            }
        }
        for (Sample s : rounds) {
            Double value = floor.get(s.variant() + "#" + s.pass());
            if (value != null) {
                results.add(new Sample(s.scenario(), s.variant(), s.server(), s.pass(), "overhead_us", s.value() - value,
                        s.serverCpu()));
            }
        }
    }
}
