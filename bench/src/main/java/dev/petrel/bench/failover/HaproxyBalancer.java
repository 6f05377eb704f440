package dev.petrel.bench.failover;

import dev.petrel.testkit.Haproxy;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * A private HAProxy in HTTP mode over the backends' PROXY-protocol ports: {@code send-proxy-v2},
 * {@code balance roundrobin}, a sticky cookie ({@code SERVERID}), {@code option httpchk} on the
 * given page every 200 ms, and GETs retried on another server ({@link Haproxy.Builder#retries}).
 */
final class HaproxyBalancer implements FrontEnd {
    private final Haproxy haproxy;

    HaproxyBalancer(List<? extends Backend> backends, String healthPath) throws IOException {
        Haproxy.Builder builder = Haproxy.builder().sendProxy(Haproxy.ProxyHeader.V2).healthCheck(healthPath)
                .stickyCookie("SERVERID").retries(3);
        for (Backend b : backends) builder.server(b.route(), "127.0.0.1", b.proxyPort());
        this.haproxy = builder.start();
    }

    @Override
    public String name() {
        return "haproxy";
    }

    @Override
    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + haproxy.port() + path);
    }

    @Override
    public long retried() throws IOException {
        long n = 0;
        for (Haproxy.ServerStat s : haproxy.servers()) n += s.retries() + s.redispatches();
        return n;
    }

    @Override
    public boolean awaitInUse(String route, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (Haproxy.ServerStat s : haproxy.servers()) {
                if (s.name().equals(route) && s.status().equals("UP")) return true;
            }
            Thread.sleep(100);
        }
        return false;
    }

    @Override
    public String diagnostics() {
        try {
            return haproxy.servers().toString();
        } catch (IOException e) {
            return e.toString();
        }
    }

    @Override
    public void close() {
        haproxy.close();
    }
}
