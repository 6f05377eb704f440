package dev.petrel.bench.lab;

import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.ScenarioInfo;
import java.time.Duration;
import java.util.List;

/**
 * Seeds 000: {@code ab -n 100000 -c 100} with and without keep-alive, the table of Tomcat's BIO,
 * NIO and APR connectors. (The HTTPS columns come with HTTPS.)
 */
final class ConnectorsScenario implements Scenario {
    static final String KEEP_ALIVE = "HTTP keep-alive";
    static final String NO_KEEP_ALIVE = "HTTP no keep-alive";

    private final boolean quick;

    ConnectorsScenario(boolean quick) {
        this.quick = quick;
    }

    private int requests() {
        return quick ? 2_000 : 100_000;
    }

    @Override
    public ScenarioInfo info() {
        return new ScenarioInfo("connectors", "000", "Connectors: 100 concurrent clients, with and without keep-alive",
                "`ab [-k] -c 100 -n " + requests() + "` against `GET /` (HelloWorld), server on CPU 0, ab on CPU 1, after "
                        + "a keep-alive warm-up of " + warmup() + " requests. ab speaks HTTP/1.0: without `-k` every "
                        + "request opens and closes a connection. The seed ran a JSP page on Tomcat 7; here every server "
                        + "answers the same 10 bytes.",
                List.of(new MetricInfo("rps", "requests/s", "req/s", true),
                        new MetricInfo("failed", "failed", "requests", false),
                        new MetricInfo("time_per_request_ms", "time per request", "ms", false)),
                List.of(KEEP_ALIVE, NO_KEEP_ALIVE), ScenarioInfo.Layout.SERVERS_BY_VARIANT);
    }

    private int warmup() {
        return quick ? 500 : 20_000;
    }

    @Override
    public void measure(Measurement run) throws Exception {
        Duration limit = Duration.ofSeconds(quick ? 30 : 180);
        if (LoadTools.ab(run, "warm-up", run.clientCpu(), true, 100, warmup(), limit, run.url("/")) == null) return;
        for (String variant : info().variants()) {
            boolean keepAlive = variant.equals(KEEP_ALIVE);
            LoadTools.Ab ab = LoadTools.ab(run, variant, run.clientCpu(), keepAlive, 100, requests(), limit, run.url("/"));
            if (ab == null || !LoadTools.answeredWith2xx(run, variant, ab.output())) continue;
            run.record(variant, "rps", ab.output().requestsPerSecond());
            run.record(variant, "failed", ab.output().failed() + ab.output().non2xx());
            run.record(variant, "time_per_request_ms", ab.output().timePerRequestMs());
        }
    }
}
