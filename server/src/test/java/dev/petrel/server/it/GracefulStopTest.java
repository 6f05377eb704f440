package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.server.Handler;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/** {@link Server#stop(Duration)}: finish what is in flight, close what is idle, refuse the rest. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class GracefulStopTest {

    private static CompletableFuture<Boolean> stopInBackground(Server server, Duration grace) {
        CompletableFuture<Boolean> result = new CompletableFuture<>();
        Thread.ofPlatform().name("test-stopper").start(() -> {
            try {
                result.complete(server.stop(grace));
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        return result;
    }

    @TransportTest
    void inFlightRequestCompletesIdleConnectionClosesNewConnectionsRefused(Transport kind) throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        Handler app = Router.builder()
                .get("/", (req, res) -> res.send("HelloWorld"))
                .get("/slow", (req, res) -> {
                    entered.countDown();
                    Thread.sleep(300);
                    res.send("done");
                })
                .build();
        Server server = TestServers.start(kind, app);
        int port = server.address().getPort();
        try (RawClient idle = RawClient.connect(server); RawClient busy = RawClient.connect(server)) {
            assertThat(idle.send(Requests.get("/")).read().status()).isEqualTo(200);
            busy.send(Requests.get("/slow"));
            assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();

            CompletableFuture<Boolean> stopped = stopInBackground(server, Duration.ofSeconds(5));

            idle.assertClosedByServer();
            RawResponse response = busy.read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo("done");
            assertThat(response.headers("Connection")).containsExactly("close");
            busy.assertClosedByServer();
            busy.disconnect(); // ends the server's lingering read at once
            assertThat(stopped.get(5, TimeUnit.SECONDS)).as("stopped within the grace period").isTrue();
            assertThat(server.liveConnections()).isZero();
        } finally {
            server.stop(Duration.ZERO);
        }
        assertThatThrownBy(() -> RawClient.connect(port).close()).isInstanceOf(ConnectException.class);
    }

    @TransportTest
    void requestStillRunningWhenTheGraceEndsIsCut(Transport kind) throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Server server = TestServers.start(kind, (req, res) -> {
            entered.countDown();
            release.await(10, TimeUnit.SECONDS);
            res.send("too late");
        });
        try (RawClient client = RawClient.connect(server)) {
            client.send(Requests.get("/"));
            assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(server.stop(Duration.ofMillis(200))).as("not everything finished").isFalse();
            client.assertClosedByServer();
        } finally {
            release.countDown();
            server.stop(Duration.ZERO);
        }
    }

    @TransportTest
    void stopWithNothingOpenIsQuickAndFreesThePort(Transport kind) throws Exception {
        Server server = TestServers.start(kind, TestApp.handler());
        int port = server.address().getPort();
        try (RawClient client = RawClient.connect(server)) {
            assertThat(client.send(Requests.getAndClose("/")).read().status()).isEqualTo(200);
            client.assertClosedByServer();
        }
        long start = System.nanoTime();
        assertThat(server.stop(Duration.ofSeconds(5))).isTrue();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(2000);
        assertThatThrownBy(() -> RawClient.connect(port).close()).isInstanceOf(ConnectException.class);
        // the port can be bound again
        try (Server again = Server.builder().host("127.0.0.1").port(port).transport(kind.kind()).handler(kind.handler(TestApp.handler())).start();
             RawClient client = RawClient.connect(again)) {
            assertThat(client.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");
        }
    }
}
