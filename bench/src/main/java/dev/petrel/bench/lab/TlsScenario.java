package dev.petrel.bench.lab;

import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.ScenarioInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * What TLS handshakes cost a server, and what a burst of them does to its first seconds (issue 19):
 * one server per TLS stack (JSSE in Petrel and the Java peers, BoringSSL in Petrel's native engine
 * and in Netty, OpenSSL in nginx).
 *
 * <p>Two sections. {@value #NAME}: the server's CPU time per full TLS 1.3 handshake with 100
 * clients at a time (ab), and per full and per resumed handshake one at a time (openssl s_time),
 * each from {@code /proc} over the tool's run ({@link RunningServer#cpuSample()}), with the rate
 * the tool reached. {@value #COLD_START}: wrk's keep-alive latency right after the server started,
 * 100 clients connecting at once, and the same once warm.
 *
 * <p>Per server, in this order: the cold tail (first, nothing may warm the server before it), a
 * warm-up of full handshakes, the full handshakes with ab, a resumption check with s_client, s_time
 * without and with resumption, the warm tail. The load tools cap the rates (one core of ab makes
 * about a thousand full handshakes a second), so CPU per handshake, not the rate, is the figure to
 * compare; the server's CPU % beside it says whether the server or the tool was the limit.
 */
final class TlsScenario implements Scenario {
    static final String NAME = "tls";
    static final String COLD_START = "tls-cold-start";

    static final String FULL_CONCURRENT = "full handshakes, ab -c 100";
    static final String FULL_SEQUENTIAL = "full handshakes, s_time -new";
    static final String RESUMED = "resumed, s_time -reuse";
    static final String COLD = "cold start, wrk -c 100";
    static final String WARM = "warm, wrk -c 100";

    /** One server per TLS stack, and another build's of Petrel's (--before); the others are not run here. */
    static final List<String> SERVERS = List.of("petrel-nio", "petrel-nio" + ServerCatalog.NATIVE_SUFFIX, "tomcat-nio",
            "jetty", "undertow", "netty-epoll", "netty-epoll-boringssl", Nginx.NAME);

    /** Why a server outside {@link #SERVERS} has no figure here. */
    static final String NOT_IN_SET = "not among the tls scenario's servers, one per TLS stack";

    /**
     * The share of s_time's connections that must have been resumed for a figure of resumed
     * handshakes: all but a few (a session may expire, a ticket key turn, mid-run).
     */
    static final double RESUMED_SHARE = 0.99;

    private static final Duration HTTPS_READY_LIMIT = Duration.ofSeconds(30);
    /** The request s_client sends: HTTP/1.0, so that the server closes and s_client has read the session ticket by then. */
    private static final String REQUEST = "GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";

    private final boolean quick;
    private long ticksPerSecond;

    TlsScenario(boolean quick) {
        this.quick = quick;
    }

    /** Full handshakes measured with ab. */
    int handshakes() {
        return quick ? 500 : 5_000;
    }

    /**
     * At most this many full handshakes with ab before any is measured, after the cold tail, for at
     * most {@link #warmupDuration()}. Long, because each method on the path of a new connection runs a
     * few times per connection: at 1k connections/s the JIT was still compiling them after 3,000
     * (its compiler threads took 35 % of the server's core during the measured run, against 10 %
     * after 20 s), and a measured figure would be part compilation.
     */
    int warmup() {
        return quick ? 200 : 20_000;
    }

    /** The longest the warm-up runs (ab's {@code -t}). */
    Duration warmupDuration() {
        return Duration.ofSeconds(quick ? 30 : 20);
    }

    /** Each s_time run. */
    Duration sTimeDuration() {
        return Duration.ofSeconds(quick ? 1 : 10);
    }

    /** Each wrk run of the cold-start section. */
    Duration tailDuration() {
        return Duration.ofSeconds(quick ? 2 : 10);
    }

    @Override
    public ScenarioInfo info() {
        return new ScenarioInfo(NAME, null, "TLS handshakes: server CPU per full and per resumed TLS 1.3 handshake",
                "Per server, after the cold-start run of the next table and a warm-up of " + warmupDuration().toSeconds()
                        + " s or " + warmup() + " full handshakes, whichever ends first (`ab -c 100 -t " + warmupDuration().toSeconds()
                        + " -n " + warmup() + "`: the JIT compiles the path of a new connection only after thousands of them), three runs, each with the server's CPU time read from `/proc` "
                        + "before and after (its process and any it runs: nginx's master and worker). *" + FULL_CONCURRENT
                        + "*: `ab -c 100 -n " + handshakes() + " https://127.0.0.1/` without keep-alive, so every request is a "
                        + "new connection and a full handshake, 100 at a time. *" + FULL_SEQUENTIAL + "* and *" + RESUMED
                        + "*: `openssl s_time -www / -new` (or `-reuse`) `-time " + sTimeDuration().toSeconds() + "`, one "
                        + "connection after the other; with `-reuse` each offers the session of a first connection made "
                        + "before the timed loop (which is in the CPU window too), and s_time marks each connection "
                        + "resumed or not. A resumed TLS 1.3 handshake skips the certificate and its signature but, as "
                        + "OpenSSL's clients offer it (psk_dhe_ke), still makes an X25519 exchange. A server that resumed fewer than " + Math.round(RESUMED_SHARE * 100) + " % is "
                        + "n/a there, with the counts; `openssl s_client -sess_out` then `-sess_in` checks resumption on "
                        + "its own (notes below). **Server CPU per handshake** = the server's CPU ticks over the run / "
                        + "CLK_TCK (10 ms a tick) / connections completed; each connection also carries one `GET /` and "
                        + "its close. The **rate** (handshakes/s) is the tool's: ab's requests/s, s_time's connections over the run's "
                        + "time. The tools cap it: one core of ab makes about 0.9-1.2k full handshakes/s (its own key "
                        + "exchange and signature check per connection), so a fast server's rate is the client's, and its "
                        + "**server CPU** below 100 % says so: CPU per handshake is the figure to compare. Every server "
                        + "presents the lab's ECDSA P-256 certificate; ab and s_time are OpenSSL 3 clients, which offer "
                        + "X25519 first (the notes give what was negotiated). Server on one CPU, tools on the other, swapped every other pass.",
                List.of(new MetricInfo("cpu_us_per_handshake", "server CPU per handshake", "µs", false),
                        new MetricInfo("handshakes_per_s", "rate", "handshakes/s", true),
                        new MetricInfo("server_cpu_pct", "server CPU", "%", false),
                        new MetricInfo("resumed_pct", "resumed", "%", true)),
                List.of(FULL_CONCURRENT, FULL_SEQUENTIAL, RESUMED), ScenarioInfo.Layout.SERVERS_BY_VARIANT);
    }

    /** The cold-start section. */
    ScenarioInfo coldStart() {
        return new ScenarioInfo(COLD_START, null, "TLS keep-alive tail right after start: 100 clients connecting at once",
                "`wrk -t1 -c 100 -d " + tailDuration().toSeconds() + "s --latency https://127.0.0.1/` (keep-alive), "
                        + "server on one CPU, wrk on the other (swapped every other pass). *" + COLD + "*: right after the server started, with no warm-up "
                        + "(the lab's readiness checks made one request over HTTP and one over TLS), so 100 clients "
                        + "connect at once to a cold server, each with a full handshake, then send requests on their "
                        + "connections. *" + WARM + "*: the same at the end, after the handshakes of the table above. wrk "
                        + "times a request from its write, after its own connection's handshake: a connection's own "
                        + "handshake is not in its latency, but the handshakes the server is still doing for the other "
                        + "clients are, so a cold server's p99 and max here are its burst of cold handshakes. Latencies "
                        + "are wrk's distribution (`--latency`), requests/s over the whole run.",
                List.of(new MetricInfo("p99_ms", "p99", "ms", false),
                        new MetricInfo("p50_ms", "p50", "ms", false),
                        new MetricInfo("max_ms", "max", "ms", false),
                        new MetricInfo("rps", "requests/s", "req/s", true),
                        new MetricInfo("errors", "errors", "requests", false)),
                List.of(COLD, WARM), ScenarioInfo.Layout.SERVERS_BY_VARIANT);
    }

    @Override
    public List<ScenarioInfo> sections() {
        return List.of(info(), coldStart());
    }

    @Override
    public String unavailable() {
        return Lab.onPath("openssl") ? null : "openssl is not installed (apt-get install openssl)";
    }

    @Override
    public boolean https() {
        return true;
    }

    @Override
    public boolean overTls(String variant) {
        return true;
    }

    @Override
    public Set<LoadTool> tools() {
        return Set.of(LoadTool.AB, LoadTool.WRK, LoadTool.OPENSSL);
    }

    @Override
    public String notApplicable(ServerSpec server) {
        return SERVERS.contains(ServerCatalog.sameServerNow(server.name())) ? null : NOT_IN_SET;
    }

    @Override
    public Duration stepEstimate() {
        Duration warm = NominalTimes.requests(warmup(), NominalTimes.TLS_HANDSHAKES_PER_SECOND);
        if (warm.compareTo(warmupDuration()) > 0) warm = warmupDuration();
        Duration handshakes = warm.plus(NominalTimes.requests(handshakes(), NominalTimes.TLS_HANDSHAKES_PER_SECOND));
        // s_time runs a second or so past its -time; s_client's two connections take well under a second
        Duration openssl = sTimeDuration().plusSeconds(1).multipliedBy(2).plusSeconds(1);
        return NominalTimes.HELLO_START.plus(tailDuration().multipliedBy(2)).plus(handshakes).plus(openssl);
    }

    @Override
    public void measure(Measurement run) throws Exception {
        Measurement tail = run.inSection(COLD_START);
        try {
            run.server().awaitHttps(run.tls().clientContext(), HTTPS_READY_LIMIT);
        } catch (IOException e) {
            for (String variant : info().variants()) run.problem(variant, e.getMessage() + "; no HTTPS figure");
            for (String variant : coldStart().variants()) tail.problem(variant, e.getMessage() + "; no HTTPS figure");
            return;
        }
        if (ticksPerSecond == 0) ticksPerSecond = ProcessCpu.ticksPerSecond();
        tail(tail, COLD);
        Duration limit = Duration.ofSeconds(quick ? 30 : 120);
        if (LoadTools.ab(run, "warm-up", run.clientCpu(), false, 100, warmup(), warmupDuration(), run.httpsUrl("/")) == null) return;
        fullHandshakes(run, limit);
        SClientOutput check = resumptionCheck(run);
        sTime(run, FULL_SEQUENTIAL, false, check);
        sTime(run, RESUMED, true, check);
        tail(tail, WARM);
    }

    /** ab without keep-alive, 100 at a time: every request a full handshake. */
    private void fullHandshakes(Measurement run, Duration limit) throws IOException, InterruptedException {
        ProcessCpu.Sample start = run.server().cpuSample();
        LoadTools.Ab ab = LoadTools.ab(run, FULL_CONCURRENT, run.clientCpu(), false, 100, handshakes(), limit, run.httpsUrl("/"));
        ProcessCpu.Sample end = run.server().cpuSample();
        if (ab == null || !LoadTools.answeredWith2xx(run, FULL_CONCURRENT, ab.output())) return;
        if (ab.output().tls() != null) {
            run.note("TLS negotiated by ab with " + run.serverName() + ": " + ab.output().tls().summary());
        }
        long connections = ab.output().complete() - ab.output().failed();
        if (ab.output().failed() > 0) {
            run.problem(FULL_CONCURRENT, ab.output().failed() + " of " + ab.output().complete() + " connections failed");
        }
        if (connections <= 0) return;
        record(run, FULL_CONCURRENT, ProcessCpu.ticksBetween(start, end), end.nanoTime() - start.nanoTime(), connections,
                ab.output().requestsPerSecond());
    }

    /**
     * {@code openssl s_time -new} or {@code -reuse}, one connection after the other; for
     * {@code -reuse} a figure only when the server really resumed ({@link #RESUMED_SHARE}), else
     * "n/a" with the counts and what s_client saw ({@code check}, or {@code null} when it could not tell).
     */
    private void sTime(Measurement run, String variant, boolean reuse, SClientOutput check)
            throws IOException, InterruptedException {
        List<String> command = List.of("openssl", "s_time", "-connect", "127.0.0.1:" + (run.port() + 1), "-www", "/",
                reuse ? "-reuse" : "-new", "-time", Long.toString(sTimeDuration().toSeconds()));
        ProcessCpu.Sample start = run.server().cpuSample();
        CommandResult result = Commands.run(Commands.pinned(run.clientCpu(), command), sTimeDuration().plusSeconds(30),
                run.raw(variant, "s_time"), LoadTools.live(run, LiveFigures.sTime(variant, sTimeDuration())));
        ProcessCpu.Sample end = run.server().cpuSample();
        if (!result.ok()) {
            run.problem(variant, "s_time " + (result.timedOut() ? "ran past its time limit" : "exited with " + result.exitCode()));
            return;
        }
        STimeOutput output;
        try {
            output = STimeOutput.parse(result.output());
        } catch (IllegalArgumentException e) {
            run.problem(variant, e.getMessage());
            return;
        }
        if (output.connections() <= 0) {
            run.problem(variant, "s_time completed no connection");
            return;
        }
        if (reuse) {
            if (output.resumed() < RESUMED_SHARE * output.connections()) {
                run.notApplicable(variant, noResumption(output, check));
                return;
            }
            run.record(variant, "resumed_pct", output.resumedPercent());
        }
        long nanos = end.nanoTime() - start.nanoTime();
        record(run, variant, ProcessCpu.ticksBetween(start, end), nanos, output.connections(),
                output.connections() * 1e9 / nanos);
    }

    /** The reason a server has no figure of resumed handshakes, with what each client saw. */
    static String noResumption(STimeOutput output, SClientOutput check) {
        return "no resumption: " + output.resumed() + " of " + output.connections() + " s_time -reuse connections resumed"
                + (check == null ? "" : ", and s_client's second connection was " + (check.reused() ? "Reused" : "New"));
    }

    /**
     * Resumption checked on its own: s_client saves the session of one connection, a second offers
     * it. Returns what the second saw, or {@code null} (a problem recorded) when it could not tell.
     */
    private SClientOutput resumptionCheck(Measurement run) throws IOException, InterruptedException {
        Path first = run.raw(RESUMED, "s_client-first");
        Path session = first.resolveSibling(run.serverName() + "-pass" + run.pass() + "-session.pem");
        Path request = first.resolveSibling(run.serverName() + "-pass" + run.pass() + "-request.txt");
        Files.createDirectories(first.getParent());
        Files.deleteIfExists(session);
        Files.writeString(request, REQUEST, StandardCharsets.US_ASCII);
        String connect = "127.0.0.1:" + (run.port() + 1);
        SClientOutput saved = sClient(run, List.of("-connect", connect, "-sess_out", session.toString(), "-ign_eof"),
                request, first);
        if (saved == null) return null;
        if (!Files.exists(session)) {
            run.note("resumption checked with s_client against " + run.serverName() + ": " + saved.summary()
                    + ", and the server sent no session to resume");
            return new SClientOutput(false, saved.protocol(), saved.cipher(), saved.keyExchange());
        }
        SClientOutput offered = sClient(run, List.of("-connect", connect, "-sess_in", session.toString(), "-ign_eof"),
                request, run.raw(RESUMED, "s_client-second"));
        if (offered == null) return null;
        run.note("resumption checked with s_client against " + run.serverName() + ": first " + saved.summary()
                + "; second, offering its session: " + offered.summary());
        return offered;
    }

    /** One {@code openssl s_client} connection sending the lab's request; {@code null} (a problem recorded) when it failed. */
    private SClientOutput sClient(Measurement run, List<String> options, Path request, Path output)
            throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("openssl", "s_client"));
        command.addAll(options);
        CommandResult result = Commands.runWithInput(Commands.pinned(run.clientCpu(), command), request,
                Duration.ofSeconds(15), output);
        if (!result.ok()) {
            run.problem(RESUMED, "s_client " + (result.timedOut() ? "ran past its time limit" : "exited with "
                    + result.exitCode()) + "; resumption not checked");
            return null;
        }
        try {
            return SClientOutput.parse(result.output());
        } catch (IllegalArgumentException e) {
            run.problem(RESUMED, e.getMessage() + "; resumption not checked");
            return null;
        }
    }

    /** wrk's keep-alive latencies over TLS, 100 connections opened at once. */
    private void tail(Measurement tail, String variant) throws IOException, InterruptedException {
        WrkOutput wrk = LoadTools.wrk(tail, variant, tail.clientCpu(), 100, tailDuration(), tail.httpsUrl("/"), true);
        if (wrk == null) return;
        if (wrk.requests() == 0 || wrk.latencyPercentilesMs().isEmpty()) {
            tail.problem(variant, "wrk completed no request (socket errors: " + wrk.socketErrorsByKind() + ")");
            return;
        }
        tail.record(variant, "p99_ms", wrk.percentileMs(99));
        tail.record(variant, "p50_ms", wrk.percentileMs(50));
        tail.record(variant, "max_ms", wrk.latencyMaxMs());
        tail.record(variant, "rps", wrk.requestsPerSecond());
        tail.record(variant, "errors", wrk.socketErrors() + wrk.non2xx3xx());
    }

    /** The figures of one run: the server's CPU per connection and as a share of a core, and the tool's rate. */
    private void record(Measurement run, String variant, long ticks, long nanos, long connections, double perSecond) {
        run.record(variant, "cpu_us_per_handshake", ProcessCpu.microsEach(ticks, ticksPerSecond, connections));
        run.record(variant, "handshakes_per_s", perSecond);
        run.record(variant, "server_cpu_pct", ProcessCpu.percentOfOneCore(ticks, ticksPerSecond, nanos));
    }
}
