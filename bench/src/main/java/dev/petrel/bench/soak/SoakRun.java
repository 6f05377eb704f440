package dev.petrel.bench.soak;

import dev.petrel.bench.lab.H2loadOutput;
import dev.petrel.testkit.ApacheHttpd;
import dev.petrel.testkit.Haproxy;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

/**
 * One server's soak: the server with every listener, httpd with mod_jk in front of its AJP
 * listener, HAProxy in front of its PROXY-protocol listener (its plain one for a server without),
 * the soak's clients on every route, faults at random, a reading every
 * {@link SoakSampler#INTERVAL}; then the traffic stops, the front ends go, and every resource must
 * come back to where it was before the traffic.
 */
final class SoakRun {
    /** The faults of {@link FaultInjector} and these, which need the front end: httpd's processes stopped for a few seconds. */
    static final String HTTPD_PAUSE = "HTTPD_PAUSE";

    private final SoakServer server;
    private final SoakOptions options;
    private final Path jcmd;
    private final SSLContext trust;
    private final PrintStream out;
    final List<SoakSample> samples = new CopyOnWriteArrayList<>();
    final List<SoakOutcome> outcomes = new ArrayList<>();
    final List<SoakFault> faults = new CopyOnWriteArrayList<>();
    /** When the traffic started, on {@link System#nanoTime()}. */
    long trafficStart;
    SoakSample baseline;
    SoakSample after;
    String ending = "";

    SoakRun(SoakServer server, SoakOptions options, Path jcmd, SSLContext trust, PrintStream out) {
        this.server = server;
        this.options = options;
        this.jcmd = jcmd;
        this.trust = trust;
        this.out = out;
    }

    String label() {
        return server.kind().label;
    }

    /** Runs it; throws when something could not start at all. */
    void run() throws IOException, InterruptedException {
        SoakPorts ports = server.ports();
        server.start();
        SoakSampler sampler = new SoakSampler(server.pid(), jcmd, ports);
        baseline = sampler.read(-1);
        out.println("soak " + label() + ": started " + server + "; before the traffic: " + brief(baseline));
        try (ApacheHttpd httpd = ApacheHttpd.builder(ApacheHttpd.AjpModule.MOD_JK).backend("127.0.0.1", ports.ajp()).start();
             Haproxy haproxy = haproxy(ports);
             SoakClients clients = new SoakClients(trust)) {
            List<SoakRoute> routes = routes(ports, httpd.port(), haproxy.port());
            SplittableRandom seeds = new SplittableRandom(options.seed());
            for (SoakRoute route : routes) {
                SoakOutcome first = clients.run(route, "ping", seeds.split());
                if (first.failed() + first.lost() > 0) throw new IOException("route " + route.name() + " does not work: " + first.failure());
            }
            out.println("soak " + label() + ": routes " + routes.stream().map(SoakRoute::name).toList() + ", "
                    + options.rate() + " operations/s, seed " + options.seed());
            long durationNanos = TimeUnit.MINUTES.toNanos(options.minutes());
            long start = System.nanoTime();
            trafficStart = start;
            SoakTraffic traffic = new SoakTraffic(clients, routes, options.rate(), durationNanos, seeds.nextLong());
            FaultLoop faultLoop = new FaultLoop(new FaultInjector(ports, options.maxConnections(), seeds.nextLong()), httpd,
                    new SplittableRandom(seeds.nextLong()), start, durationNanos);
            traffic.start();
            Thread faultThread = Thread.ofPlatform().name("soak-faults").daemon().start(faultLoop);
            long next = start + SoakSampler.INTERVAL.toNanos();
            long nextBurst = start + TimeUnit.SECONDS.toNanos(options.quick() ? 30 : 60);
            SoakRoute h2c = routes.stream().filter(r -> r.protocol() == SoakRoute.Protocol.H2C).findFirst().orElseThrow();
            while (System.nanoTime() - start < durationNanos) {
                if (!server.alive()) throw new IOException(label() + " died: " + server.tail());
                long now = System.nanoTime();
                if (now >= nextBurst && now - start < durationNanos) {
                    outcomes.add(h2loadBurst(h2c));
                    nextBurst += TimeUnit.SECONDS.toNanos(60);
                }
                if (now >= next) {
                    SoakSample sample = sampler.read((now - start) / 1e9);
                    samples.add(sample);
                    outcomes.addAll(traffic.drain());
                    out.println("soak " + label() + " " + clock(sample.seconds()) + "  " + brief(sample) + "  | " + tally());
                    next += SoakSampler.INTERVAL.toNanos();
                }
                Thread.sleep(200);
            }
            traffic.stop();
            faultLoop.stop();
            faultThread.join(TimeUnit.SECONDS.toMillis(30));
            outcomes.addAll(traffic.drain());
            out.println("soak " + label() + ": traffic stopped: " + tally());
        }
        // clients, httpd and HAProxy are gone: the server should hold nothing more than before the traffic
        after = settle(sampler);
        sampler.close();
        out.println("soak " + label() + ": after the traffic: " + brief(after) + ending);
    }

    /** Reads until connections and resources are back where they were before the traffic, or 20 s passed. */
    private SoakSample settle(SoakSampler sampler) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        SoakSample s;
        do {
            Thread.sleep(2000);
            s = sampler.read(-1);
        } while (System.nanoTime() < deadline && !(s.outstanding().equals(baseline.outstanding())
                && (Double.isNaN(s.connections()) || s.connections() == 0)));
        return s;
    }

    private Haproxy haproxy(SoakPorts ports) throws IOException {
        boolean proxy = ports.proxy() > 0;
        return Haproxy.builder().backend("127.0.0.1", proxy ? ports.proxy() : ports.plain())
                .sendProxy(proxy ? Haproxy.ProxyHeader.V2 : Haproxy.ProxyHeader.NONE).start();
    }

    static List<SoakRoute> routes(SoakPorts ports, int httpdPort, int haproxyPort) {
        List<SoakRoute> routes = new ArrayList<>();
        routes.add(new SoakRoute("h1/plain", "plain", ports.plain(), SoakRoute.Protocol.H1));
        routes.add(new SoakRoute("h2c/plain", "plain", ports.plain(), SoakRoute.Protocol.H2C));
        routes.add(new SoakRoute("h1/tls-jsse", "tls-jsse", ports.tlsJsse(), SoakRoute.Protocol.H1_TLS));
        routes.add(new SoakRoute("h2/tls-jsse", "tls-jsse", ports.tlsJsse(), SoakRoute.Protocol.H2_TLS));
        if (ports.tlsNative() > 0) {
            routes.add(new SoakRoute("h1/tls-native", "tls-native", ports.tlsNative(), SoakRoute.Protocol.H1_TLS));
            routes.add(new SoakRoute("h2/tls-native", "tls-native", ports.tlsNative(), SoakRoute.Protocol.H2_TLS));
        }
        routes.add(new SoakRoute("h1/jk", "ajp", httpdPort, SoakRoute.Protocol.H1));
        routes.add(new SoakRoute("h1/haproxy", ports.proxy() > 0 ? "proxy" : "plain", haproxyPort, SoakRoute.Protocol.H1));
        return routes;
    }

    /** A burst of h2load on h2c: many streams over a few connections, which the soak's own clients do not make. Statuses only. */
    private SoakOutcome h2loadBurst(SoakRoute h2c) throws IOException, InterruptedException {
        int requests = options.quick() ? 1000 : 4000;
        long start = System.nanoTime();
        Process p = new ProcessBuilder("h2load", "-n", Integer.toString(requests), "-c", "4", "-m", "16", "-T", "10",
                "http://127.0.0.1:" + h2c.port() + "/ping").redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) p.destroyForcibly();
        H2loadOutput result = H2loadOutput.parse(text);
        long failed = requests - result.status2xx();
        return new SoakOutcome(h2c, "h2load", start, System.nanoTime(), requests, failed, 0,
                failed == 0 ? null : "h2load: " + result.status2xx() + " of " + requests + " answered 2xx");
    }

    /** Running totals, for the live line. */
    String tally() {
        long requests = 0, failed = 0, lost = 0;
        for (SoakOutcome o : outcomes) {
            requests += o.requests();
            failed += o.failed();
            lost += o.lost();
        }
        return requests + " requests, " + failed + " failed, " + lost + " lost, " + faults.size() + " faults";
    }

    static String brief(SoakSample s) {
        StringBuilder b = new StringBuilder("rss " + SoakVerdict.format(s.rssMib()) + " MiB, heap " + SoakVerdict.format(s.heapMib())
                + " MiB, native " + SoakVerdict.format(s.nativeMib()) + " MiB, fds " + SoakVerdict.format(s.fds()) + ", established "
                + SoakVerdict.format(s.established()) + ", threads "
                + SoakVerdict.format(s.threads()));
        if (!Double.isNaN(s.connections())) b.append(", conns ").append(SoakVerdict.format(s.connections()))
                .append(", ws ").append(SoakVerdict.format(s.sessions()));
        long held = s.outstanding().entrySet().stream().filter(e -> !e.getKey().equals("listeners") && !e.getKey().equals("TLS contexts"))
                .mapToLong(Map.Entry::getValue).sum();
        if (!s.outstanding().isEmpty()) b.append(", pooled out ").append(held);
        return b.toString();
    }

    static String clock(double seconds) {
        long s = Math.round(seconds);
        return String.format("%02d:%02d", s / 60, s % 60);
    }

    /** Injects a fault every few seconds, one at a time, each drawn at random among those the server's listeners allow. */
    private final class FaultLoop implements Runnable {
        private final FaultInjector injector;
        private final ApacheHttpd httpd;
        private final SplittableRandom random;
        private final long start;
        private final long durationNanos;
        private volatile boolean running = true;

        FaultLoop(FaultInjector injector, ApacheHttpd httpd, SplittableRandom random, long start, long durationNanos) {
            this.injector = injector;
            this.httpd = httpd;
            this.random = random;
            this.start = start;
            this.durationNanos = durationNanos;
        }

        @Override
        public void run() {
            List<String> kinds = new ArrayList<>();
            injector.applicable().forEach(k -> kinds.add(k.name()));
            kinds.add(HTTPD_PAUSE);
            long period = TimeUnit.SECONDS.toNanos(options.quick() ? 5 : 12);
            long next = start + period;
            try {
                while (running) {
                    long wait = next - System.nanoTime();
                    if (wait > 0) TimeUnit.NANOSECONDS.sleep(Math.min(wait, TimeUnit.MILLISECONDS.toNanos(200)));
                    if (System.nanoTime() < next) continue;
                    if (System.nanoTime() - start > durationNanos - TimeUnit.SECONDS.toNanos(10)) return;
                    String kind = kinds.get(random.nextInt(kinds.size()));
                    SoakFault fault = kind.equals(HTTPD_PAUSE) ? pauseHttpd() : of(injector.inject(FaultKind.valueOf(kind)));
                    faults.add(fault);
                    next = System.nanoTime() + period / 2 + random.nextLong(period);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void stop() {
            running = false;
        }

        /** SIGSTOP to every httpd process for 2 to 5 s, then SIGCONT: a front end that hangs, as one swapped out or paused does. */
        private SoakFault pauseHttpd() throws InterruptedException {
            long millis = random.nextLong(2000, 5000);
            long begin = System.nanoTime();
            List<Long> pids = httpd.pids();
            signal("-STOP", pids);
            try {
                Thread.sleep(millis);
            } finally {
                signal("-CONT", pids);
            }
            return new SoakFault(HTTPD_PAUSE, Set.of("ajp"), begin, System.nanoTime(), "httpd pids " + pids + " stopped " + millis + " ms");
        }

        private void signal(String signal, List<Long> pids) throws InterruptedException {
            List<String> command = new ArrayList<>(List.of("kill", signal));
            pids.forEach(p -> command.add(Long.toString(p)));
            try {
                new ProcessBuilder(command).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
            } catch (IOException e) {
                out.println("soak: kill " + signal + " failed: " + e.getMessage());
            }
        }
    }

    /** A fault of {@link FaultInjector} as the soak counts it: a burst past the connection limit hits every listener. */
    static SoakFault of(FaultRecord record) {
        Set<String> listeners = record.kind() == FaultKind.CONNECTION_BURST ? Set.of("*") : new HashSet<>(Arrays.asList(record.listener()));
        return new SoakFault(record.kind().name(), listeners, record.start(), record.end(), record.detail());
    }

    /** Per minute since the traffic started: p50, p99 and max of the requests that succeeded (not WebSocket sessions or h2load), in ms. */
    TreeMap<Integer, double[]> latencyPerMinute() {
        TreeMap<Integer, List<Long>> byMinute = new TreeMap<>();
        for (SoakOutcome o : outcomes) {
            if (o.failed() + o.lost() > 0 || o.operation().equals("websocket") || o.operation().equals("h2load")) continue;
            byMinute.computeIfAbsent((int) ((o.end() - trafficStart) / TimeUnit.MINUTES.toNanos(1)), m -> new ArrayList<>()).add(o.latencyNanos());
        }
        TreeMap<Integer, double[]> result = new TreeMap<>();
        byMinute.forEach((minute, values) -> {
            long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
            result.put(minute, new double[] {percentile(sorted, 0.50) / 1e6, percentile(sorted, 0.99) / 1e6, sorted[sorted.length - 1] / 1e6});
        });
        return result;
    }

    static double percentile(long[] sorted, double p) {
        int i = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
