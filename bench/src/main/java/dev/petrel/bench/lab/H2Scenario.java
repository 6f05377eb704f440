package dev.petrel.bench.lab;

import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.ScenarioInfo;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * HTTP/2: what a request costs a server when h2load keeps many streams in flight on few
 * connections, in cleartext with prior knowledge (h2c) and over TLS with ALPN (h2).
 *
 * <p>Each server that speaks HTTP/2 is started with it on ({@link Scenario#http2()}: the system
 * property servers/LabH2 reads), warmed up, and measured with {@code h2load -t1} pinned to the load
 * CPU, the server's CPU time read from {@code /proc} over each run as the tls scenario does. One
 * core of h2load makes about 60k requests/s at most, so on a fast server the rate is the client's:
 * <b>server CPU per request</b> is the figure to compare, the primary metric, and the server CPU %
 * beside it says whether the server or the tool was the limit.
 *
 * <p>The servers whose project has no HTTP/2 (the JDK's HttpServer, the C baseline) and nginx (not set
 * up for HTTP/2 by the lab) are not applicable. Tomcat on Petrel's connector speaks Petrel's HTTP/2,
 * turned on by the same {@code <UpgradeProtocol>} as Tomcat's own.
 */
final class H2Scenario implements Scenario {
    static final String NAME = "h2";

    /**
     * One table of the report.
     *
     * @param name the variant's name
     * @param tls over TLS with ALPN (h2), else cleartext with prior knowledge (h2c)
     * @param clients h2load's {@code -c}: connections
     * @param streams h2load's {@code -m}: requests in flight per connection
     */
    record Variant(String name, boolean tls, int clients, int streams) {
        /** The protocol h2load must report having spoken. */
        String protocol() {
            return tls ? "h2" : "h2c";
        }

        /** The URL h2load requests. */
        String url(Measurement run) {
            return tls ? run.httpsUrl("/") : run.url("/");
        }
    }

    static final Variant H2C_100X10 = new Variant("h2c-100x10", false, 100, 10);
    static final Variant H2_100X10 = new Variant("h2-100x10", true, 100, 10);
    static final Variant H2C_1X100 = new Variant("h2c-1x100", false, 1, 100);
    /** The tables, in the report's order. */
    static final List<Variant> VARIANTS = List.of(H2C_100X10, H2_100X10, H2C_1X100);

    /** Why a server has no figure here, by name (another build's Petrel servers as this one's). */
    static final Map<String, String> NO_HTTP2 = Map.of(
            "baseline-c", "the do-nothing C server speaks HTTP/1.1 only",
            "jdk-httpserver", "the JDK's HttpServer speaks HTTP/1.1 only",
            Nginx.NAME, "the lab does not set up nginx's HTTP/2");

    /** The body every server answers {@code GET /} with: HelloWorld. */
    static final int BODY_BYTES = 10;

    private static final Duration HTTPS_READY_LIMIT = Duration.ofSeconds(30);

    private final boolean quick;
    private long ticksPerSecond;

    H2Scenario(boolean quick) {
        this.quick = quick;
    }

    /** Requests of each measured run. */
    int requests() {
        return quick ? 2_000 : 200_000;
    }

    /** Requests of each warm-up (one in cleartext, one over TLS), shaped as the 100x10 runs. */
    int warmup() {
        return quick ? 1_000 : 100_000;
    }

    /** The longest a measured run or a warm-up may take before h2load is stopped and the run is a problem. */
    Duration limit() {
        return Duration.ofSeconds(quick ? 20 : 60);
    }

    @Override
    public ScenarioInfo info() {
        return new ScenarioInfo(NAME, null, "HTTP/2: server CPU per request with many streams in flight, h2c and h2",
                "`h2load -t1 -c C -m M -n " + requests() + "` against `GET /` (HelloWorld, 10 bytes), server on one CPU, "
                        + "h2load on the other (swapped every other pass). *" + H2C_100X10.name() + "*: 100 connections with 10 streams in flight each, "
                        + "cleartext with prior knowledge (`http://`: h2load opens with the connection preface); *"
                        + H2_100X10.name() + "*: the same over TLS on the HTTPS port, `h2` chosen by ALPN, the lab's "
                        + "certificate; *" + H2C_1X100.name() + "*: one connection with 100 streams in flight. Each "
                        + "server runs with HTTP/2 switched on as its own project documents it (notes in each "
                        + "`servers/*Hello` class) and its HTTP/2 defaults otherwise; the other scenarios start the "
                        + "same servers without it. Before the cleartext runs " + warmup() + " requests over h2c, before "
                        + "the TLS run " + warmup() + " over h2, both 100x10; each run is stopped after "
                        + limit().toSeconds() + " s. **Server CPU per request** = the server's CPU ticks over the run "
                        + "(`/proc`, CLK_TCK) / 2xx responses; the **rate** is 2xx responses over h2load's time. One "
                        + "core of h2load makes about 60k requests/s, so a fast server's rate is the client's and its "
                        + "**server CPU** below 100 % says so: CPU per request is the figure to compare. **Errors**: "
                        + "requests not answered with 2xx (failed, errored, timed out, another status, or never done). "
                        + "A run in which h2load spoke another protocol than the variant's, or got bodies of another "
                        + "size than 10 bytes, is a problem with no figure.",
                List.of(new MetricInfo("cpu_us_per_request", "server CPU per request", "µs", false),
                        new MetricInfo("rps", "rate", "req/s", true),
                        new MetricInfo("server_cpu_pct", "server CPU", "%", false),
                        new MetricInfo("errors", "errors", "requests", false)),
                VARIANTS.stream().map(Variant::name).toList(), ScenarioInfo.Layout.SERVERS_BY_VARIANT);
    }

    @Override
    public boolean https() {
        return true;
    }

    @Override
    public boolean http2() {
        return true;
    }

    @Override
    public boolean overTls(String variant) {
        return VARIANTS.stream().anyMatch(v -> v.name().equals(variant) && v.tls());
    }

    @Override
    public Set<LoadTool> tools() {
        return Set.of(LoadTool.H2LOAD);
    }

    @Override
    public String notApplicable(ServerSpec server) {
        String name = ServerCatalog.sameServerNow(server.name());
        return NO_HTTP2.get(name);
    }

    @Override
    public Duration stepEstimate() {
        // 30k requests/s, h2load's 60k on a fast server and far fewer on a slow one
        Duration load = NominalTimes.requests(2L * warmup() + (long) VARIANTS.size() * requests(), 30_000);
        return NominalTimes.HELLO_START.plus(load).plusSeconds(2);
    }

    /**
     * The cleartext variants after a warm-up over h2c (not for a server measured over TLS only), then
     * the TLS variant after a warm-up over h2.
     */
    @Override
    public void measure(Measurement run) throws Exception {
        if (ticksPerSecond == 0) ticksPerSecond = ProcessCpu.ticksPerSecond();
        ServerSpec spec = run.server().spec();
        if (Applicability.measures(this, spec, H2C_100X10.name())) {
            if (warmUp(run, "h2c warm-up", H2C_100X10, List.of(H2C_100X10, H2C_1X100))) {
                measure(run, H2C_100X10);
                measure(run, H2C_1X100);
            }
        }
        if (!spec.tls() || run.tls() == null) {
            run.notApplicable(H2_100X10.name(), ConnectorsScenario.NO_TLS);
            return;
        }
        try {
            run.server().awaitHttps(run.tls().clientContext(), HTTPS_READY_LIMIT);
        } catch (IOException e) {
            run.problem(H2_100X10.name(), e.getMessage() + "; no HTTPS figure");
            return;
        }
        if (warmUp(run, "h2 warm-up", H2_100X10, List.of(H2_100X10))) measure(run, H2_100X10);
    }

    /**
     * A warm-up shaped as {@code shape}; whether the variants after it can be measured: not when h2load
     * failed, or when the server answered none of it with 2xx over the variant's protocol (it does not
     * speak it), each of {@code after} then a problem with the reason.
     */
    private boolean warmUp(Measurement run, String name, Variant shape, List<Variant> after)
            throws IOException, InterruptedException {
        H2loadOutput out = LoadTools.h2loadH2(run, name, run.clientCpu(), shape.clients(), shape.streams(), warmup(),
                limit(), shape.url(run));
        if (out == null) return false;
        String wrong = wrongProtocol(out, shape);
        if (wrong == null && out.status2xx() > 0) return true;
        String reason = name + ": " + (wrong != null ? wrong : "no request answered with 2xx (" + out.errorsH2() + " of "
                + out.total() + " not)") + "; not measured";
        for (Variant v : after) run.problem(v.name(), reason);
        return false;
    }

    /** One measured run of {@code variant}, with the server's CPU time around it. */
    private void measure(Measurement run, Variant variant) throws IOException, InterruptedException {
        ProcessCpu.Sample start = run.server().cpuSample();
        H2loadOutput out = LoadTools.h2loadH2(run, variant.name(), run.clientCpu(), variant.clients(), variant.streams(),
                requests(), limit(), variant.url(run));
        ProcessCpu.Sample end = run.server().cpuSample();
        if (out == null) return;
        String wrong = wrongProtocol(out, variant);
        if (wrong != null) {
            run.problem(variant.name(), wrong + "; no figure recorded");
            return;
        }
        if (out.status2xx() == 0) {
            run.problem(variant.name(), "no request answered with 2xx (" + out.errorsH2() + " of " + out.total()
                    + " not; see the raw output); no figure recorded");
            return;
        }
        if (out.dataBytes() >= 0 && out.dataBytes() != out.status2xx() * BODY_BYTES) {
            run.problem(variant.name(), out.dataBytes() + " bytes of bodies for " + out.status2xx()
                    + " 2xx responses, not " + BODY_BYTES + " each; no figure recorded");
            return;
        }
        if (out.errorsH2() > 0) {
            run.problem(variant.name(), out.errorsH2() + " of " + out.total() + " requests not answered with 2xx (failed "
                    + out.failed() + ", errored " + out.errored() + ", timeout " + out.timeout() + ")");
        }
        long ticks = ProcessCpu.ticksBetween(start, end);
        long nanos = end.nanoTime() - start.nanoTime();
        run.record(variant.name(), "cpu_us_per_request", ProcessCpu.microsEach(ticks, ticksPerSecond, out.status2xx()));
        run.record(variant.name(), "rps", out.seconds() > 0 ? out.status2xx() / out.seconds() : 0);
        run.record(variant.name(), "server_cpu_pct", ProcessCpu.percentOfOneCore(ticks, ticksPerSecond, nanos));
        run.record(variant.name(), "errors", out.errorsH2());
    }

    /** Why h2load's run does not count as the variant's protocol, or {@code null} when it does. */
    static String wrongProtocol(H2loadOutput out, Variant variant) {
        if (out.protocol() == null) {
            return "h2load negotiated no protocol (" + out.errored() + " of " + out.total() + " requests errored)";
        }
        if (!out.protocol().equals(variant.protocol())) {
            return "h2load spoke " + out.protocol() + ", not " + variant.protocol();
        }
        return null;
    }
}
