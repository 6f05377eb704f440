package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Server;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/** Idle, head (slowloris) and body read timeouts. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TimeoutTest {
    private static final Duration HEADER = Duration.ofMillis(400);
    private static final Duration IDLE = Duration.ofMillis(300);
    private static final Duration BODY = Duration.ofMillis(300);

    private static Server start(Transport kind) throws Exception {
        var config = TestServers.config().headerTimeout(HEADER).idleTimeout(IDLE).bodyReadTimeout(BODY).build();
        return TestServers.start(kind, config, TestApp.handler());
    }

    @TransportTest
    void idleKeepAliveConnectionIsClosedQuietly(Transport kind) throws Exception {
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            assertThat(client.send(Requests.get("/")).read().status()).isEqualTo(200);
            long start = System.nanoTime();
            client.assertClosedByServer(); // no 408: nothing was asked (RFC 9112 section 9.5)
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(waited).as("not closed before the idle timeout").isGreaterThanOrEqualTo(IDLE.toMillis() / 2);
        }
    }

    @TransportTest
    void connectionThatNeverSendsIsClosedQuietly(Transport kind) throws Exception {
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            long start = System.nanoTime();
            client.assertClosedByServer();
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(waited).as("not closed before the head timeout").isGreaterThanOrEqualTo(HEADER.toMillis() / 2);
        }
    }

    @TransportTest
    void partialHeadGets408AndClose(Transport kind) throws Exception {
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send("GET / HTTP/1.1\r\nHost: test\r\n").read();
            assertThat(response.statusLine()).isEqualTo("HTTP/1.1 408 Request Timeout");
            assertThat(response.headers("Connection")).containsExactly("close");
            assertThat(response.header("Content-Type")).isEqualTo("text/plain;charset=UTF-8");
            client.assertClosedByServer();
        }
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            // the same on a connection that already served a request
            assertThat(client.send(Requests.get("/")).read().status()).isEqualTo(200);
            assertThat(client.send("GET /text HTTP/1.1\r\n").read().status()).isEqualTo(408);
            client.assertClosedByServer();
        }
    }

    @TransportTest
    void headDrippedByteByByteStillTimesOut(Transport kind) throws Exception {
        // the head timeout runs from its first byte: a steady drip does not extend it
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            client.send("GET / HTTP/1.1\r\nHost: test\r\n");
            long start = System.nanoTime();
            while (!client.inputAvailable() && System.nanoTime() - start < TimeUnit.SECONDS.toNanos(4)) {
                client.send("X");
                Thread.sleep(50);
            }
            RawResponse response = client.read();
            assertThat(response.status()).isEqualTo(408);
            assertThat(response.saysClose()).isTrue();
            client.assertClosedByServer();
        }
    }

    @TransportTest
    void bodyThatStopsArrivingGets408AndClose(Transport kind) throws Exception {
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            client.send("POST /echo HTTP/1.1\r\nHost: test\r\nContent-Length: 10\r\n\r\nabc");
            RawResponse response = client.read();
            assertThat(response.status()).isEqualTo(408);
            assertThat(response.headers("Connection")).containsExactly("close");
            assertThat(response.text()).isEqualTo("Request Timeout: Request body too slow: no bytes for 300 ms\n");
            client.assertClosedByServer();
        }
    }

    @TransportTest
    void chunkedBodyThatStopsArrivingGets408AndClose(Transport kind) throws Exception {
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            client.send("POST /echo HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nabc");
            RawResponse response = client.read();
            assertThat(response.status()).isEqualTo(408);
            assertThat(response.headers("Connection")).containsExactly("close");
            client.assertClosedByServer();
        }
    }

    @TransportTest
    void slowButSteadyBodyIsAccepted(Transport kind) throws Exception {
        // the body timeout bounds each wait, not the whole body
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            client.send("POST /echo HTTP/1.1\r\nHost: test\r\nContent-Length: 5\r\n\r\n");
            for (char c : "slow!".toCharArray()) {
                Thread.sleep(BODY.toMillis() / 3);
                client.send(String.valueOf(c));
            }
            RawResponse response = client.read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo("slow!");
        }
    }
}
