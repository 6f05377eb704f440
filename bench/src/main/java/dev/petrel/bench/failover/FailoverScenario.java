package dev.petrel.bench.failover;

import dev.petrel.testkit.TomcatDistribution;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The lab's {@code failover} scenario (issue 22): two backends behind the balancers Tomcat users
 * run, one of them stopped, killed or restarted under steady load, with every process on loopback,
 * started here and stopped by its pid.
 *
 * <ol>
 *   <li>Two Tomcats with Petrel's connectors, {@code jvmRoute} {@code p1} and {@code p2}, replicating
 *       their sessions ({@link TomcatNode}), behind httpd's mod_jk load balancer ({@link JkBalancer})
 *       and behind HAProxy ({@link HaproxyBalancer}), at once: cases {@code jk-graceful},
 *       {@code jk-kill}, {@code jk-rolling}, {@code haproxy-graceful}, {@code haproxy-kill},
 *       {@code haproxy-rolling}.</li>
 *   <li>Two stateless {@code petrel serve} backends ({@link PetrelNode}) behind both: cases
 *       {@code jk-petrel-graceful}, {@code jk-petrel-kill}, {@code haproxy-petrel-graceful},
 *       {@code haproxy-petrel-kill}.</li>
 * </ol>
 * Each case prints {@code failover CASE: N requests, F failed, S/T sessions kept} and its details.
 */
public final class FailoverScenario {
    /** A regular expression of the case names to run (environment variable {@code PETREL_FAILOVER_ONLY}), for working on one. */
    private static final String ONLY = System.getenv().getOrDefault("PETREL_FAILOVER_ONLY", ".*");
    private final boolean quick;
    private final Path tomcatHome;
    private final Path java;
    private final Path libraries;
    private final Path work;
    private final PrintStream out;
    private boolean passed;
    /** What is running, closed last-opened first by {@link #closeAll} (also when the JVM is stopped). */
    private final Deque<AutoCloseable> open = new ArrayDeque<>();

    /**
     * @param quick      the short variant (CI): lower rate, fewer users, shorter phases
     * @param tomcatHome the Tomcat distribution
     * @param java       the {@code java} the Petrel backends run on
     * @param libraries  a folder of jars with Petrel's server and its demo site
     * @param work       a folder for the Tomcats' bases and the Petrel backends' logs
     * @param out        where the lines go
     */
    public FailoverScenario(boolean quick, Path tomcatHome, Path java, Path libraries, Path work, PrintStream out) {
        this.quick = quick;
        this.tomcatHome = tomcatHome;
        this.java = java;
        this.libraries = libraries;
        this.work = work;
        this.out = out;
    }

    /**
     * Runs every case, prints the results and returns their lines; throws when a case could not run
     * at all (a backend or balancer that did not start, a log-in that failed).
     */
    public List<String> run() throws IOException, InterruptedException {
        Thread cleanup = new Thread(this::closeAll, "petrel-failover-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        List<CaseResult> results = new ArrayList<>();
        FailoverCase.Timing timing = FailoverCase.Timing.of(quick);
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2)).build()) {
            List<TomcatNode> tomcats = opened(TomcatNode.cluster(tomcatHome, work.resolve("catalina"), List.of("p1", "p2")));
            for (TomcatNode node : tomcats) {
                out.println("failover: starting Tomcat " + node);
                node.start();
                warmUp(client, node);
            }
            runCases(results, client, tomcats, SessionApp.PING, true, timing, "");
            closeAll();

            List<PetrelNode> petrels = new ArrayList<>();
            for (String route : List.of("p1", "p2")) {
                petrels.add(new PetrelNode(route, java, libraries, work.resolve("petrel"), TomcatDistribution.freePort(),
                        TomcatDistribution.freePort(), TomcatDistribution.freePort()));
            }
            opened(petrels);
            for (PetrelNode node : petrels) {
                out.println("failover: starting " + node);
                node.start();
            }
            runCases(results, client, petrels, "/", false, timing, "petrel-");
        } finally {
            closeAll();
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
        }
        out.println();
        List<String> lines = new ArrayList<>();
        for (CaseResult r : results) {
            lines.add(r.line());
            lines.addAll(r.details());
        }
        lines.forEach(out::println);
        long failedCases = results.stream().filter(r -> !r.passed()).count();
        String verdict = failedCases == 0 ? "failover: every case kept its promises"
                : "failover: " + failedCases + " case(s) broke a promise (FAIL above)";
        out.println(verdict);
        lines.add(verdict);
        passed = failedCases == 0;
        return lines;
    }

    /** Whether the last {@link #run()} kept every promise. */
    public boolean passed() {
        return passed;
    }

    private void runCases(List<CaseResult> results, HttpClient client, List<? extends Backend> backends, String statelessPath,
            boolean sessions, FailoverCase.Timing timing, String kind) throws IOException, InterruptedException {
        List<FrontEnd> frontEnds = List.of(
                opened(new JkBalancer(backends)),
                opened(new HaproxyBalancer(backends, statelessPath)));
        for (FrontEnd frontEnd : frontEnds) {
            FailoverCase failover = new FailoverCase(client, frontEnd, backends, statelessPath, sessions, timing);
            for (FailoverCase.Event event : FailoverCase.Event.values()) {
                if (!sessions && event == FailoverCase.Event.ROLLING) continue; // the graceful case restarts one already
                String name = frontEnd.name() + "-" + kind + event.word;
                if (!name.matches(ONLY)) continue;
                out.println("failover: " + name);
                CaseResult result = failover.run(name, event);
                out.println(result.line() + (result.passed() ? "" : "  (FAIL)"));
                results.add(result);
            }
        }
    }

    /** Jasper compiles each page on its first request: done here, so that no case measures it. */
    private static void warmUp(HttpClient client, TomcatNode node) throws IOException, InterruptedException {
        for (String path : List.of(SessionApp.PING, SessionApp.LOGIN + "?user=warmup", SessionApp.WHOAMI)) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.httpPort() + path))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) throw new IOException(node + " answered " + r.statusCode() + " to " + path + ": " + r.body());
        }
    }

    private <T extends AutoCloseable> T opened(T resource) {
        synchronized (open) {
            open.push(resource);
        }
        return resource;
    }

    private <T extends AutoCloseable> List<T> opened(List<T> resources) {
        resources.forEach(this::opened);
        return resources;
    }

    private void closeAll() {
        while (true) {
            AutoCloseable next;
            synchronized (open) {
                next = open.poll();
            }
            if (next == null) return;
            try {
                next.close();
            } catch (Exception e) {
                out.println("failover: could not stop " + next + ": " + e);
            }
        }
    }
}
