package dev.petrel.bench.lab;

import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.ScenarioInfo;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * The tail a server gives 100 keep-alive clients on one CPU: {@code wrk -t1 -c100 --latency}
 * against HelloWorld, reporting the median, the 99th percentile, the longest request and the
 * requests wrk gave up on. ab's figures hide it: its mean rate stays high while a few connections
 * wait for hundreds of milliseconds, which is what a thread-per-connection server on one CPU does
 * when its scheduler is unfair or its pool smaller than the clients.
 */
final class TailScenario implements Scenario {
    static final String NAME = "tail";
    static final String VARIANT = "keep-alive c100";
    /** wrk's own limit for one request: past it, wrk counts a timeout rather than a latency. */
    static final Duration WRK_TIMEOUT = Duration.ofSeconds(10);

    private final boolean quick;

    TailScenario(boolean quick) {
        this.quick = quick;
    }

    private Duration duration() {
        return Duration.ofSeconds(quick ? 2 : 20);
    }

    private Duration warmup() {
        return Duration.ofSeconds(quick ? 1 : 5);
    }

    @Override
    public ScenarioInfo info() {
        return new ScenarioInfo(NAME, null, "Tail latency: 100 keep-alive clients on one CPU",
                "`wrk -t1 -c100 -d " + duration().toSeconds() + "s --timeout " + WRK_TIMEOUT.toSeconds() + "s --latency` "
                        + "against `GET /` (HelloWorld), server pinned to one CPU, wrk to the other (swapped every other pass), after a warm-up of "
                        + warmup().toSeconds() + " s with the same connections' shape. wrk keeps one request in flight "
                        + "on each connection; **p50** and **p99** are wrk's latency distribution, **max** its longest "
                        + "request, **timeouts** the requests it gave up on after " + WRK_TIMEOUT.toSeconds() + " s (a "
                        + "starved connection), **errors** every other failure and non-2xx answer.",
                List.of(new MetricInfo("p99_ms", "p99", "ms", false),
                        new MetricInfo("p50_ms", "p50", "ms", false),
                        new MetricInfo("max_ms", "max", "ms", false),
                        new MetricInfo("timeouts", "timeouts", "requests", false),
                        new MetricInfo("rps", "requests/s", "req/s", true),
                        new MetricInfo("errors", "errors", "requests", false)),
                List.of(VARIANT), ScenarioInfo.Layout.SERVERS_BY_VARIANT);
    }

    @Override
    public Set<LoadTool> tools() {
        return Set.of(LoadTool.WRK);
    }

    @Override
    public Duration stepEstimate() {
        return NominalTimes.HELLO_START.plus(warmup()).plus(duration());
    }

    @Override
    public void measure(Measurement run) throws Exception {
        if (LoadTools.wrk(run, "warm-up", run.clientCpu(), 100, warmup(), run.url("/")) == null) return;
        WrkOutput wrk = LoadTools.wrk(run, VARIANT, run.clientCpu(), 100, duration(), run.url("/"), true);
        if (wrk == null) return;
        Double p50 = wrk.latencyPercentilesMs().get(50);
        Double p99 = wrk.latencyPercentilesMs().get(99);
        if (p50 == null || p99 == null) {
            run.problem(VARIANT, "wrk printed no latency distribution");
            return;
        }
        run.record(VARIANT, "p99_ms", p99);
        run.record(VARIANT, "p50_ms", p50);
        run.record(VARIANT, "max_ms", wrk.latencyMaxMs());
        run.record(VARIANT, "timeouts", wrk.socketErrorsByKind().timeout());
        run.record(VARIANT, "rps", wrk.requestsPerSecond());
        run.record(VARIANT, "errors", wrk.socketErrors() - wrk.socketErrorsByKind().timeout() + wrk.non2xx3xx());
    }
}
