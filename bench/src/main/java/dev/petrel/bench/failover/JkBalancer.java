package dev.petrel.bench.failover;

import dev.petrel.testkit.ApacheHttpd;
import dev.petrel.testkit.ApacheHttpd.AjpModule;
import dev.petrel.testkit.ApacheHttpd.BalancerMember;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A private httpd whose mod_jk {@code lb} worker balances over the backends' AJP ports, sticky by
 * route, with CPING/CPONG probes, retries on another member and a 2 s {@code recover_time}
 * ({@link ApacheHttpd.Builder#balancer}).
 */
final class JkBalancer implements FrontEnd {
    static final Duration RECOVER_TIME = Duration.ofSeconds(2);
    /**
     * The line mod_jk's lb worker logs (at info) each time a member failed a request that it then
     * gives to another member: a refused connection, a failed CPING, a 503 of {@code fail_on_status}.
     */
    private static final Pattern RETRY = Pattern.compile("service failed, worker \\S+ is in (local )?error state");

    private final ApacheHttpd httpd;

    JkBalancer(List<? extends Backend> backends) throws IOException {
        this.httpd = ApacheHttpd.builder(AjpModule.MOD_JK)
                .balancer(backends.stream().map(b -> new BalancerMember(b.route(), "127.0.0.1", b.ajpPort())).toList())
                .recoverTime(RECOVER_TIME)
                .start();
    }

    @Override
    public String name() {
        return "jk";
    }

    @Override
    public URI uri(String path) {
        return httpd.uri(path);
    }

    @Override
    public long retried() {
        return retriesIn(httpd.errorLog());
    }

    /** How many times mod_jk's log {@code log} says a member failed a request that went to another. */
    static long retriesIn(String log) {
        Matcher m = RETRY.matcher(log);
        long n = 0;
        while (m.find()) n++;
        return n;
    }

    @Override
    public boolean awaitInUse(String route, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (httpd.balancerStatus().contains("worker." + route + ".state=OK")) return true;
            Thread.sleep(100);
        }
        return false;
    }

    @Override
    public String diagnostics() {
        String status;
        try {
            status = httpd.balancerStatus().lines().filter(l -> l.matches("worker\\.[^.]+\\.(state|activation|errors|elected)=.*"))
                    .reduce((a, b) -> a + ", " + b).orElse("");
        } catch (IOException e) {
            status = e.toString();
        }
        List<String> log = httpd.errorLog().lines().toList();
        return status + "\n    " + String.join("\n    ", log.subList(Math.max(0, log.size() - 15), log.size()));
    }

    @Override
    public void close() {
        httpd.close();
    }
}
