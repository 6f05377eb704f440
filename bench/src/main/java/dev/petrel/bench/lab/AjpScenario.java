package dev.petrel.bench.lab;

import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.ScenarioInfo;
import dev.petrel.bench.model.ServerInfo;
import dev.petrel.bench.servers.LabAjp;
import dev.petrel.testkit.ApacheHttpd;
import dev.petrel.testkit.ApacheHttpd.AjpModule;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;

/**
 * Seeds 002: Apache httpd in front of an AJP backend, with mod_jk and with mod_proxy_ajp. The
 * seed found mod_jk using half the CPU of mod_proxy_ajp at 400 requests/s (its table: average CPU %
 * of Apache, of Tomcat, and their total), and reaching 1400 requests/s where mod_proxy_ajp topped
 * out near 900 with errors as users ramped up. Here the backends are the lab's servers that speak
 * AJP (Petrel's AJP connector, Tomcat 11's {@code AjpNioProtocol}), each behind a private httpd
 * from the test kit ({@link ApacheHttpd}), once per module: four cells per measurement with Petrel
 * and Tomcat.
 *
 * <p>Two sections of the report. {@value #NAME}: per backend × module, 400 requests/s for 60 s from
 * the lab's open-loop generator ({@link FixedRateLoad}), with CPU % of one core of httpd (main
 * process and children, {@link ProcessCpu}), of the backend JVM and their sum, as the seed's
 * table; and the highest rates of the ladder. {@value #LADDER}: {@code wrk} through httpd at
 * 10 to 400 connections, with requests/s and errors at each level.
 *
 * <p>Placement: httpd and the backend on the servers' CPU (httpd pinned after start, its main
 * process first so that every child it forks later inherits the CPU, then each child it already
 * has; checked from {@code /proc/PID/status}), the generator and wrk on the load CPU. A fresh httpd
 * in its own folder for every cell; the backend stays up across its cells, as the seed's Tomcat did.
 * The fixed-rate cells of both modules run before either ladder, so that no overload of the ladder
 * is in the CPU figures; the modules take turns going first from pass to pass.
 */
final class AjpScenario implements Scenario {
    static final String NAME = "ajp";
    static final String LADDER = "ajp-ladder";
    /** The seed's rate. */
    static final int RATE = 400;
    /** mpm_event, for both modules: httpd's compiled-in defaults, set explicitly so the report can say them. */
    static final int THREADS_PER_CHILD = 25;
    static final int MAX_REQUEST_WORKERS = 400;
    /** The generator's pool of keep-alive connections to httpd. */
    static final int CONNECTIONS = 16;
    static final List<AjpModule> MODULES = List.of(AjpModule.MOD_JK, AjpModule.MOD_PROXY_AJP);
    /** The httpd directives the report quotes from the generated configuration. */
    static final Set<String> QUOTED = Set.of("startservers", "serverlimit", "threadlimit", "threadsperchild",
            "minsparethreads", "maxsparethreads", "maxrequestworkers", "maxconnectionsperchild", "keepalive",
            "maxkeepaliverequests", "keepalivetimeout", "timeout", "asyncrequestworkerfactor");
    private static final Duration AJP_READY_LIMIT = Duration.ofSeconds(30);
    private static final Duration FRONT_READY_LIMIT = Duration.ofSeconds(15);

    private final boolean quick;
    private final LabPaths paths;
    private long ticksPerSecond;

    AjpScenario(boolean quick, LabPaths paths) {
        this.quick = quick;
        this.paths = paths;
    }

    /** The fixed-rate section's variant, and the module's name in the report. */
    static String variant(AjpModule module) {
        return switch (module) {
            case MOD_JK -> "mod_jk";
            case MOD_PROXY_AJP -> "mod_proxy_ajp";
        };
    }

    /** The ladder section's variant of {@code connections}. */
    static String level(int connections) {
        return connections + " connections";
    }

    /** The ladder metric key of {@code what} ({@code rps}, {@code non2xx}, {@code socket}) through {@code module}. */
    static String ladderMetric(String what, AjpModule module) {
        return what + "_" + switch (module) {
            case MOD_JK -> "jk";
            case MOD_PROXY_AJP -> "proxy_ajp";
        };
    }

    Duration rateWindow() {
        return Duration.ofSeconds(quick ? 2 : 60);
    }

    /** The ladder's levels; the quick run takes three of them, to stay within its two minutes with five servers. */
    List<Integer> levels() {
        return quick ? List.of(10, 100, 400) : List.of(10, 50, 100, 200, 400);
    }

    Duration levelDuration() {
        return Duration.ofSeconds(quick ? 1 : 10);
    }

    private Duration levelPause() {
        return Duration.ofMillis(quick ? 200 : 2000);
    }

    private Duration warmup() {
        return Duration.ofSeconds(quick ? 1 : 10);
    }

    /** The backend is warm by then; the fresh httpd and its connections to the backend are not. */
    private Duration ladderWarmup() {
        return Duration.ofSeconds(quick ? 1 : 5);
    }

    /** How long before the window the generator JVM is started: its start-up is not in the window. */
    private Duration generatorLead() {
        return Duration.ofMillis(quick ? 1500 : 2000);
    }

    private long requestTimeoutMs() {
        return quick ? 2000 : 5000;
    }

    @Override
    public ScenarioInfo info() {
        String window = rateWindow().toSeconds() + " s";
        return new ScenarioInfo(NAME, "002", "AJP behind Apache httpd: mod_jk and mod_proxy_ajp at " + RATE + " requests/s",
                "Each backend that speaks AJP (Petrel's AJP connector; Tomcat's `AjpNioProtocol` on tomcat-nio, "
                        + "with `address` and `secret` set and its defaults otherwise) behind a private Apache httpd, "
                        + "once with mod_jk and once with mod_proxy_ajp: each module at its defaults except the secret, "
                        + "which the backends require (the seed swapped `JkMount` for `ProxyPassMatch` and nothing else); "
                        + "both with mpm_event, `ThreadsPerChild " + THREADS_PER_CHILD + "` and `MaxRequestWorkers "
                        + MAX_REQUEST_WORKERS + "` (httpd's compiled-in defaults; Debian's file says 150), all "
                        + (MAX_REQUEST_WORKERS / THREADS_PER_CHILD) + " children started up front and kept (the test "
                        + "kit's fixed pool), keep-alive at httpd's defaults (100 requests a connection, 5 s); the notes "
                        + "quote the generated configuration. A fresh httpd in its own folder per cell; the backend stays up across its "
                        + "cells, as the seed's Tomcat did. httpd and the backend on one CPU, the load on the other, the two swapped every other pass (httpd is "
                        + "pinned after it starts: its main process, whose later children inherit the CPU, then each "
                        + "child; checked in `/proc/PID/status` at the end of the window). Per cell: `GET /` through "
                        + "httpd checked to answer HelloWorld, `wrk -t1 -c10 -d" + warmup().toSeconds() + "s` through "
                        + "httpd to warm up, then the lab's open-loop generator (its own JVM on the load's CPU): " + RATE
                        + " requests/s of `GET /` for " + window + " over " + CONNECTIONS + " keep-alive connections, "
                        + "request i sent at start + i/" + RATE + " s whatever became of the others, latency measured "
                        + "from that intended time (so a stall is not hidden). CPU is % of one core from "
                        + "`/proc/PID/stat` (utime + stime in `getconf CLK_TCK` ticks) at the start and the end of "
                        + "those " + window + ": *httpd* is its main process, each child, and the children it reaped "
                        + "meanwhile (cutime + cstime); *backend* is its JVM (GC and JIT included); *total* is both, the "
                        + "seed's three columns. *Achieved*: 200 responses per second from the first send to the last "
                        + "answer; *errors*: failed connects and reads, timeouts, other statuses, unfinished (by kind in "
                        + "the notes). The *ladder* columns come from the next section: the highest requests/s at a "
                        + "level without any error, and the highest at any level. The fixed-rate cells of both modules "
                        + "run before either ladder; the modules take turns going first from pass to pass.",
                List.of(new MetricInfo("cpu_total_pct", "total CPU", "%", false),
                        new MetricInfo("cpu_front_pct", "httpd CPU", "%", false),
                        new MetricInfo("cpu_backend_pct", "backend CPU", "%", false),
                        new MetricInfo("achieved_rps", "achieved", "req/s", true),
                        new MetricInfo("p50_us", "p50", "µs", false),
                        new MetricInfo("p99_us", "p99", "µs", false),
                        new MetricInfo("errors", "errors", "requests", false),
                        new MetricInfo("ladder_max_ok_rps", "ladder: highest without errors", "req/s", true),
                        new MetricInfo("ladder_max_rps", "ladder: highest", "req/s", true)),
                MODULES.stream().map(AjpScenario::variant).toList(), ScenarioInfo.Layout.SERVERS_BY_VARIANT,
                List.of("cpu_total_pct", "ladder_max_ok_rps"));
    }

    /** The ladder: a row per level in each backend's table, a column per metric and module. */
    ScenarioInfo ladderInfo() {
        String levels = levels().stream().map(String::valueOf).reduce((a, b) -> a + ", " + b).orElse("");
        List<MetricInfo> metrics = new ArrayList<>();
        for (AjpModule module : MODULES) {
            metrics.add(new MetricInfo(ladderMetric("rps", module), "req/s via " + variant(module), "req/s", true));
        }
        for (AjpModule module : MODULES) {
            metrics.add(new MetricInfo(ladderMetric("non2xx", module), "non-2xx via " + variant(module), "responses", false));
            metrics.add(new MetricInfo(ladderMetric("socket", module), "socket errors via " + variant(module), "errors", false));
        }
        return new ScenarioInfo(LADDER, "002", "AJP behind Apache httpd: rising concurrency",
                "`wrk -t1 -c N -d" + levelDuration().toSeconds() + "s --timeout 10s` against `GET /` through httpd for N "
                        + "in " + levels + ", in that order, " + levelPause().toMillis() + " ms apart, after a warm-up "
                        + "of `wrk -t1 -c10 -d" + ladderWarmup().toSeconds() + "s`; a fresh httpd per backend and module with "
                        + "the settings above, httpd and backend on one CPU, wrk on the other, swapped every other pass. The seed's JMeter users become "
                        + "wrk's connections. Per level: requests/s, responses that were not 2xx or 3xx, and socket "
                        + "errors (connect, read, write and timeout added up; by kind in the notes when there are any). "
                        + "The highest rates without errors and overall are in the section above.",
                metrics, levels().stream().map(AjpScenario::level).toList(), ScenarioInfo.Layout.VARIANTS_BY_SERVER,
                MODULES.stream().map(m -> ladderMetric("rps", m)).toList());
    }

    @Override
    public List<ScenarioInfo> sections() {
        return List.of(info(), ladderInfo());
    }

    @Override
    public String unavailable() {
        return ApacheHttpd.unavailableReason().orElse(null);
    }

    @Override
    public Set<LoadTool> tools() {
        // wrk and the fixed-rate generator talk to httpd; what reaches the server is httpd's AJP
        return Set.of();
    }

    @Override
    public List<String> needs() {
        return List.of("httpd", "mod_jk", "mod_proxy_ajp", "wrk");
    }

    @Override
    public Duration stepEstimate() {
        // per module: a fresh httpd, its warm-up, the generator's lead and window; then its ladder
        Duration fixedRate = NominalTimes.HTTPD_START.plus(warmup()).plus(generatorLead()).plus(rateWindow());
        Duration ladder = NominalTimes.HTTPD_START.plus(ladderWarmup())
                .plus(levelDuration().plus(levelPause()).multipliedBy(levels().size()));
        return NominalTimes.HELLO_START.plus(fixedRate.plus(ladder).multipliedBy(MODULES.size()));
    }

    @Override
    public boolean ajp() {
        return true;
    }

    @Override
    public String notApplicable(ServerSpec server) {
        if (server.ajp()) return null;
        if (server.group() == ServerInfo.Group.BASELINE) return "the C baseline speaks no AJP";
        if (server.name().startsWith("tomcat-")) return "the lab measures Tomcat's AJP connector on tomcat-nio";
        return "speaks no AJP";
    }

    @Override
    public void measure(Measurement run) throws Exception {
        run.server().awaitAjp(AJP_READY_LIMIT);
        if (ticksPerSecond == 0) ticksPerSecond = ProcessCpu.ticksPerSecond();
        List<AjpModule> order = run.pass() % 2 == 1 ? MODULES : MODULES.reversed();
        for (AjpModule module : order) {
            cell(run, variant(module), () -> fixedRate(run, module));
        }
        for (AjpModule module : order) {
            cell(run, variant(module) + " ladder", () -> ladder(run, module));
        }
    }

    @FunctionalInterface
    private interface Cell {
        void run() throws IOException, InterruptedException;
    }

    /** One cell; its failure is a problem of that cell and the others still run. */
    private static void cell(Measurement run, String what, Cell cell) throws InterruptedException {
        try {
            cell.run();
        } catch (IOException | RuntimeException e) {
            run.problem(what, e.getMessage() == null ? e.toString() : e.getMessage());
        }
    }

    /** (a) The seed's table: CPU at a fixed rate through httpd. */
    private void fixedRate(Measurement run, AjpModule module) throws IOException, InterruptedException {
        String variant = variant(module);
        try (Front front = Front.start(run, module, variant)) {
            String url = front.httpd().uri("/").toString();
            if (LoadTools.wrk(run, variant + " warm-up", run.clientCpu(), 10, warmup(), url) == null) return;

            long windowMs = rateWindow().toMillis();
            long startEpochMs = System.currentTimeMillis() + generatorLead().toMillis();
            FixedRateLoad.Config config = new FixedRateLoad.Config(URI.create(url), RATE, windowMs, CONNECTIONS,
                    startEpochMs, requestTimeoutMs());
            Duration limit = generatorLead().plusMillis(windowMs + requestTimeoutMs()).plusSeconds(30);
            Path raw = run.raw(variant, "fixed-rate");
            CompletableFuture<CommandResult> generator = CompletableFuture.supplyAsync(() -> {
                try {
                    return Commands.run(Commands.pinned(run.clientCpu(), generatorCommand(config)), limit, raw,
                            LoadTools.live(run, LiveFigures.fixedRate(variant, FixedRateLoad.requests(RATE, windowMs))));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
            }, runnable -> Thread.ofVirtual().name("fixed-rate-" + variant).start(runnable));

            Window window;
            List<String> pinning;
            try {
                sleepUntil(startEpochMs);
                window = Window.open(front.httpd(), run.server().pid());
                sleepUntil(startEpochMs + windowMs);
                window.close(front.httpd(), run.server().pid());
                pinning = front.checkPinning(run.serverCpu());
            } catch (IOException | RuntimeException e) {
                // the generator ends by itself within its limit; the next cell must not overlap it
                try {
                    await(generator);
                } catch (IOException ignored) {
                    // the first failure is the one to report
                }
                throw e;
            }
            CommandResult result = await(generator);
            Files.writeString(run.raw(variant, "cpu"), window.describe(ticksPerSecond), StandardCharsets.UTF_8);
            if (!result.ok()) {
                run.problem(variant, "the fixed-rate generator " + (result.timedOut() ? "ran past its time limit"
                        : "exited with " + result.exitCode()) + " (see " + raw.getFileName() + ")");
                return;
            }
            FixedRateOutput out;
            try {
                out = FixedRateOutput.parse(result.output());
            } catch (IllegalArgumentException e) {
                run.problem(variant, e.getMessage());
                return;
            }
            if (!pinning.isEmpty()) run.problem(variant, "httpd not on CPU " + run.serverCpu() + ": " + String.join("; ", pinning));
            if (!window.consistent()) {
                run.problem(variant, "httpd reaped a child during every attempt at a CPU sample; its CPU figure may "
                        + "count that child twice or not at all");
            }
            if (out.startedLateMs() > 0) {
                run.problem(variant, "the generator was ready " + out.startedLateMs() + " ms after the agreed start; the "
                        + "first requests' latency includes that");
            }
            double httpdCpu = ProcessCpu.percentOfOneCore(window.frontTicks(), ticksPerSecond, window.nanos());
            double backend = ProcessCpu.percentOfOneCore(window.backendTicks(), ticksPerSecond, window.nanos());
            run.record(variant, "cpu_total_pct", httpdCpu + backend);
            run.record(variant, "cpu_front_pct", httpdCpu);
            run.record(variant, "cpu_backend_pct", backend);
            run.record(variant, "achieved_rps", out.achievedPerSecond());
            run.record(variant, "p50_us", out.p50Ms() * 1000);
            run.record(variant, "p99_us", out.p99Ms() * 1000);
            run.record(variant, "errors", out.errors());
            if (out.errors() > 0) {
                run.note(run.serverName() + " via " + variant + ", pass " + run.pass() + ", errors at " + RATE
                        + " requests/s: " + out.errorText());
            }
        }
    }

    /** The generator's command line (without pinning): its own small JVM on the lab's class path. */
    List<String> generatorCommand(FixedRateLoad.Config config) {
        List<String> command = new ArrayList<>(List.of(paths.java().toString(), "-Xms64m", "-Xmx64m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-cp", paths.libraries() + "/*", FixedRateLoad.class.getName()));
        command.addAll(config.arguments());
        return command;
    }

    /** (b) The ladder: wrk at rising concurrency through a fresh httpd. */
    private void ladder(Measurement run, AjpModule module) throws IOException, InterruptedException {
        String variant = variant(module);
        Measurement ladder = run.inSection(LADDER);
        List<Ladder.Step> steps = new ArrayList<>();
        try (Front front = Front.start(ladder, module, variant)) {
            String url = front.httpd().uri("/").toString();
            if (LoadTools.wrk(ladder, variant + " warm-up", run.clientCpu(), 10, ladderWarmup(), url) == null) return;
            for (int connections : levels()) {
                Thread.sleep(levelPause().toMillis()); // the previous level's connections close on both sides
                String level = level(connections);
                WrkOutput wrk = LoadTools.wrk(ladder, level + ", " + variant, run.clientCpu(), connections, levelDuration(), url);
                if (wrk == null) continue;
                ladder.record(level, ladderMetric("rps", module), wrk.requestsPerSecond());
                ladder.record(level, ladderMetric("non2xx", module), wrk.non2xx3xx());
                ladder.record(level, ladderMetric("socket", module), wrk.socketErrors());
                if (wrk.socketErrors() > 0) {
                    ladder.note(run.serverName() + " via " + variant + ", " + level + ", pass " + run.pass()
                            + ": socket errors " + wrk.socketErrorsByKind());
                }
                steps.add(new Ladder.Step(connections, wrk.requestsPerSecond(), wrk.socketErrors() + wrk.non2xx3xx()));
            }
        }
        Ladder.Summary summary = Ladder.summarize(steps);
        if (summary.bestWithoutErrors() != null) run.record(variant, "ladder_max_ok_rps", summary.bestWithoutErrors().rps());
        if (summary.best() != null) run.record(variant, "ladder_max_rps", summary.best().rps());
        if (!steps.isEmpty() && summary.bestWithoutErrors() == null) {
            run.note(run.serverName() + " via " + variant + ", pass " + run.pass() + ": errors at every level of the ladder");
        }
    }

    private static CommandResult await(CompletableFuture<CommandResult> generator) throws IOException, InterruptedException {
        try {
            return generator.get();
        } catch (ExecutionException e) {
            throw new IOException("the fixed-rate generator could not run: " + e.getCause().getMessage(), e.getCause());
        }
    }

    private static void sleepUntil(long epochMs) throws InterruptedException {
        long left = epochMs - System.currentTimeMillis();
        if (left > 0) Thread.sleep(left);
    }

    /**
     * The httpd directives of {@code QUOTED} in a configuration text, as written, in order, without
     * comments or repeats: for the report's notes.
     */
    static List<String> quotedDirectives(String configuration) {
        List<String> found = new ArrayList<>();
        for (String raw : configuration.lines().toList()) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) continue;
            String name = line.split("\\s+", 2)[0].toLowerCase(Locale.ROOT);
            String normalized = String.join(" ", line.split("\\s+"));
            if (QUOTED.contains(name) && !found.contains(normalized)) found.add(normalized);
        }
        return found;
    }

    private static String shortened(String text) {
        String shown = text.replace("\r", "\\r").replace("\n", "\\n");
        return shown.length() > 60 ? shown.substring(0, 60) + "..." : shown;
    }

    /**
     * A whole response read to the end of its connection: the status line, the header fields, and
     * the body with the chunked framing taken off when it has any.
     *
     * @param statusLine the first line
     * @param head the status line and the fields, without the blank line
     * @param body the body's text (ISO-8859-1), or {@code null} when its framing is broken
     * @param framing {@code Content-Length N}, {@code chunked} or {@code until close}
     */
    record Answer(String statusLine, String head, String body, String framing) {
        /** The value of the field {@code name} (any case), or {@code null}. */
        String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).strip().equalsIgnoreCase(name)) return line.substring(colon + 1).strip();
            }
            return null;
        }

        static Answer parse(String response) {
            int end = response.indexOf("\r\n\r\n");
            String head = end < 0 ? response : response.substring(0, end);
            String rest = end < 0 ? "" : response.substring(end + 4);
            String statusLine = head.lines().findFirst().orElse("");
            Answer partial = new Answer(statusLine, head, null, null);
            String coding = partial.header("transfer-encoding");
            if (coding != null && coding.toLowerCase(Locale.ROOT).endsWith("chunked")) {
                return new Answer(statusLine, head, end < 0 ? null : dechunk(rest), "chunked");
            }
            String length = partial.header("content-length");
            if (length != null) {
                try {
                    int n = Integer.parseInt(length);
                    return new Answer(statusLine, head, end < 0 || rest.length() < n ? null : rest.substring(0, n),
                            "Content-Length " + n);
                } catch (NumberFormatException e) {
                    return new Answer(statusLine, head, null, "Content-Length '" + length + "'");
                }
            }
            return new Answer(statusLine, head, end < 0 ? null : rest, "until close");
        }

        /** The data of a chunked body, or {@code null} when it is cut short or malformed. */
        static String dechunk(String chunked) {
            StringBuilder data = new StringBuilder();
            int at = 0;
            while (true) {
                int eol = chunked.indexOf("\r\n", at);
                if (eol < 0) return null;
                String size = chunked.substring(at, eol);
                int semicolon = size.indexOf(';');
                int n;
                try {
                    n = Integer.parseInt((semicolon < 0 ? size : size.substring(0, semicolon)).strip(), 16);
                } catch (NumberFormatException e) {
                    return null;
                }
                if (n == 0) return data.toString();
                int start = eol + 2;
                if (n < 0 || chunked.length() < start + n + 2 || !chunked.startsWith("\r\n", start + n)) return null;
                data.append(chunked, start, start + n);
                at = start + n + 2;
            }
        }
    }

    /** The CPU times of httpd and the backend at the two ends of the fixed-rate window. */
    private static final class Window {
        private final ProcessCpu.Sample frontStart;
        private final ProcessCpu.Times backendStart;
        private ProcessCpu.Sample frontEnd;
        private ProcessCpu.Times backendEnd;

        private Window(ProcessCpu.Sample frontStart, ProcessCpu.Times backendStart) {
            this.frontStart = frontStart;
            this.backendStart = backendStart;
        }

        static Window open(ApacheHttpd httpd, long backendPid) throws IOException {
            ProcessCpu.Sample front = ProcessCpu.sample(httpd.mainPid(), httpd.pids());
            return new Window(front, ProcessCpu.read(backendPid));
        }

        void close(ApacheHttpd httpd, long backendPid) throws IOException {
            frontEnd = ProcessCpu.sample(httpd.mainPid(), httpd.pids());
            backendEnd = ProcessCpu.read(backendPid);
        }

        long nanos() {
            return frontEnd.nanoTime() - frontStart.nanoTime();
        }

        long frontTicks() {
            return ProcessCpu.ticksBetween(frontStart, frontEnd);
        }

        long backendTicks() {
            return ProcessCpu.ticksBetween(backendStart, backendEnd);
        }

        boolean consistent() {
            return frontStart.consistent() && frontEnd.consistent();
        }

        String describe(long ticksPerSecond) {
            return String.format(Locale.ROOT, "window %.3f s, %d ticks per second%n", nanos() / 1e9, ticksPerSecond)
                    + "httpd at start: " + frontStart + "\nhttpd at end:   " + frontEnd
                    + "\nhttpd ticks in the window: " + frontTicks()
                    + "\nbackend at start: " + backendStart + "\nbackend at end:   " + backendEnd
                    + "\nbackend ticks in the window: " + backendTicks() + "\n";
        }
    }

    /**
     * A running httpd for one cell: started fresh, registered to be stopped even if the lab is
     * interrupted, pinned, checked to answer HelloWorld from the backend; on close its error log and
     * configuration go to the raw output and it is stopped.
     */
    private record Front(ApacheHttpd httpd, Measurement run, String variant) implements AutoCloseable {
        static Front start(Measurement run, AjpModule module, String variant) throws IOException, InterruptedException {
            // the kit picks a free port on 127.0.0.1 and a temporary ServerRoot, deleted on close
            ApacheHttpd httpd = ApacheHttpd.builder(module)
                    .backend("127.0.0.1", run.ajpPort())
                    .secret(LabAjp.SECRET)
                    .threadsPerChild(THREADS_PER_CHILD)
                    .maxRequestWorkers(MAX_REQUEST_WORKERS)
                    .start();
            Front front = new Front(httpd, run, variant);
            ProcessRegistry.addStopper(httpd);
            try {
                front.pin(run.serverCpu());
                front.check();
                front.quoteConfiguration();
                return front;
            } catch (IOException | InterruptedException | RuntimeException e) {
                front.close();
                throw e;
            }
        }

        /** {@code taskset -a -p -c CPU} on the main process first (children it forks later inherit), then on each child. */
        private void pin(int cpu) throws IOException, InterruptedException {
            pin(httpd.mainPid(), cpu);
            for (long pid : httpd.pids()) if (pid != httpd.mainPid()) pin(pid, cpu);
        }

        private void pin(long pid, int cpu) throws IOException, InterruptedException {
            CommandResult result = Commands.run(List.of("taskset", "-a", "-p", "-c", Integer.toString(cpu), Long.toString(pid)),
                    Duration.ofSeconds(10), run.raw(variant, "taskset"));
            // a child that ended meanwhile cannot be pinned, and needs not be
            if (!result.ok() && (pid == httpd.mainPid() || Files.exists(Path.of("/proc", Long.toString(pid))))) {
                throw new IOException("could not pin httpd process " + pid + " to CPU " + cpu + ": " + result.output().strip());
            }
        }

        /** The httpd processes not allowed exactly the servers' CPU, each as {@code PID: CPUS}; empty when all are. */
        List<String> checkPinning(int cpu) {
            List<String> wrong = new ArrayList<>();
            for (long pid : httpd.pids()) {
                try {
                    String allowed = ProcessCpu.allowedCpus(pid);
                    if (!allowed.equals(Integer.toString(cpu))) wrong.add(pid + ": " + allowed);
                } catch (IOException gone) {
                    // ended since it was listed
                }
            }
            return wrong;
        }

        /** {@code GET /} through httpd until it answers 200 HelloWorld, within {@link #FRONT_READY_LIMIT}. */
        private void check() throws IOException, InterruptedException {
            URI uri = httpd.uri("/");
            long deadline = System.nanoTime() + FRONT_READY_LIMIT.toNanos();
            String last = "no attempt";
            while (true) {
                try {
                    String response = fetch(uri);
                    Path raw = run.raw(variant, "response");
                    Files.createDirectories(raw.getParent());
                    Files.writeString(raw, response, StandardCharsets.ISO_8859_1);
                    Answer answer = Answer.parse(response);
                    if (answer.statusLine().startsWith("HTTP/1.1 200") && "HelloWorld".equals(answer.body())) {
                        if (run.scenario().equals(NAME)) {
                            run.note("GET / through httpd with " + variant + " from " + run.serverName() + ": '"
                                    + answer.statusLine() + "', " + answer.framing() + ", Server '"
                                    + (answer.header("server") == null ? "(none)" : answer.header("server")) + "'");
                        }
                        return;
                    }
                    last = "answered '" + answer.statusLine() + "' with body "
                            + (answer.body() == null ? "that could not be read" : "'" + shortened(answer.body()) + "'");
                } catch (IOException e) {
                    last = e.toString();
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("GET / through httpd (" + variant + ") did not answer 200 HelloWorld within "
                            + FRONT_READY_LIMIT.toSeconds() + " s (last: " + last + "; httpd's error log is in the raw output)");
                }
                Thread.sleep(200);
            }
        }

        /** Notes the mpm and keep-alive directives of the generated configuration, and keeps it with the raw output. */
        private void quoteConfiguration() throws IOException {
            StringBuilder all = new StringBuilder();
            try (Stream<Path> files = Files.walk(httpd.serverRoot())) {
                for (Path file : files.filter(p -> (p.toString().endsWith(".conf") || p.toString().endsWith(".properties"))
                        && Files.isRegularFile(p)).sorted().toList()) {
                    all.append("# ").append(httpd.serverRoot().relativize(file)).append('\n')
                            .append(Files.readString(file, StandardCharsets.ISO_8859_1)).append('\n');
                }
            }
            Path raw = run.raw(variant, "httpd-conf");
            Files.createDirectories(raw.getParent());
            Files.writeString(raw, all, StandardCharsets.ISO_8859_1);
            List<String> quoted = quotedDirectives(all.toString());
            // the ladder's method refers to the settings above
            if (!quoted.isEmpty() && run.scenario().equals(NAME)) run.note("httpd with " + variant + ", as generated: " + String.join(", ", quoted));
        }

        @Override
        public void close() {
            try {
                Path raw = run.raw(variant, "httpd-error-log");
                Files.createDirectories(raw.getParent());
                Files.writeString(raw, httpd.errorLog(), StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                run.problem(variant, "could not keep httpd's error log: " + e.getMessage());
            } finally {
                httpd.close();
                ProcessRegistry.removeStopper(httpd);
            }
        }

        /** One request on a fresh connection, {@code Connection: close}, read to the end. */
        private static String fetch(URI uri) throws IOException {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 2000);
                socket.setSoTimeout(5000);
                OutputStream out = socket.getOutputStream();
                out.write(("GET " + uri.getRawPath() + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + uri.getPort()
                        + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = socket.getInputStream();
                ByteArrayOutputStream response = new ByteArrayOutputStream();
                in.transferTo(response);
                return response.toString(StandardCharsets.ISO_8859_1);
            }
        }
    }
}
