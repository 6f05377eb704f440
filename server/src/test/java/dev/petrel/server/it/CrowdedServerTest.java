package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Server;
import dev.petrel.server.config.Http2Config;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;

/**
 * 256 clients, each trickling a request head one byte a second, cannot lock a normal client out,
 * on any transport, even with 200 connection slots (the {@code blocking} transport's default,
 * where each slot is a thread): while the server is full, connections that have waited
 * {@code headTimeoutWhenFull} (2 s) for a head are closed to make room, and the normal client,
 * queued behind the slow ones in the accept backlog, is answered within 5 s.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrowdedServerTest {
    private static final int SLOTS = 200;
    private static final int SLOW_CLIENTS = 256;
    private static final String SLOW_HEAD = "GET / HTTP/1.1\r\nHost: test\r\nX-Slow: " + "a".repeat(100);

    @PlainHttpTransportTest
    void slowHeadsCannotLockOutANormalClient(Transport kind) throws Exception {
        slowHeadsLeaveRoomForANormalClient(kind);
    }

    // Under the resource check this found a leak on nio+tls, mostly with BoringSSL: a slow head closed at the
    // stop was served once more and read "nothing yet" from the TLS endpoint whose engine the closing thread was
    // freeing, so it waited for good with its exchange's parts (TlsEndpointMemoryTest guards the read itself).
    @HttpsTransportTest
    void slowTlsHeadsCannotLockOutANormalClient(Transport kind) throws Exception {
        slowHeadsLeaveRoomForANormalClient(kind);
    }

    private static void slowHeadsLeaveRoomForANormalClient(Transport kind) throws Exception {
        ConcurrentLinkedQueue<RawClient> slow = new ConcurrentLinkedQueue<>();
        List<Thread> trickles = new ArrayList<>();
        AtomicInteger connected = new AtomicInteger();
        try (Server server = TestServers.builder(kind, TestServers.config().headerTimeout(Duration.ofSeconds(60)).build(),
                TestApp.handler()).maxConnections(SLOTS).start()) {
            for (int i = 0; i < SLOW_CLIENTS; i++) {
                // each on its own thread: beyond the 200 slots a TLS handshake waits for the server to accept
                trickles.add(Thread.ofVirtual().start(() -> trickle(server, slow, connected)));
            }
            TestServers.awaitCondition("the server full of slow clients", Duration.ofSeconds(20),
                    () -> server.liveConnections() == SLOTS && connected.get() >= SLOTS);

            long start = System.nanoTime();
            try (RawClient normal = RawClient.connect(server)) {
                RawResponse response = normal.send(Requests.get("/")).read();
                long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertThat(response.status()).isEqualTo(200);
                assertThat(response.text()).isEqualTo("HelloWorld");
                assertThat(took).as("ms until the normal client was answered").isLessThan(5_000);
            }
        } finally {
            trickles.forEach(Thread::interrupt);
            for (RawClient client : slow) client.close();
        }
    }

    /**
     * The soak's connection burst (issue 42): clients past the limit that connect, say nothing and
     * then reset, all of them, leave no connection behind on the server, wherever each of them was
     * (served and shed, admitted from the backlog after a shed, or still in the backlog). With h2c
     * on, a plain connection first waits in the selection chain for bytes that tell HTTP/2's
     * preface from HTTP/1.1; on {@code nio} a reset there used to leave the connection open for
     * good, with its socket and its slot.
     */
    @TransportTest
    void aBurstPastTheLimitThatIsResetLeavesNoConnectionBehind(Transport kind) throws Exception {
        var config = TestServers.config().idleTimeout(Duration.ofSeconds(60)).headerTimeout(Duration.ofSeconds(60)).build();
        try (Server server = TestServers.builder(kind, config, TestApp.handler()).maxConnections(100)
                .http2(Http2Config.ENABLED.withClearText(true)).start()) {
            List<Socket> burst = new ArrayList<>();
            try {
                for (int i = 0; i < 150; i++) {
                    Socket s = new Socket();
                    s.connect(server.address(), 2000);
                    burst.add(s);
                }
                Thread.sleep(3000); // sheds and admissions happen meanwhile
            } finally {
                for (Socket s : burst) {
                    s.setSoLinger(true, 0);
                    s.close();
                }
            }
            TestServers.awaitCondition("no connection left after the burst was reset", Duration.ofSeconds(10),
                    () -> server.liveConnections() == 0);
            try (RawClient after = RawClient.connect(server)) {
                assertThat(after.send(Requests.get("/")).read().status()).isEqualTo(200);
            }
        }
    }

    @TransportTest
    void aFullServerKeepsItsIdleConnectionsUntilANewClientWaits(Transport kind) throws Exception {
        var config = TestServers.config().idleTimeout(Duration.ofSeconds(10)).from(dev.petrel.server.config.ServerConfig.DEFAULT
                .withHeadTimeoutWhenFull(Duration.ofMillis(300))).build();
        try (Server server = TestServers.builder(kind, config, TestApp.handler()).maxConnections(3).start();
             RawClient a = RawClient.connect(server); RawClient b = RawClient.connect(server); RawClient c = RawClient.connect(server)) {
            for (RawClient idle : List.of(a, b, c)) assertThat(idle.send(Requests.get("/")).read().status()).isEqualTo(200);
            // full, idle for three times the head timeout when full, and nobody waiting: all kept
            a.assertStillOpen(1000);
            assertThat(server.liveConnections()).isEqualTo(3);

            // a fourth client: the idle ones make room for it
            try (RawClient next = RawClient.connect(server)) {
                assertThat(next.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");
            }
        }
    }

    /** Connects and sends the slow head one byte a second, until the server closes the connection or the test ends. */
    private static void trickle(Server server, ConcurrentLinkedQueue<RawClient> clients, AtomicInteger connected) {
        try {
            RawClient client = RawClient.connect(server);
            clients.add(client);
            connected.incrementAndGet();
            for (int i = 0; i < SLOW_HEAD.length(); i++) {
                client.send(SLOW_HEAD.substring(i, i + 1));
                Thread.sleep(1000);
            }
        } catch (IOException | InterruptedException e) {
            // shed by the server, or the test is over
        }
    }
}
