package dev.petrel.bench.lab;

import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.RunResults;
import dev.petrel.bench.model.ScenarioInfo;
import dev.petrel.bench.servers.LabWebSocket;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * WebSocket (issue 40): the same echo on every server that speaks it (servers/LabWebSocket, the
 * C floor {@code baseline-c-ws}), measured three ways, each in a section of its own:
 * <ol>
 *   <li>{@value #NAME}: the echo's round trip over one connection, one message at a time, as the
 *       latency scenario measures HTTP's, and its overhead over the C floor's in the same pass;</li>
 *   <li>{@value #RATE}: messages a second with 100 connections, each with one message in flight,
 *       and the server's CPU time per message;</li>
 *   <li>{@value #IDLE}: the memory 10,000 idle sessions hold, handshake done, as the idle scenario
 *       measures idle HTTP connections.</li>
 * </ol>
 * The first two come from the lab's load tool ({@link WebSocketLoad}) in a JVM of its own, pinned:
 * first to the load CPU (the echo checked once, the round trips across CPUs, then the rate), then
 * to the server's CPU (the round trips on one CPU). The third comes from the lab's own JVM
 * ({@link WebSocketIdleClient}), as the idle scenario's client does.
 */
final class WebSocketScenario implements Scenario {
    /** The scenario's name and its round-trip section's. */
    static final String NAME = "websocket";
    /** The section of messages a second. */
    static final String RATE = "websocket-rate";
    /** The section of idle sessions. */
    static final String IDLE = "websocket-idle";

    /** The round trips' text message: "HelloWorld", as the HTTP scenarios' body. */
    static final int TEXT_BYTES = 10;
    /** The round trips' binary message. */
    static final int BINARY_BYTES = 64 * 1024;
    /** Connections of the rate section. */
    static final int RATE_CONNECTIONS = 100;

    static final String TEXT_ACROSS = "text 10 B, across CPUs";
    static final String TEXT_SAME = "text 10 B, same CPU";
    static final String BINARY_ACROSS = "binary 64 KiB, across CPUs";
    static final String RATE_VARIANT = RATE_CONNECTIONS + " connections, text 10 B";

    /** Why a server has no figure here, by name (another build's Petrel servers as this one's). */
    static final Map<String, String> NO_WEBSOCKET = Map.of(
            "baseline-c", "the do-nothing HTTP server speaks no WebSocket; " + ServerCatalog.WEBSOCKET_FLOOR + " is this scenario's floor",
            "jdk-httpserver", "the JDK's HttpServer has no WebSocket",
            Nginx.NAME, "nginx has no WebSocket endpoint of its own (it proxies them)");

    /** At most this many idle sessions connecting or in their handshake at a time, as the idle scenario. */
    static final int MAX_IN_FLIGHT = IdleScenario.MAX_IN_FLIGHT;
    /** How long a held session may idle while the others open before it is sent a message. */
    private static final Duration REFRESH_AFTER = Duration.ofSeconds(10);

    private final boolean quick;
    private final boolean sameCpuOnly;
    private final LabPaths paths;
    private long ticksPerSecond;

    WebSocketScenario(boolean quick, boolean sameCpuOnly, LabPaths paths) {
        this.quick = quick;
        this.sameCpuOnly = sameCpuOnly;
        this.paths = paths;
    }

    private int textRoundTrips() {
        return quick ? 1_000 : 100_000;
    }

    private int textWarmup() {
        return quick ? 200 : 20_000;
    }

    private int binaryRoundTrips() {
        return quick ? 40 : 10_000;
    }

    private int binaryWarmup() {
        return quick ? 10 : 2_000;
    }

    private Duration rateWarmup() {
        return quick ? Duration.ofMillis(250) : Duration.ofSeconds(5);
    }

    private Duration rateWindow() {
        return quick ? Duration.ofMillis(500) : Duration.ofSeconds(10);
    }

    /** Idle sessions held. */
    int sessions() {
        return quick ? 300 : 10_000;
    }

    private Duration settle() {
        return quick ? Duration.ofMillis(100) : Duration.ofSeconds(2);
    }

    private Duration openLimit() {
        return Duration.ofSeconds(quick ? 20 : 90);
    }

    private Duration stall() {
        return Duration.ofSeconds(quick ? 2 : 5);
    }

    private Duration againLimit() {
        return Duration.ofSeconds(quick ? 5 : 10);
    }

    /** The longest one run of the load tool may take, for its own steps' bounds and for the lab's. */
    private Duration loadLimit() {
        return Duration.ofSeconds(quick ? 60 : 300);
    }

    String idleVariant() {
        return String.format(Locale.ROOT, "%,d idle sessions", sessions());
    }

    private List<String> roundTripVariants() {
        return sameCpuOnly ? List.of(TEXT_SAME, BINARY_ACROSS) : List.of(TEXT_ACROSS, TEXT_SAME, BINARY_ACROSS);
    }

    @Override
    public ScenarioInfo info() {
        String tool = "the lab's WebSocket load tool (`WebSocketLoad`, a JVM of its own over raw sockets: each message one "
                + "masked frame made before the run and written with one `write`, each echo framed as it is read and checked "
                + "for its opcode and length)";
        return new ScenarioInfo(NAME, null, "WebSocket: echo round trip over one connection",
                "Every server that speaks WebSocket serves the same echo at `" + LabWebSocket.PATH + "` (text back as text, "
                        + "binary as binary, messages up to 1 MiB, no extension negotiated), each through its own project's "
                        + "WebSocket support (notes in each `servers/*Hello` class), started with it only for this scenario; the "
                        + "floor is `" + ServerCatalog.WEBSOCKET_FLOOR + "`, a do-nothing C echo like the HTTP floor. Per server and "
                        + "pass, " + tool + " first checks the echo once (a short text, a text of 2- to 4-byte UTF-8 characters, "
                        + "64 KiB of binary, 1 MiB of binary and of text, each back unchanged: a server that fails is a problem), then "
                        + "over one connection sends one message at a time, the next when the echo is back. *" + TEXT_ACROSS + "*: "
                        + textWarmup() + " round trips of the text `HelloWorld` to warm up, then " + textRoundTrips() + " timed, the tool "
                        + "on the CPU the server is not on (swapped every other pass); *" + TEXT_SAME + "*: the same with the tool "
                        + "on the server's CPU, in a second run of it; *" + BINARY_ACROSS + "*: " + binaryWarmup() + " then "
                        + binaryRoundTrips() + " of 64 KiB of random bytes, across CPUs. Round trip = the timed run's time / its "
                        + "round trips; p50 and p99 of each round trip's own time (1 µs steps). Overhead = a server's round trip "
                        + "minus the floor's in the same pass and variant: what the server itself spends per message.",
                List.of(new MetricInfo("mean_us", "round trip", "µs", false),
                        new MetricInfo("overhead_us", "overhead over baseline", "µs", false),
                        new MetricInfo("rate", "round trips/s", "msg/s", true),
                        new MetricInfo("p50_us", "p50", "µs", false),
                        new MetricInfo("p99_us", "p99", "µs", false)),
                roundTripVariants(), ScenarioInfo.Layout.SERVERS_BY_VARIANT);
    }

    private ScenarioInfo rateInfo() {
        return new ScenarioInfo(RATE, null, "WebSocket: messages per second with " + RATE_CONNECTIONS + " connections",
                "The same echo and tool as above, in the same run of the tool across CPUs, after the round trips: "
                        + RATE_CONNECTIONS + " connections on one selector thread, each with one `HelloWorld` text message in "
                        + "flight (the next sent when its echo is back, as wrk keeps one request in flight per connection), "
                        + rateWarmup().toMillis() + " ms of warm-up, then " + rateWindow().toMillis() + " ms measured. "
                        + "**Messages/s** = echoes back within the window / the window; p50 and p99 of each message's round "
                        + "trip in it. **Server CPU per message** = the server's user and system CPU ticks over the window "
                        + "(`/proc/PID/stat`, read by the tool when the window opens and closes; CLK_TCK) / the echoes. One "
                        + "core of a JVM client makes only so many messages a second: a **server CPU** under 100 % says the "
                        + "tool, not the server, was the limit, and CPU per message is then the figure to compare. **Errors**: "
                        + "connections the server closed or answered wrongly, given up.",
                List.of(new MetricInfo("mps", "messages/s", "msg/s", true),
                        new MetricInfo("cpu_us_per_message", "server CPU per message", "µs", false),
                        new MetricInfo("server_cpu_pct", "server CPU", "%", false),
                        new MetricInfo("p50_us", "p50", "µs", false),
                        new MetricInfo("p99_us", "p99", "µs", false),
                        new MetricInfo("errors", "errors", "connections", false)),
                List.of(RATE_VARIANT), ScenarioInfo.Layout.SERVERS_BY_VARIANT);
    }

    private ScenarioInfo idleInfo() {
        String n = String.format(Locale.ROOT, "%,d", sessions());
        String settle = settle().toMillis() % 1000 == 0 ? settle().toSeconds() + " s" : settle().toMillis() + " ms";
        return new ScenarioInfo(IDLE, null, "WebSocket: memory held by idle sessions",
                "After the runs above, on the same server: " + settle + " of rest, then *before*: "
                        + (quick ? "`VmRSS` of `/proc/PID/status` (a --quick run reads no heap: a `jcmd` start per reading "
                        + "would take longer than the rest of the step)"
                        : "for a JVM, `jcmd PID GC.run` then `GC.heap_info` (the heap's `used` after that full GC), then `VmRSS` "
                        + "of `/proc/PID/status`") + ". Then the lab's own JVM (one thread, one `java.nio` selector, not "
                        + "pinned) opens " + n + " connections to 127.0.0.1, at most " + MAX_IN_FLIGHT + " connecting or in "
                        + "their handshake at a time, and does the opening handshake on each (no extension offered); each "
                        + "upgraded session is then held, idle, and sent one `HelloWorld` if it idled " + REFRESH_AFTER.toSeconds()
                        + " s while the others still opened; the opening stops waiting after " + openLimit().toSeconds()
                        + " s, or after " + stall().toSeconds() + " s in which no connection got further. After " + settle
                        + ", *with idle* is read the same way. Then one `HelloWorld` on every session: *held* counts the echoes "
                        + "back within " + againLimit().toSeconds() + " s. *Opened*: connects that completed; *upgraded*: "
                        + "handshakes answered with a good 101. Per session = (with idle − before) / held. *RSS with " + n
                        + " idle*, which the × columns compare, is given only for a server that held all " + n
                        + " (as in the idle scenario: a server that holds fewer must not look lighter for it).",
                List.of(new MetricInfo("rss_idle_mib", "RSS with " + n + " idle", "MiB", false),
                        new MetricInfo("opened", "opened", "connections", true),
                        new MetricInfo("upgraded", "upgraded", "sessions", true),
                        new MetricInfo("held", "held", "sessions", true),
                        new MetricInfo("rss_before_mib", "RSS before", "MiB", false),
                        new MetricInfo("rss_per_session_kib", "RSS per session", "KiB", false),
                        new MetricInfo("heap_before_mib", "heap before", "MiB", false),
                        new MetricInfo("heap_idle_mib", "heap with " + n + " idle", "MiB", false),
                        new MetricInfo("heap_per_session_kib", "heap per session", "KiB", false)),
                List.of(idleVariant()), ScenarioInfo.Layout.SERVERS_BY_VARIANT,
                List.of("rss_idle_mib", "rss_per_session_kib"));
    }

    @Override
    public List<ScenarioInfo> sections() {
        return List.of(info(), rateInfo(), idleInfo());
    }

    @Override
    public boolean webSocket() {
        return true;
    }

    @Override
    public Set<LoadTool> tools() {
        return Set.of(LoadTool.WEBSOCKET);
    }

    @Override
    public String notApplicable(ServerSpec server) {
        String name = ServerCatalog.sameServerNow(server.name());
        return NO_WEBSOCKET.get(name);
    }

    @Override
    public String unavailable() {
        return IdleScenario.descriptorShortage(sessions());
    }

    @Override
    public Duration stepEstimate() {
        // two starts of the tool's JVM, its round trips at ~10,000 a second (64 KiB ones at ~2,000), the rate
        // run, then the idle sessions opened and asked again, and the memory readings
        Duration tool = Duration.ofSeconds(1).multipliedBy(2)
                .plus(NominalTimes.requests(2L * (textWarmup() + textRoundTrips()), 10_000))
                .plus(NominalTimes.requests(binaryWarmup() + binaryRoundTrips(), 2_000))
                .plus(rateWarmup()).plus(rateWindow());
        Duration idle = settle().multipliedBy(2)
                .plus(NominalTimes.requests(2L * sessions(), NominalTimes.IDLE_OPENS_PER_SECOND))
                .plus(quick ? Duration.ZERO : NominalTimes.HEAP_READING.multipliedBy(2));
        return NominalTimes.HELLO_START.plus(tool).plus(idle);
    }

    @Override
    public void measure(Measurement run) throws Exception {
        String across = "round-trip:text:" + TEXT_BYTES + ":" + textWarmup() + ":" + textRoundTrips();
        String binary = "round-trip:binary:" + BINARY_BYTES + ":" + binaryWarmup() + ":" + binaryRoundTrips();
        String rate = "rate:" + RATE_CONNECTIONS + ":text:" + TEXT_BYTES + ":" + rateWarmup().toMillis() + ":" + rateWindow().toMillis();
        boolean crossCpu = !sameCpuOnly;
        List<String> first = new ArrayList<>(List.of("check"));
        if (crossCpu) first.add(across);
        first.addAll(List.of(binary, rate));
        WebSocketLoadOutput out = load(run, run.clientCpu(), "load-other-cpu", first);
        if (out != null) {
            checkEcho(run, out.step("check"));
            if (crossCpu) roundTrip(run, TEXT_ACROSS, out.step(across));
            roundTrip(run, BINARY_ACROSS, out.step(binary));
            rate(run.inSection(RATE), out.step(rate));
        }
        WebSocketLoadOutput same = load(run, run.serverCpu(), "load-same-cpu", List.of(across));
        if (same != null) roundTrip(run, TEXT_SAME, same.step(across));
        idle(run.inSection(IDLE));
    }

    /**
     * Runs the load tool pinned to {@code cpu} with {@code steps}; its output, or {@code null} when it
     * could not run at all (a problem of the pass). Its raw output goes to {@code what}'s file.
     */
    private WebSocketLoadOutput load(Measurement run, int cpu, String what, List<String> steps)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(paths.java().toString(), "-Xms64m", "-Xmx64m", "-XX:+UseSerialGC",
                "-cp", paths.libraries() + "/*", WebSocketLoad.class.getName(), Integer.toString(run.port()), LabWebSocket.PATH,
                Long.toString(loadLimit().toSeconds()), Long.toString(run.server().pid())));
        command.addAll(steps);
        Path raw = run.raw(roundTripVariants().getFirst(), what);
        CommandResult result = Commands.run(Commands.pinned(cpu, command), loadLimit().plusSeconds(30), raw);
        if (result.timedOut()) {
            run.problem(roundTripVariants().getFirst(), "the WebSocket load tool ran past its time limit and was stopped");
        }
        WebSocketLoadOutput output = WebSocketLoadOutput.parse(result.output());
        if (!result.ok() && steps.stream().allMatch(s -> output.step(s) == null)) {
            run.problem(roundTripVariants().getFirst(), "the WebSocket load tool exited with " + result.exitCode()
                    + " before any step (see " + raw.getFileName() + ")");
            return null;
        }
        return output;
    }

    private void checkEcho(Measurement run, WebSocketLoadOutput.StepResult check) {
        if (check == null) {
            run.problem(roundTripVariants().getFirst(), "the echo was not checked (the tool printed nothing for it)");
        } else if (!check.ok()) {
            run.problem(roundTripVariants().getFirst(), "the echo failed its check: " + check.failure());
        }
    }

    private void roundTrip(Measurement run, String variant, WebSocketLoadOutput.StepResult step) {
        if (step == null || !step.ok()) {
            run.problem(variant, step == null ? "no result from the load tool" : step.failure());
            return;
        }
        double mean = step.figure("mean_us");
        run.record(variant, "mean_us", mean);
        run.record(variant, "rate", 1_000_000 / mean);
        run.record(variant, "p50_us", step.figure("p50_us"));
        run.record(variant, "p99_us", step.figure("p99_us"));
    }

    private void rate(Measurement run, WebSocketLoadOutput.StepResult step) throws IOException {
        if (step == null || !step.ok()) {
            run.problem(RATE_VARIANT, step == null ? "no result from the load tool" : step.failure());
            return;
        }
        if (ticksPerSecond == 0) ticksPerSecond = ProcessCpu.ticksPerSecond();
        long messages = (long) step.figure("messages");
        long ticks = (long) step.figure("server_cpu_ticks");
        long windowNanos = (long) (step.figure("seconds") * 1e9);
        run.record(RATE_VARIANT, "mps", step.figure("per_second"));
        run.record(RATE_VARIANT, "p50_us", step.figure("p50_us"));
        run.record(RATE_VARIANT, "p99_us", step.figure("p99_us"));
        run.record(RATE_VARIANT, "errors", step.figure("errors"));
        if (ticks >= 0 && windowNanos > 0) run.record(RATE_VARIANT, "server_cpu_pct", ProcessCpu.percentOfOneCore(ticks, ticksPerSecond, windowNanos));
        if (ticks >= 0 && messages > 0) run.record(RATE_VARIANT, "cpu_us_per_message", ProcessCpu.microsEach(ticks, ticksPerSecond, messages));
        if (step.figure("errors") > 0) {
            run.problem(RATE_VARIANT, (long) step.figure("errors") + " of " + RATE_CONNECTIONS + " connections failed during the run");
        }
    }

    /** The idle sessions: memory before, with them held, and how many still echo after. */
    private void idle(Measurement run) throws IOException, InterruptedException {
        String variant = idleVariant();
        StringBuilder log = new StringBuilder();
        long start = System.nanoTime();
        Thread.sleep(settle().toMillis());
        ProcessMemory.Reading before = memory(run, variant, "before");
        note(log, start, "before: " + reading(before));
        InetSocketAddress address = new InetSocketAddress(WebSocketLoad.HOST, run.port());
        try (WebSocketIdleClient client = new WebSocketIdleClient(address, LabWebSocket.PATH)) {
            WebSocketIdleClient.Round open = client.open(sessions(), MAX_IN_FLIGHT, openLimit(), stall(), REFRESH_AFTER);
            note(log, start, "open: " + round(open));
            Thread.sleep(settle().toMillis());
            ProcessMemory.Reading idle = memory(run, variant, "idle");
            int upgraded = client.held();
            Duration oldest = client.longestIdle();
            note(log, start, "with idle: " + reading(idle) + ", " + upgraded + " sessions held");
            WebSocketIdleClient.Round again = client.again(againLimit(), stall());
            note(log, start, "again, the oldest after " + seconds(oldest) + " s idle: " + round(again));
            int held = again.answered();
            if (open.answered() < sessions()) {
                run.problem(variant, String.format(Locale.ROOT, "%,d of %,d sessions upgraded (opened %,d; failed: %s%s)%s",
                        open.answered(), sessions(), open.connected(), open.failureText(),
                        open.notStarted() > 0 ? String.format(Locale.ROOT, "; %,d not tried", open.notStarted()) : "",
                        open.stopped() == null ? "" : "; stopped waiting after " + open.stopped()));
            }
            if (held < upgraded) {
                run.problem(variant, String.format(Locale.ROOT, "%,d of %,d held sessions did not echo after up to %s s idle (%s)",
                        upgraded - held, upgraded, seconds(oldest), again.failureText()));
            }
            if (held == sessions()) {
                run.record(variant, "rss_idle_mib", idle.rssKib() / 1024);
            } else {
                run.problem(variant, String.format(Locale.ROOT, "held %,d of %,d sessions, so no 'RSS with %,d idle'; its RSS "
                        + "with those it held: %.1f MiB", held, sessions(), sessions(), idle.rssKib() / 1024));
            }
            run.record(variant, "opened", open.connected());
            run.record(variant, "upgraded", open.answered());
            run.record(variant, "held", held);
            run.record(variant, "rss_before_mib", before.rssKib() / 1024);
            if (held > 0) run.record(variant, "rss_per_session_kib", (idle.rssKib() - before.rssKib()) / held);
            if (!Double.isNaN(before.heapUsedKib())) run.record(variant, "heap_before_mib", before.heapUsedKib() / 1024);
            if (!Double.isNaN(idle.heapUsedKib())) run.record(variant, "heap_idle_mib", idle.heapUsedKib() / 1024);
            if (held > 0 && !Double.isNaN(before.heapUsedKib()) && !Double.isNaN(idle.heapUsedKib())) {
                run.record(variant, "heap_per_session_kib", (idle.heapUsedKib() - before.heapUsedKib()) / held);
            }
        } finally {
            Path raw = run.raw(variant, "idle");
            Files.createDirectories(raw.getParent());
            Files.writeString(raw, log.toString(), StandardCharsets.UTF_8);
        }
    }

    private ProcessMemory.Reading memory(Measurement run, String variant, String label) throws IOException, InterruptedException {
        return quick ? ProcessMemory.readRss(run) : ProcessMemory.read(run, variant, label);
    }

    /** The overhead of each round trip over the floor's, as the latency scenario's. */
    @Override
    public void derive(RunResults results) {
        LatencyScenario.deriveOverhead(results, NAME);
    }

    private static void note(StringBuilder log, long start, String line) {
        log.append(String.format(Locale.ROOT, "%6.2f s  %s%n", (System.nanoTime() - start) / 1e9, line));
    }

    private static String reading(ProcessMemory.Reading r) {
        return String.format(Locale.ROOT, "RSS %.1f MiB, heap after GC %s", r.rssKib() / 1024,
                Double.isNaN(r.heapUsedKib()) ? "not read" : String.format(Locale.ROOT, "%.1f MiB", r.heapUsedKib() / 1024));
    }

    private static String round(WebSocketIdleClient.Round r) {
        return String.format(Locale.ROOT, "%d tried, %d connected, %d answered, failed: %s, %d not tried, %.2f s%s",
                r.attempted(), r.connected(), r.answered(), r.failureText(), r.notStarted(), r.took().toNanos() / 1e9,
                r.stopped() == null ? "" : ", stopped after " + r.stopped());
    }

    private static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1f", d.toNanos() / 1e9);
    }
}
