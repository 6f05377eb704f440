package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Server;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Slowloris: clients that hold a connection by sending a head slowly, or not finishing it, are
 * cut with a {@code 408} at the header timeout, which frees their connection slot for others.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SlowlorisTest {
    private static final Duration HEADER = Duration.ofMillis(500);

    private static Server start(Transport kind) throws Exception {
        var config = TestServers.config().headerTimeout(HEADER).build();
        return TestServers.builder(kind, config, TestApp.handler())
                .maxConnections(1)
                .queueTimeout(Duration.ofSeconds(5)) // a waiting client is queued, not turned away
                .start();
    }

    @PlainHttpTransportTest
    void stalledHeadIsCutWith408AndItsSlotGoesToTheNextClient(Transport kind) throws Exception {
        try (Server server = start(kind);
             RawClient loris = RawClient.connect(server);
             RawClient next = RawClient.connect(server)) {
            loris.send("GET / HTTP/1.1\r\nHo"); // and stalls
            next.send(Requests.get("/text")); // waits for the only slot, which the loris holds

            RawResponse cut = loris.read();
            assertThat(cut.statusLine()).isEqualTo("HTTP/1.1 408 Request Timeout");
            assertThat(cut.headers("Connection")).containsExactly("close");
            loris.assertClosedByServer();
            // the loris keeps its end open, as one would: the server's close must not wait for it

            RawResponse response = next.read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo("hello world");
        }
    }

    @TransportTest
    void headDribbledOneByteEvery200MillisIsCutAtTheHeaderTimeout(Transport kind) throws Exception {
        // one byte at a time: every byte is progress, yet the head is far from done when the timeout ends
        String dribble = "GET / HTTP/1.1\r\nHost: test\r\nX-Slow: " + "a".repeat(100);
        int maxBytes = 25; // 5 s of dribbling, ten times the header timeout
        try (Server server = start(kind); RawClient loris = RawClient.connect(server)) {
            int sent = 0;
            while (!loris.inputAvailable() && sent < maxBytes) {
                loris.send(dribble.substring(sent, sent + 1));
                sent++;
                Thread.sleep(200);
            }
            assertThat(loris.inputAvailable()).as("answered while still sending, after %d bytes", sent).isTrue();
            // the head timeout runs from the first byte, so the answer cannot come before the third one
            assertThat(sent).isGreaterThanOrEqualTo(3);
            RawResponse cut = loris.read();
            assertThat(cut.status()).isEqualTo(408);
            assertThat(cut.saysClose()).isTrue();
            loris.assertClosedByServer(); // its end stays open: the server must free the slot all the same

            // and the only slot is free again
            try (RawClient next = RawClient.connect(server)) {
                assertThat(next.send(Requests.get("/")).read().status()).isEqualTo(200);
            }
        }
    }
}
