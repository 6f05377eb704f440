package dev.petrel.bench.lab;

import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.ScenarioInfo;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Seeds 000: {@code ab -n 100000 -c 100} with and without keep-alive, over HTTP and over HTTPS:
 * the seed's table of Tomcat's BIO, NIO and APR connectors, with its four columns.
 *
 * <p>ab does everything here: Debian's ab speaks TLS through OpenSSL, so no second tool (h2load,
 * wrk) is needed. Without {@code -k} every ab request opens a connection, so over HTTPS every
 * request is a full TLS handshake, which is what the seed's "HTTPS no keep-alive" column measured.
 * ab's own TLS options stay at their defaults ({@code -f} offers TLS 1.2 and 1.3, {@code -Z} the
 * OpenSSL default cipher list), so each server's defaults decide what is negotiated, and the
 * report notes what that was.
 */
final class ConnectorsScenario implements Scenario {
    /**
     * One column of the seed's table.
     *
     * @param name the variant's name in the report
     * @param https over TLS, on the server's HTTPS port
     * @param keepAlive {@code ab -k}
     */
    record Variant(String name, boolean https, boolean keepAlive) {
        /** The URL ab requests for this variant. */
        String url(Measurement run) {
            return url(run, "/");
        }

        /** The URL of {@code path} for this variant. */
        String url(Measurement run, String path) {
            return https ? run.httpsUrl(path) : run.url(path);
        }
    }

    static final Variant HTTP_KEEP_ALIVE = new Variant("HTTP keep-alive", false, true);
    static final Variant HTTP_NO_KEEP_ALIVE = new Variant("HTTP no keep-alive", false, false);
    static final Variant HTTPS_KEEP_ALIVE = new Variant("HTTPS keep-alive", true, true);
    static final Variant HTTPS_NO_KEEP_ALIVE = new Variant("HTTPS no keep-alive", true, false);
    /** The columns, in the seed's order. */
    static final List<Variant> VARIANTS = List.of(HTTP_KEEP_ALIVE, HTTP_NO_KEEP_ALIVE, HTTPS_KEEP_ALIVE, HTTPS_NO_KEEP_ALIVE);
    /** Why a server without TLS (the C baseline) has no HTTPS figures. */
    static final String NO_TLS = "serves no TLS";
    private static final Duration HTTPS_READY_LIMIT = Duration.ofSeconds(30);

    private final boolean quick;
    private final boolean p99;

    ConnectorsScenario(boolean quick) {
        this(quick, false);
    }

    /**
     * @param p99 whether each column also records ab's 99th percentile of the time per request
     *     ({@code p99_ms}): the tomcat scenario's goal names it
     */
    ConnectorsScenario(boolean quick, boolean p99) {
        this.quick = quick;
        this.p99 = p99;
    }

    private int requests() {
        return quick ? 2_000 : 100_000;
    }

    /**
     * Requests of a variant. A full handshake per request runs at a few hundred per second on one
     * CPU, so HTTPS without keep-alive gets a tenth of the others' count: 100,000 would take most
     * of ten minutes per server and pass, and the rate is steady long before.
     */
    int requests(Variant variant) {
        return variant.https() && !variant.keepAlive() ? requests() / (quick ? 4 : 10) : requests();
    }

    private int warmup() {
        return quick ? 500 : 20_000;
    }

    @Override
    public ScenarioInfo info() {
        return new ScenarioInfo("connectors", "000",
                "Connectors: 100 concurrent clients, with and without keep-alive, over HTTP and HTTPS",
                "`ab [-k] -c 100 -n " + requests() + "` (" + requests(HTTPS_NO_KEEP_ALIVE) + " for HTTPS without keep-alive, "
                        + "where each request is a full handshake) against `GET /` (HelloWorld) over HTTP, then against "
                        + "`https://127.0.0.1/` on the server's HTTPS port, server on CPU 0, ab on CPU 1, each protocol after "
                        + "a keep-alive warm-up of " + warmup() + " requests. ab speaks HTTP/1.0: without `-k` every "
                        + "request opens and closes a connection, so over HTTPS every request is a full TLS handshake. "
                        + "Every server presents the same self-signed EC P-256 certificate, made by the lab with the JDK's "
                        + "keytool, and keeps its own TLS defaults: JSSE, except the `-native` Petrel servers and "
                        + "netty-epoll-boringssl (BoringSSL) and nginx (the system's OpenSSL); ab's TLS options are left "
                        + "at their defaults, and the notes below give what each server negotiated. The C baseline serves "
                        + "no TLS: its HTTPS cells are not applicable, and nginx is the baseline there. A server that "
                        + "differs from another only in its TLS engine is measured over HTTPS only. The seed ran a JSP "
                        + "page on Tomcat 7; here every server answers the same 10 bytes.",
                List.of(new MetricInfo("rps", "requests/s", "req/s", true),
                        new MetricInfo("failed", "failed", "requests", false),
                        new MetricInfo("time_per_request_ms", "time per request", "ms", false)),
                VARIANTS.stream().map(Variant::name).toList(), ScenarioInfo.Layout.SERVERS_BY_VARIANT);
    }

    @Override
    public Set<LoadTool> tools() {
        return Set.of(LoadTool.AB);
    }

    @Override
    public Duration stepEstimate() {
        return NominalTimes.HELLO_START.plus(httpEstimate()).plus(httpsEstimate());
    }

    /** The HTTP columns with their warm-up ({@link #measureHttp}). */
    Duration httpEstimate() {
        return NominalTimes.requests(warmup() + requests(HTTP_KEEP_ALIVE), NominalTimes.KEEP_ALIVE_PER_SECOND)
                .plus(NominalTimes.requests(requests(HTTP_NO_KEEP_ALIVE), NominalTimes.NEW_CONNECTION_PER_SECOND));
    }

    /** The HTTPS columns with their warm-up ({@link #measureHttps}); a handshake per request is most of it. */
    Duration httpsEstimate() {
        return NominalTimes.requests(warmup() + requests(HTTPS_KEEP_ALIVE), NominalTimes.TLS_KEEP_ALIVE_PER_SECOND)
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
        if (LoadTools.ab(run, "warm-up", run.clientCpu(), true, 100, warmup(), limit, run.url(path)) == null) return;
        measure(run, HTTP_KEEP_ALIVE, limit, path);
        measure(run, HTTP_NO_KEEP_ALIVE, limit, path);
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
        if (LoadTools.ab(run, "HTTPS warm-up", run.clientCpu(), true, 100, warmup(), limit, run.httpsUrl("/")) == null) return;
        for (Variant v : https) measure(run, v, limit, "/");
    }

    private void measure(Measurement run, Variant variant, Duration limit, String path) throws IOException, InterruptedException {
        int[] percentiles = p99 ? new int[] {99} : new int[0];
        LoadTools.Ab ab = LoadTools.ab(run, variant.name(), run.clientCpu(), variant.keepAlive(), 100, requests(variant), limit,
                variant.url(run, path), percentiles);
        if (ab == null) return;
        if (variant.https() && ab.output().tls() != null) {
            run.note("TLS negotiated by ab with " + run.serverName() + ": " + ab.output().tls().summary());
        }
        if (!LoadTools.answeredWith2xx(run, variant.name(), ab.output())) return;
        run.record(variant.name(), "rps", ab.output().requestsPerSecond());
        run.record(variant.name(), "failed", ab.output().failed() + ab.output().non2xx());
        run.record(variant.name(), "time_per_request_ms", ab.output().timePerRequestMs());
        if (p99) run.record(variant.name(), "p99_ms", ab.percentilesMicros().get(99) / 1000);
    }
}
