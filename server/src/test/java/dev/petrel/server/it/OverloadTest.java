package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Server;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * At {@code maxConnections}: a new connection waits up to {@code queueTimeout} for a slot, then
 * is turned away with a whole {@code 503} and {@code Retry-After} (never a reset), and slots
 * freed by leaving clients are given to later ones.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OverloadTest {
    /** A date as RFC 9110 section 5.6.7 (IMF-fixdate) writes it. */
    private static final String IMF_FIXDATE = "(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} "
            + "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \\d{4} \\d{2}:\\d{2}:\\d{2} GMT";

    private static Server start(Transport kind, int maxConnections, Duration queueTimeout) throws IOException {
        return TestServers.builder(kind, TestServers.config().build(), TestApp.handler())
                .maxConnections(maxConnections)
                .queueTimeout(queueTimeout)
                .start();
    }

    /** Checks a whole overload answer, then end of stream: the client sent its request first, and read it all. */
    private static void assertTurnedAway(RawClient client) throws IOException {
        RawResponse response = client.read();
        assertThat(response.statusLine()).isEqualTo("HTTP/1.1 503 Service Unavailable");
        assertThat(response.headers("Retry-After")).containsExactly("1");
        assertThat(response.headers("Connection")).containsExactly("close");
        assertThat(response.header("Date")).matches(IMF_FIXDATE);
        assertThat(response.header("Content-Type")).startsWith("text/plain");
        assertThat(response.text()).startsWith("Service Unavailable").endsWith("\n");
        client.assertClosedByServer();
    }

    /**
     * Connects and asks for {@code /} until a connection is served rather than turned away: a slot
     * is freed on the server's own threads some moment after its client left.
     */
    private static RawResponse getOnceASlotIsFree(Server server) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (true) {
            try (RawClient client = RawClient.connect(server)) {
                RawResponse response = client.send(Requests.get("/")).read();
                if (response.status() != 503 || System.nanoTime() - deadline > 0) return response;
            }
            Thread.sleep(20);
        }
    }

    @PlainHttpTransportTest
    void connectionBeyondTheLimitGetsAWhole503WhenTheQueueTimeoutIsZero(Transport kind) throws Exception {
        try (Server server = start(kind, 1, Duration.ZERO);
             RawClient holder = RawClient.connect(server)) {
            assertThat(holder.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");

            try (RawClient second = RawClient.connect(server)) {
                // the request goes out before the answer is read: a server closing on unread input would reset
                second.send(Requests.get("/text"));
                assertTurnedAway(second);
            }

            // the holder kept its slot and its connection all along
            RawResponse again = holder.send(Requests.get("/text")).read();
            assertThat(again.status()).isEqualTo(200);
            assertThat(again.saysClose()).isFalse();
            assertThat(server.liveConnections()).isEqualTo(1);
        }
    }

    @PlainHttpTransportTest
    void slotIsGivenToALaterClientOnceItsHolderLeaves(Transport kind) throws Exception {
        try (Server server = start(kind, 1, Duration.ZERO)) {
            try (RawClient holder = RawClient.connect(server)) {
                assertThat(holder.send(Requests.get("/")).read().status()).isEqualTo(200);
                try (RawClient second = RawClient.connect(server)) {
                    assertTurnedAway(second.send(Requests.get("/")));
                }
            }
            RawResponse response = getOnceASlotIsFree(server);
            assertThat(response.status()).as("served once the holder left: %s", response).isEqualTo(200);
            assertThat(response.text()).isEqualTo("HelloWorld");
        }
    }

    @PlainHttpTransportTest
    void connectionWaitsForTheQueueTimeoutAndIsServedWhenASlotFrees(Transport kind) throws Exception {
        try (Server server = start(kind, 1, Duration.ofSeconds(2));
             RawClient holder = RawClient.connect(server);
             RawClient waiting = RawClient.connect(server)) {
            assertThat(holder.send(Requests.get("/")).read().status()).isEqualTo(200);
            waiting.send(Requests.get("/text"));
            waiting.assertStillOpen(300); // neither served nor turned away while the queue timeout runs
            holder.disconnect();
            RawResponse response = waiting.read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo("hello world");
            assertThat(response.saysClose()).isFalse();
        }
    }

    @PlainHttpTransportTest
    void manyConnectionsBeyondTheLimitAreEachAnsweredThenTheServerRecovers(Transport kind) throws Exception {
        int extra = 50;
        try (Server server = start(kind, 2, Duration.ZERO)) {
            List<RawClient> turnedAway = new ArrayList<>();
            try (RawClient holder1 = RawClient.connect(server); RawClient holder2 = RawClient.connect(server)) {
                assertThat(holder1.send(Requests.get("/")).read().status()).isEqualTo(200);
                assertThat(holder2.send(Requests.get("/")).read().status()).isEqualTo(200);
                try {
                    // all of them connect and send before any answer is read: they are over the limit at once
                    for (int i = 0; i < extra; i++) turnedAway.add(RawClient.connect(server));
                    for (RawClient client : turnedAway) client.send(Requests.get("/"));
                    List<String> failures = new ArrayList<>();
                    for (int i = 0; i < extra; i++) {
                        try {
                            assertTurnedAway(turnedAway.get(i));
                        } catch (IOException | AssertionError e) {
                            failures.add("connection " + i + ": " + e);
                        }
                    }
                    assertThat(failures).as("every connection over the limit gets a whole 503, then end of stream")
                            .isEmpty();
                } finally {
                    for (RawClient client : turnedAway) client.close();
                }
                assertThat(server.liveConnections()).as("turned-away connections are never counted").isEqualTo(2);
                // the holders were never disturbed
                assertThat(holder1.send(Requests.get("/text")).read().status()).isEqualTo(200);
                assertThat(holder2.send(Requests.get("/text")).read().status()).isEqualTo(200);
            }
            RawResponse response = getOnceASlotIsFree(server);
            assertThat(response.status()).as("served once the holders left: %s", response).isEqualTo(200);
            TestServers.awaitLiveConnections(server, 0);
        }
    }
}
