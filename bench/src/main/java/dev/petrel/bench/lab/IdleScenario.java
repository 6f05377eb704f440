package dev.petrel.bench.lab;

import com.sun.management.UnixOperatingSystemMXBean;
import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.ScenarioInfo;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.net.ssl.SSLContext;

/**
 * The memory a server holds for idle keep-alive connections: its resident set and, for a JVM, its
 * heap after a full GC, before and with N connections open, each having had one request answered.
 * What a thread, a buffer or a registration per connection costs shows here and nowhere else in
 * the lab. No seed asked for it; it is the lab's own.
 *
 * <p>The client is {@link IdleClient} in the lab's own JVM (one thread, one selector), not pinned:
 * this scenario measures memory, not time. The idle time of the oldest connection is kept well under
 * 20 s, so that no server's idle timeout (all 20 s or more, or none) ends connections during the
 * hold: a connection idle for 10 s while the others still open (TLS handshakes take most of a
 * minute) is asked again. A server that ends them anyway, or keeps only so many idle (the JDK
 * HttpServer keeps 200), shows fewer held connections, which is what it does.
 */
final class IdleScenario implements Scenario {
    /**
     * At most this many connections connecting or awaiting their first answer at a time: no more than
     * the smallest accept backlog among the servers (50, the JDK's default, which Jetty and the JDK
     * HttpServer keep). 500 overflowed those backlogs, and opening then measured SYN retransmission
     * (1 s, then 3 s) rather than the server.
     */
    static final int MAX_IN_FLIGHT = 50;
    /** Descriptors the lab's JVM needs besides the connections: its jars, pipes, the selector. */
    private static final int SPARE_DESCRIPTORS = 256;

    private static final Duration HTTPS_READY_LIMIT = Duration.ofSeconds(30);

    private final boolean quick;
    private final boolean tls;

    /** Idle connections over plain HTTP ({@code idle}), or over TLS ({@code idle-tls}) with {@code tls}. */
    IdleScenario(boolean quick, boolean tls) {
        this.quick = quick;
        this.tls = tls;
    }

    /** The scenario's name: {@code idle}, or {@code idle-tls}. */
    String name() {
        return tls ? "idle-tls" : "idle";
    }

    /**
     * Only the TLS variant asks for an HTTPS listener: an idle one would add JSSE's classes and
     * contexts to the plain variant's heap.
     */
    @Override
    public boolean https() {
        return tls;
    }

    @Override
    public boolean overTls(String variant) {
        return tls;
    }

    /** How many connections are held. */
    int connections() {
        return quick ? 1_000 : 10_000;
    }

    private Duration settle() {
        // 2 s for the server to finish with what came before; the quick run has 14 servers to start in seconds
        return quick ? Duration.ofMillis(100) : Duration.ofSeconds(2);
    }

    private Duration openLimit() {
        // a full TLS handshake costs the server's one CPU about a millisecond or two: 10,000 take seconds
        return Duration.ofSeconds(quick ? 20 : tls ? 120 : 60);
    }

    private Duration stall() {
        // long enough for a SYN retransmission (1 s), short enough that a server which stops accepting
        // still gets its second request well inside 20 s of its first answer
        return Duration.ofSeconds(quick ? 2 : 5);
    }

    /**
     * How long a held connection may idle while the others open before it is asked again: half
     * the shortest idle timeout among the servers (20 s).
     */
    private static final Duration REFRESH_AFTER = Duration.ofSeconds(10);

    private Duration againLimit() {
        return Duration.ofSeconds(quick ? 5 : 10);
    }

    private int warmupConnections() {
        return quick ? 50 : 100;
    }

    private int warmupRounds() {
        return quick ? 2 : 20;
    }

    String variant() {
        return String.format(Locale.ROOT, tls ? "%,d idle TLS connections" : "%,d idle connections", connections());
    }

    @Override
    public ScenarioInfo info() {
        String n = String.format(Locale.ROOT, "%,d", connections());
        String settle = settle().toMillis() % 1000 == 0 ? settle().toSeconds() + " s" : settle().toMillis() + " ms";
        return new ScenarioInfo(name(), null, tls ? "Memory held by idle keep-alive connections over TLS"
                        : "Memory held by idle keep-alive connections",
                "Server pinned to one CPU (CPU 0 in odd passes, CPU 1 in even ones)" + (tls ? ", serving HTTPS with the lab certificate on the port after its HTTP "
                        + "port; every connection below is over TLS, the client's JDK engine doing a full handshake or "
                        + "resuming a session where the server offers it" : "") + ". Warm-up: " + warmupConnections() + " keep-alive connections, " + warmupRounds()
                        + " requests each, closed; then " + settle + " of rest. *Before*: for a JVM, `jcmd PID GC.run` "
                        + "then `GC.heap_info` (the heap's `used` figure after that full GC; a JVM pinned to one CPU "
                        + "runs the Serial collector), then `VmRSS` of "
                        + "`/proc/PID/status` (the C servers: RSS only; nginx: its master's and its worker's added). Then the lab's own JVM (one thread, one "
                        + "`java.nio` selector, not pinned) opens " + n + " connections to 127.0.0.1, at most "
                        + MAX_IN_FLIGHT + " connecting or awaiting their answer at a time, sends "
                        + "`GET / HTTP/1.1` with `Host` on each, reads each whole response and keeps the connection "
                        + "open, asking again on a connection idle for " + REFRESH_AFTER.toSeconds() + " s while the "
                        + "others still open; it stops waiting after " + openLimit().toSeconds() + " s, or after "
                        + stall().toSeconds() + " s in which no connection got further. After " + settle + ", "
                        + "*with idle* is sampled the same way. Then the same request again on every connection: "
                        + "*held* counts those answered with 2xx within " + againLimit().toSeconds() + " s, so a "
                        + "server that closed idle connections shows fewer (how long they had been idle is under "
                        + "Problems). *Opened*: connects that completed; *answered*: first requests answered with "
                        + "2xx; failures are under Problems. Per connection = (with idle − before) / held. "
                        + "*RSS with " + n + " idle*, which the × columns compare, is given only for a server that "
                        + "held all " + n + "; the RSS of one that held fewer is under Problems. RSS includes what "
                        + "the process touched and keeps (heap pages, code, thread stacks); the heap after GC is "
                        + "what the connections still reference.",
                List.of(new MetricInfo("rss_idle_mib", "RSS with " + n + " idle", "MiB", false),
                        new MetricInfo("opened", "opened", "connections", true),
                        new MetricInfo("answered", "answered", "connections", true),
                        new MetricInfo("held", "held", "connections", true),
                        new MetricInfo("rss_before_mib", "RSS before", "MiB", false),
                        new MetricInfo("rss_per_conn_kib", "RSS per connection", "KiB", false),
                        new MetricInfo("heap_before_mib", "heap before", "MiB", false),
                        new MetricInfo("heap_idle_mib", "heap with " + n + " idle", "MiB", false),
                        new MetricInfo("heap_per_conn_kib", "heap per connection", "KiB", false)),
                List.of(variant()), ScenarioInfo.Layout.SERVERS_BY_VARIANT,
                List.of("rss_idle_mib", "rss_per_conn_kib"));
    }

    @Override
    public Set<LoadTool> tools() {
        return Set.of(LoadTool.IDLE_CLIENT);
    }

    @Override
    public Duration stepEstimate() {
        // the warm-up's connections and rounds, the two settles, opening and asking again, two readings
        return NominalTimes.HELLO_START
                .plus(NominalTimes.requests((long) warmupConnections() * warmupRounds(), NominalTimes.IDLE_OPENS_PER_SECOND))
                .plus(settle().multipliedBy(2))
                .plus(NominalTimes.requests(2L * connections(), NominalTimes.IDLE_OPENS_PER_SECOND))
                .plus(NominalTimes.HEAP_READING.multipliedBy(2));
    }

    @Override
    public String unavailable() {
        return descriptorShortage(connections());
    }

    /**
     * Why the lab's JVM cannot hold {@code connections} connections of its own (its file descriptor
     * limit is too low), or {@code null} when it can or cannot tell.
     */
    static String descriptorShortage(int connections) {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (!(os instanceof UnixOperatingSystemMXBean unix)) return null; // cannot tell; the connects will say
        long needed = connections + unix.getOpenFileDescriptorCount() + SPARE_DESCRIPTORS;
        long limit = unix.getMaxFileDescriptorCount();
        if (limit >= needed) return null;
        return "the lab's JVM may open " + limit + " file descriptors and needs about " + needed + " for "
                + connections + " connections; raise the hard limit (ulimit -Hn) to at least " + needed;
    }

    @Override
    public void measure(Measurement run) throws Exception {
        String variant = variant();
        SSLContext clientTls = null;
        if (tls) {
            if (!run.server().spec().tls() || run.tls() == null) {
                run.notApplicable(variant, ConnectorsScenario.NO_TLS);
                return;
            }
            clientTls = run.tls().clientContext();
            try {
                run.server().awaitHttps(clientTls, HTTPS_READY_LIMIT);
            } catch (IOException e) {
                run.problem(variant, e.getMessage() + "; no figure");
                return;
            }
        }
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", tls ? run.port() + 1 : run.port());
        Log log = new Log();
        warmUp(run, variant, address, clientTls, log);
        Thread.sleep(settle().toMillis());

        ProcessMemory.Reading before = ProcessMemory.read(run, variant, "before");
        log.add("before: " + reading(before));
        try (IdleClient client = new IdleClient(address, clientTls)) {
            IdleClient.Round open = client.open(connections(), MAX_IN_FLIGHT, openLimit(), stall(), REFRESH_AFTER);
            log.add("open: " + round(open));
            Thread.sleep(settle().toMillis());
            ProcessMemory.Reading idle = ProcessMemory.read(run, variant, "idle");
            log.add("with idle: " + reading(idle) + ", " + client.held() + " connections held");

            Duration oldest = client.longestIdle();
            Duration newest = client.shortestIdle();
            int answered = client.held();
            IdleClient.Round again = client.again(againLimit(), stall());
            log.add("again, after " + seconds(newest) + "–" + seconds(oldest) + " s idle: " + round(again));

            report(run, variant, open, again, answered, oldest, newest);
            record(run, variant, open, again.answered(), before, idle);
        } finally {
            Path raw = run.raw(variant, "idle");
            Files.createDirectories(raw.getParent());
            Files.writeString(raw, log.text(), StandardCharsets.UTF_8);
        }
    }

    /** Keep-alive requests over a few connections, through the same client: JIT and lazy set-up are done before. */
    private void warmUp(Measurement run, String variant, InetSocketAddress address, SSLContext clientTls, Log log)
            throws IOException {
        try (IdleClient client = new IdleClient(address, clientTls)) {
            IdleClient.Round round = client.open(warmupConnections(), MAX_IN_FLIGHT, openLimit(), stall(), REFRESH_AFTER);
            int requests = round.answered();
            for (int i = 1; i < warmupRounds() && client.held() > 0; i++) {
                requests += client.again(againLimit(), stall()).answered();
            }
            log.add("warm-up: " + requests + " requests answered on " + round.answered() + " of "
                    + warmupConnections() + " connections");
            if (round.answered() < warmupConnections()) {
                run.problem(variant, "warm-up: " + round.answered() + " of " + warmupConnections()
                        + " connections answered (failed: " + round.failureText() + ")");
            }
        }
    }

    private void report(Measurement run, String variant, IdleClient.Round open, IdleClient.Round again,
                        int answered, Duration oldest, Duration newest) {
        int n = connections();
        if (open.answered() < n) {
            run.problem(variant, String.format(Locale.ROOT, "%,d of %,d connections answered with 2xx (opened %,d; "
                    + "failed: %s%s)%s", open.answered(), n, open.connected(), open.failureText(),
                    open.notStarted() > 0 ? String.format(Locale.ROOT, "; %,d not tried", open.notStarted()) : "",
                    open.stopped() == null ? "" : "; stopped waiting after " + open.stopped()));
        }
        if (again.answered() < answered) {
            run.problem(variant, String.format(Locale.ROOT, "%,d of %,d answered connections did not answer a second "
                    + "request after %s–%s s idle (%s)", answered - again.answered(), answered, seconds(newest),
                    seconds(oldest), again.failureText()));
        }
    }

    private void record(Measurement run, String variant, IdleClient.Round open, int held,
                        ProcessMemory.Reading before, ProcessMemory.Reading idle) {
        // the figure the ratios compare is of N idle connections or none: a server that kept 200 must
        // not become the best peer for holding less
        if (held == connections()) {
            run.record(variant, "rss_idle_mib", idle.rssKib() / 1024);
        } else {
            run.problem(variant, String.format(Locale.ROOT, "held %,d of %,d connections, so no 'RSS with %,d idle'%s; "
                    + "its RSS with those it held: %.1f MiB", held, connections(), connections(),
                    held == 0 ? " and no figure per connection" : "", idle.rssKib() / 1024));
        }
        run.record(variant, "opened", open.connected());
        run.record(variant, "answered", open.answered());
        run.record(variant, "held", held);
        run.record(variant, "rss_before_mib", before.rssKib() / 1024);
        if (held > 0) run.record(variant, "rss_per_conn_kib", (idle.rssKib() - before.rssKib()) / held);
        if (!Double.isNaN(before.heapUsedKib())) run.record(variant, "heap_before_mib", before.heapUsedKib() / 1024);
        if (!Double.isNaN(idle.heapUsedKib())) run.record(variant, "heap_idle_mib", idle.heapUsedKib() / 1024);
        if (held > 0 && !Double.isNaN(before.heapUsedKib()) && !Double.isNaN(idle.heapUsedKib())) {
            run.record(variant, "heap_per_conn_kib", (idle.heapUsedKib() - before.heapUsedKib()) / held);
        }
    }

    private static String reading(ProcessMemory.Reading r) {
        return String.format(Locale.ROOT, "RSS %.1f MiB, heap after GC %s", r.rssKib() / 1024,
                Double.isNaN(r.heapUsedKib()) ? "not read" : String.format(Locale.ROOT, "%.1f MiB", r.heapUsedKib() / 1024));
    }

    private static String round(IdleClient.Round r) {
        return String.format(Locale.ROOT, "%d tried, %d connected, %d answered with 2xx, failed: %s, %d not tried, "
                        + "%.2f s%s", r.attempted(), r.connected(), r.answered(), r.failureText(), r.notStarted(),
                r.took().toNanos() / 1e9, r.stopped() == null ? "" : ", stopped after " + r.stopped());
    }

    private static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1f", d.toNanos() / 1e9);
    }

    /** The raw output of one pass: what happened, each line stamped with the seconds since the pass began. */
    private static final class Log {
        private final long start = System.nanoTime();
        private final StringBuilder text = new StringBuilder();

        void add(String line) {
            text.append(String.format(Locale.ROOT, "%6.2f s  %s%n", (System.nanoTime() - start) / 1e9, line));
        }

        String text() {
            return text.toString();
        }
    }
}
