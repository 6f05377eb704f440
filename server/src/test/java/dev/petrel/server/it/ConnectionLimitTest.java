package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Server;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/** {@code maxConnections}: connections beyond it wait in the accept backlog, they are not refused. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ConnectionLimitTest {

    @PlainHttpTransportTest
    void connectionBeyondTheLimitWaitsForAFreeSlot(Transport kind) throws Exception {
        try (Server server = TestServers.builder(kind, TestServers.config().build(), TestApp.handler())
                .maxConnections(1).start();
             RawClient first = RawClient.connect(server);
             RawClient second = RawClient.connect(server)) {
            assertThat(first.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");
            second.send(Requests.get("/text"));
            second.assertStillOpen(300); // not served while the only slot is taken
            first.disconnect();
            RawResponse response = second.read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo("hello world");
        }
    }
}
