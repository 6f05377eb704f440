package dev.petrel.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * HAProxy as the failover scenario runs it, in front of two JDK HTTP servers that answer their
 * name: round robin, a sticky cookie, GETs sent to the other server when one is gone, and the
 * stats socket. Skipped (not failed) where HAProxy is not installed.
 */
@Timeout(60)
class HaproxyTest {
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private static HttpServer named(String name) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        server.createContext("/", exchange -> {
            byte[] body = name.getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return server;
    }

    private HttpResponse<String> get(URI uri, String cookie) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10));
        if (cookie != null) request.header("Cookie", cookie);
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void balancesKeepsAClientOnItsServerAndSendsItElsewhereWhenTheServerIsGone() throws Exception {
        Assumptions.assumeTrue(Haproxy.unavailableReason().isEmpty(), Haproxy.unavailableReason().orElse(""));
        HttpServer a = named("a");
        HttpServer b = named("b");
        try (Haproxy haproxy = Haproxy.builder().server("a", "127.0.0.1", a.getAddress().getPort())
                .server("b", "127.0.0.1", b.getAddress().getPort()).stickyCookie("SERVERID").retries(3).healthCheck("/").start()) {
            URI uri = URI.create("http://127.0.0.1:" + haproxy.port() + "/");
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < 6; i++) seen.add(get(uri, null).body());
            assertThat(seen).as("round robin").containsExactlyInAnyOrder("a", "b");

            HttpResponse<String> first = get(uri, null);
            String server = first.body();
            assertThat(first.headers().firstValue("set-cookie")).hasValueSatisfying(c -> assertThat(c).startsWith("SERVERID=" + server));
            for (int i = 0; i < 4; i++) assertThat(get(uri, "SERVERID=" + server).body()).isEqualTo(server);

            // the server the cookie names is gone: HAProxy retries on the other, before its checks see it down
            (server.equals("a") ? a : b).stop(0);
            HttpResponse<String> moved = get(uri, "SERVERID=" + server);
            assertThat(moved.statusCode()).as(haproxy.output()).isEqualTo(200);
            assertThat(moved.body()).isNotEqualTo(server);
            assertThat(moved.headers().firstValue("set-cookie")).hasValueSatisfying(c -> assertThat(c).startsWith("SERVERID=" + moved.body()));

            List<Haproxy.ServerStat> stats = haproxy.servers();
            assertThat(stats).extracting(Haproxy.ServerStat::name).containsExactly("a", "b");
            assertThat(stats.stream().mapToLong(s -> s.retries() + s.redispatches()).sum()).as("retries counted").isPositive();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (haproxy.servers().stream().noneMatch(s -> s.name().equals(server) && s.status().startsWith("DOWN"))) {
                assertThat(System.nanoTime()).as("health checks see " + server + " down").isLessThan(deadline);
                Thread.sleep(100);
            }
        } finally {
            a.stop(0);
            b.stop(0);
        }
    }
}
