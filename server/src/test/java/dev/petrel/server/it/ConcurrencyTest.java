package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Server;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/** Many connections at once: no response is mixed up with another connection's. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ConcurrencyTest {
    private static final int CONNECTIONS = 16;
    private static final int REQUESTS = 25;

    @TransportTest
    void concurrentConnectionsEachGetTheirOwnAnswers(Transport kind) throws Exception {
        var config = TestServers.config().responseBufferSize(256).build();
        try (Server server = TestServers.start(kind, config, TestApp.handler());
             ExecutorService clients = Executors.newFixedThreadPool(CONNECTIONS)) {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < CONNECTIONS; c++) {
                int id = c;
                done.add(clients.submit(() -> {
                    try (RawClient client = RawClient.connect(server)) {
                        for (int i = 0; i < REQUESTS; i++) {
                            String body = "connection " + id + " request " + i + " " + Requests.pattern(i * 20);
                            // a pipelined pair: an echo and a chunked stream
                            client.send(Requests.post("/echo", body) + Requests.get("/stream?" + (300 + id)));
                            assertThat(client.read().text()).isEqualTo(body);
                            assertThat(client.read().text()).isEqualTo(Requests.pattern(300 + id));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) f.get(20, TimeUnit.SECONDS);
        }
    }

    /** More connections at once than {@code nio} accepts per readiness: each is still served. */
    @TransportTest
    void aBurstOfConnectionsIsAcceptedAndEachServed(Transport kind) throws Exception {
        int burst = 150; // over two readinesses' worth on nio, within blocking's default thread count
        try (Server server = TestServers.start(kind, TestApp.handler())) {
            List<RawClient> clients = new ArrayList<>();
            try {
                for (int c = 0; c < burst; c++) clients.add(RawClient.connect(server));
                for (RawClient client : clients) client.send(Requests.get("/"));
                for (RawClient client : clients) assertThat(client.read().text()).isEqualTo("HelloWorld");
                TestServers.awaitLiveConnections(server, burst);
            } finally {
                for (RawClient client : clients) client.close();
            }
        }
    }
}
