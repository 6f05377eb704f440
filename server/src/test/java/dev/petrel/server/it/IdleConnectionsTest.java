package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Server;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Many keep-alive connections waiting between requests: all stay open and are served again, and
 * all are closed by the server once idle for {@code idleTimeout}, freeing every one of them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IdleConnectionsTest {
    private static final int CONNECTIONS = 200;
    private static final Duration IDLE = Duration.ofSeconds(1);

    @TransportTest
    void manyIdleConnectionsAreKeptServedAgainThenClosedAtTheIdleTimeout(Transport kind) throws Exception {
        var config = TestServers.config().idleTimeout(IDLE).build();
        List<RawClient> clients = new ArrayList<>();
        // blocking gives each connection a platform thread up to its limit: make room for all of them
        try (Server server = TestServers.builder(kind, config, TestApp.handler()).maxConnections(CONNECTIONS + 50).start()) {
            try {
                // Connect all first, then ask on each, then read each: every step is quick, so no
                // connection waits anywhere near the idle timeout between its two requests.
                for (int i = 0; i < CONNECTIONS; i++) clients.add(RawClient.connect(server));
                for (RawClient client : clients) client.send(Requests.get("/"));
                for (RawClient client : clients) {
                    RawResponse response = client.read();
                    assertThat(response.status()).isEqualTo(200);
                    assertThat(response.saysClose()).isFalse();
                }
                assertThat(server.liveConnections()).isEqualTo(CONNECTIONS);

                for (RawClient client : clients) client.send(Requests.get("/text"));
                for (RawClient client : clients) {
                    RawResponse response = client.read();
                    assertThat(response.status()).isEqualTo(200);
                    assertThat(response.text()).isEqualTo("hello world");
                }
                assertThat(server.liveConnections()).isEqualTo(CONNECTIONS);

                // nothing more is asked: the server closes each one, without a word (RFC 9112 section 9.5)
                for (RawClient client : clients) client.assertClosedByServer();
                TestServers.awaitLiveConnections(server, 0);
            } finally {
                for (RawClient client : clients) client.close();
            }
        }
    }

    /**
     * A client that resets its connection between requests: the server lets the connection go at
     * once, not at the idle timeout. On the event loop, serving inline, the read that met the reset
     * used to leave the connection taken for read dry: it went back to waiting, the socket stayed
     * readable, and the loop met the reset again and again, an exception each time, until the idle
     * timeout.
     */
    @TransportTest
    void anIdleConnectionItsClientResetsIsFreedAtOnce(Transport kind) throws Exception {
        var config = TestServers.config().idleTimeout(Duration.ofSeconds(60)).build();
        try (Server server = TestServers.builder(kind, config, TestApp.handler()).start();
             RawClient client = RawClient.connect(server)) {
            assertThat(client.send(Requests.get("/")).read().status()).isEqualTo(200);
            Thread.sleep(50); // the server is back to waiting for the next head
            client.reset();
            TestServers.awaitLiveConnections(server, 0);
        }
    }
}
