package dev.petrel.bench.lab;

import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.ScenarioInfo;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Seeds 000: 100 concurrent clients with and without keep-alive, over HTTP and over HTTPS: the
 * seed's table of Tomcat's BIO, NIO and APR connectors, with its four columns.
 *
 * <p>The keep-alive columns are measured with {@code wrk -t1 -c 100} for a fixed time: under
 * {@code ab -k} one core of ab is the bottleneck (Netty answers about a quarter of what it answers
 * wrk on the same machine), so ab would rank servers by how well they share a machine with ab,
 * not by what they serve. The seed's own figure, {@code ab -k}, stays as an extra column each,
 * named as client-bound and kept out of the headline ({@link ScenarioInfo#asides()}), so the
 * seed's table can still be read off. Without keep-alive ab is not the bottleneck (each request
 * is a new connection, or a full TLS handshake, on the server), and ab measures those columns:
 * Debian's ab speaks TLS through OpenSSL. ab's and wrk's TLS options stay at their defaults, so
 * each server's defaults decide what is negotiated, and the report notes what ab negotiated.
 */
final class ConnectorsScenario implements Scenario {
    /** The tool and mode that measures a column. */
    enum Client {
        /** {@code wrk -t1 -c 100 -d SECONDS --latency}: keep-alive, a fixed time. */
        WRK,
        /** {@code ab -k -c 100 -n N}: keep-alive, as seed 000 measured it; client-bound. */
        AB_KEEP_ALIVE,
        /** {@code ab -c 100 -n N}: a new connection per request. */
        AB
    }

    /**
     * One column of the seed's table.
     *
     * @param name the variant's name in the report
     * @param https over TLS, on the server's HTTPS port
     * @param client what measures it
     */
    record Variant(String name, boolean https, Client client) {
        /** Whether the requests share connections. */
        boolean keepAlive() {
            return client != Client.AB;
        }

        /** The URL the tool requests for this variant. */
        String url(Measurement run) {
            return url(run, "/");
        }

        /** The URL of {@code path} for this variant. */
        String url(Measurement run, String path) {
            return https ? run.httpsUrl(path) : run.url(path);
        }
    }

    /** What the names of the ab -k columns add: the client, and that it, not the server, is the limit. */
    static final String AB_K_SUFFIX = " (ab -k, client-bound)";
    static final Variant HTTP_KEEP_ALIVE = new Variant("HTTP keep-alive", false, Client.WRK);
    static final Variant HTTP_NO_KEEP_ALIVE = new Variant("HTTP no keep-alive", false, Client.AB);
    static final Variant HTTPS_KEEP_ALIVE = new Variant("HTTPS keep-alive", true, Client.WRK);
    static final Variant HTTPS_NO_KEEP_ALIVE = new Variant("HTTPS no keep-alive", true, Client.AB);
    static final Variant HTTP_AB_KEEP_ALIVE = new Variant("HTTP keep-alive" + AB_K_SUFFIX, false, Client.AB_KEEP_ALIVE);
    static final Variant HTTPS_AB_KEEP_ALIVE = new Variant("HTTPS keep-alive" + AB_K_SUFFIX, true, Client.AB_KEEP_ALIVE);
    /** The columns: the seed's four in its order, then seed 000's client-bound ab -k figures. */
    static final List<Variant> VARIANTS = List.of(HTTP_KEEP_ALIVE, HTTP_NO_KEEP_ALIVE, HTTPS_KEEP_ALIVE, HTTPS_NO_KEEP_ALIVE,
            HTTP_AB_KEEP_ALIVE, HTTPS_AB_KEEP_ALIVE);
    /** Why a server without TLS (the C baseline) has no HTTPS figures. */
    static final String NO_TLS = "serves no TLS";
    private static final Duration HTTPS_READY_LIMIT = Duration.ofSeconds(30);
    private static final int CLIENTS = 100;

    private final boolean quick;

    ConnectorsScenario(boolean quick) {
        this.quick = quick;
    }

    /** The metrics of every column (the tomcat scenario's too). */
    static List<MetricInfo> metrics() {
        return List.of(new MetricInfo("rps", "requests/s", "req/s", true),
                new MetricInfo("p99_ms", "p99", "ms", false),
                new MetricInfo("failed", "failed", "requests", false),
                new MetricInfo("time_per_request_ms", "time per request", "ms", false),
                new MetricInfo("cpu_us_per_request", "server CPU per request", "µs", false));
    }

    /** The variants kept out of the headline: ab -k's, whose figures are ab's own limit. */
    static Set<String> asides() {
        return VARIANTS.stream().filter(v -> v.client() == Client.AB_KEEP_ALIVE).map(Variant::name)
                .collect(java.util.stream.Collectors.toCollection(java.util.LinkedHashSet::new));
    }

    private int requests() {
        return quick ? 2_000 : 100_000;
    }

    /**
     * Requests of an ab variant. A full handshake per request runs at a few hundred per second on
     * one CPU, so HTTPS without keep-alive gets a tenth of the others' count: 100,000 would take
     * most of ten minutes per server and pass, and the rate is steady long before.
     */
    int requests(Variant variant) {
        return variant.https() && !variant.keepAlive() ? requests() / (quick ? 4 : 10) : requests();
    }

    /** How long wrk measures a keep-alive column. */
    Duration wrkDuration() {
        return Duration.ofSeconds(quick ? 2 : 10);
    }

    private int warmup() {
        return quick ? 500 : 20_000;
    }

    @Override
    public ScenarioInfo info() {
        return new ScenarioInfo("connectors", "000",
                "Connectors: 100 concurrent clients, with and without keep-alive, over HTTP and HTTPS",
                "Keep-alive: `wrk -t1 -c 100 -d " + wrkDuration().toSeconds() + "s --latency`; no keep-alive: `ab -c 100 -n "
                        + requests() + "` (" + requests(HTTPS_NO_KEEP_ALIVE) + " over HTTPS, where each request is a full "
                        + "handshake); against `GET /` (HelloWorld) over HTTP, then against `https://127.0.0.1/` on the "
                        + "server's HTTPS port, each protocol after a keep-alive warm-up of " + warmup() + " requests (`ab -k`). "
                        + "Server and client each pinned to one of two CPUs, the assignment alternating by pass. "
                        + "*keep-alive" + AB_K_SUFFIX + "*: seed 000's own `ab -k -c 100 -n " + requests() + "`, kept so "
                        + "the seed's table can be reproduced; one core of ab is its limit, not the server (a fast server "
                        + "answers wrk several times as many), so it ranks servers by how they share the machine with ab, "
                        + "and the headline leaves it out. ab speaks HTTP/1.0: without `-k` every request opens and closes "
                        + "a connection, so over HTTPS every request is a full TLS handshake. p99 is wrk's latency "
                        + "distribution, or ab's percentiles (`-e`); time per request is wrk's mean latency, or ab's mean; server "
                        + "CPU per request is the server's CPU time (user and system, from /proc) over the measured run "
                        + "divided by the requests answered: a client on one CPU caps the keep-alive rate near the fastest "
                        + "servers', and the cost still tells them apart. "
                        + "Every server presents the same self-signed EC P-256 certificate, made by the lab with the JDK's "
                        + "keytool, and keeps its own TLS defaults: JSSE, except the `-native` Petrel servers and "
                        + "netty-epoll-boringssl (BoringSSL) and nginx (the system's OpenSSL); ab's and wrk's TLS options "
                        + "are left at their defaults, and the notes below give what each server negotiated with ab. The C "
                        + "baseline serves no TLS: its HTTPS cells are not applicable, and nginx is the baseline there. A "
                        + "server that differs from another only in its TLS engine is measured over HTTPS only. The seed ran "
                        + "a JSP page on Tomcat 7; here every server answers the same 10 bytes.",
                metrics(), VARIANTS.stream().map(Variant::name).toList(), ScenarioInfo.Layout.SERVERS_BY_VARIANT, List.of(),
                asides());
    }

    @Override
    public Set<LoadTool> tools() {
        return Set.of(LoadTool.AB, LoadTool.WRK);
    }

    @Override
    public Duration stepEstimate() {
        return NominalTimes.HELLO_START.plus(httpEstimate()).plus(httpsEstimate());
    }

    /** The HTTP columns with their warm-up ({@link #measureHttp}). */
    Duration httpEstimate() {
        return NominalTimes.requests(warmup() + requests(HTTP_AB_KEEP_ALIVE), NominalTimes.KEEP_ALIVE_PER_SECOND)
                .plus(wrkDuration())
                .plus(NominalTimes.requests(requests(HTTP_NO_KEEP_ALIVE), NominalTimes.NEW_CONNECTION_PER_SECOND));
    }

    /** The HTTPS columns with their warm-up ({@link #measureHttps}); a handshake per request is most of it. */
    Duration httpsEstimate() {
        return NominalTimes.requests(warmup() + requests(HTTPS_AB_KEEP_ALIVE), NominalTimes.TLS_KEEP_ALIVE_PER_SECOND)
                .plus(wrkDuration())
                .plus(NominalTimes.requests(requests(HTTPS_NO_KEEP_ALIVE), NominalTimes.TLS_HANDSHAKES_PER_SECOND));
    }

    @Override
    public boolean https() {
        return true;
    }

    @Override
    public boolean overTls(String variant) {
        return VARIANTS.stream().anyMatch(v -> v.name().equals(variant) && v.https());
    }

    /**
     * Both halves, each for a server it applies to: a server measured over TLS only skips the
     * HTTP columns and their warm-up ({@link Applicability}).
     */
    @Override
    public void measure(Measurement run) throws Exception {
        Duration limit = Duration.ofSeconds(quick ? 30 : 180);
        if (Applicability.measures(this, run.server().spec(), HTTP_KEEP_ALIVE.name())) measureHttp(run, limit);
        measureHttps(run, limit);
    }

    /** The HTTP columns, after a warm-up over HTTP. */
    void measureHttp(Measurement run, Duration limit) throws IOException, InterruptedException {
        measureHttp(run, limit, "/");
    }

    /** The HTTP columns against {@code path}, after a warm-up over HTTP. */
    void measureHttp(Measurement run, Duration limit, String path) throws IOException, InterruptedException {
        if (LoadTools.ab(run, "warm-up", run.clientCpu(), true, CLIENTS, warmup(), limit, run.url(path)) == null) return;
        for (Variant v : VARIANTS) if (!v.https()) measure(run, v, limit, path);
    }

    /**
     * The HTTPS columns: not applicable for a server without TLS; a problem each when its HTTPS
     * port does not answer; else measured after a warm-up over HTTPS (JSSE's paths get their own
     * JIT warm-up).
     */
    void measureHttps(Measurement run, Duration limit) throws IOException, InterruptedException {
        List<Variant> https = VARIANTS.stream().filter(Variant::https).toList();
        if (!run.server().spec().tls() || run.tls() == null) {
            for (Variant v : https) run.notApplicable(v.name(), NO_TLS);
            return;
        }
        try {
            run.server().awaitHttps(run.tls().clientContext(), HTTPS_READY_LIMIT);
        } catch (IOException e) {
            for (Variant v : https) run.problem(v.name(), e.getMessage() + "; no HTTPS figure");
            return;
        }
        if (LoadTools.ab(run, "HTTPS warm-up", run.clientCpu(), true, CLIENTS, warmup(), limit, run.httpsUrl("/")) == null) return;
        for (Variant v : https) measure(run, v, limit, "/");
    }

    private void measure(Measurement run, Variant variant, Duration limit, String path) throws IOException, InterruptedException {
        if (variant.client() == Client.WRK) measureWrk(run, variant, path);
        else measureAb(run, variant, limit, path);
    }

    /** A keep-alive column: wrk for a fixed time, its rate, its latency distribution's p99 and mean. */
    private void measureWrk(Measurement run, Variant variant, String path) throws IOException, InterruptedException {
        ProcessCpu.Sample start = run.server().cpuSample();
        WrkOutput wrk = LoadTools.wrk(run, variant.name(), run.clientCpu(), CLIENTS, wrkDuration(), variant.url(run, path), true);
        ProcessCpu.Sample end = run.server().cpuSample();
        if (wrk == null) return;
        if (wrk.non2xx3xx() > 0) {
            run.problem(variant.name(), wrk.non2xx3xx() + " of " + wrk.requests() + " responses were not 2xx or 3xx "
                    + "(see the raw output); no figure recorded");
            return;
        }
        Double p99 = wrk.latencyPercentilesMs().get(99);
        if (p99 == null) {
            run.problem(variant.name(), "wrk printed no latency distribution");
            return;
        }
        run.record(variant.name(), "rps", wrk.requestsPerSecond());
        run.record(variant.name(), "p99_ms", p99);
        run.record(variant.name(), "failed", wrk.socketErrors());
        run.record(variant.name(), "time_per_request_ms", wrk.latencyAvgMs());
        recordCpu(run, variant, start, end, wrk.requests());
    }

    /**
     * The server's CPU time per request over the measured run: what a request costs the server,
     * whether or not the client was the bottleneck. On this two-CPU lab a client on one CPU caps
     * the keep-alive rate near the fastest servers' (the C floor and Java NIO's floor measure the
     * same there, {@code scripts/transport-floor.sh}); the cost tells them apart.
     */
    private static void recordCpu(Measurement run, Variant variant, ProcessCpu.Sample start, ProcessCpu.Sample end, long requests)
            throws IOException {
        if (requests <= 0) return;
        run.record(variant.name(), "cpu_us_per_request",
                ProcessCpu.microsEach(ProcessCpu.ticksBetween(start, end), ProcessCpu.ticksPerSecond(), requests));
    }

    /** A column measured with ab, with or without {@code -k}, with its 99th percentile ({@code -e}). */
    private void measureAb(Measurement run, Variant variant, Duration limit, String path) throws IOException, InterruptedException {
        ProcessCpu.Sample start = run.server().cpuSample();
        LoadTools.Ab ab = LoadTools.ab(run, variant.name(), run.clientCpu(), variant.keepAlive(), CLIENTS, requests(variant), limit,
                variant.url(run, path), 99);
        ProcessCpu.Sample end = run.server().cpuSample();
        if (ab == null) return;
        if (variant.https() && ab.output().tls() != null) {
            run.note("TLS negotiated by ab with " + run.serverName() + ": " + ab.output().tls().summary());
        }
        if (!LoadTools.answeredWith2xx(run, variant.name(), ab.output())) return;
        run.record(variant.name(), "rps", ab.output().requestsPerSecond());
        Double p99 = ab.percentilesMicros().get(99);
        if (p99 != null) run.record(variant.name(), "p99_ms", p99 / 1000);
        run.record(variant.name(), "failed", ab.output().failed() + ab.output().non2xx());
        run.record(variant.name(), "time_per_request_ms", ab.output().timePerRequestMs());
        recordCpu(run, variant, start, end, ab.output().complete());
    }
}
