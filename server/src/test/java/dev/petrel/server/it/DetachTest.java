package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.config.AjpConfig;
import dev.petrel.server.Detached;
import dev.petrel.server.HttpStatusException;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.testkit.AjpClient;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An exchange that outlives {@code handle()}: the handler detaches the response and another thread
 * finishes it later, fails it, or lets it time out (503); a client gone meanwhile frees the
 * connection. On every transport whose handlers may block, over TLS too, and over AJP; a handler
 * marked non-blocking, running on an event loop, may not detach.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DetachTest {
    private static final String SECRET = "s3cret";

    /** What the detached responses' other threads saw. */
    private final AtomicBoolean lateCompletionRefused = new AtomicBoolean();
    private final AtomicReference<Throwable> lateWriteFailure = new AtomicReference<>();
    private final CountDownLatch lateDone = new CountDownLatch(1);

    private Router app() {
        return Router.builder()
                .get("/later", (req, res) -> {
                    Detached detached = res.detach(Duration.ofSeconds(10));
                    Thread.ofVirtual().start(() -> {
                        try {
                            Thread.sleep(100);
                            OutputStream out = res.body();
                            out.write("finished ".getBytes(StandardCharsets.US_ASCII));
                            out.write(Thread.currentThread().isVirtual() ? "elsewhere".getBytes(StandardCharsets.US_ASCII) : new byte[0]);
                            detached.complete();
                        } catch (Exception e) {
                            detached.fail(e);
                        }
                    });
                })
                .get("/fail-later", (req, res) -> {
                    Detached detached = res.detach(Duration.ofSeconds(10));
                    Thread.ofVirtual().start(() -> detached.fail(new HttpStatusException(409, "conflict found later")));
                })
                .get("/never", (req, res) -> {
                    Detached detached = res.detach(Duration.ofMillis(300));
                    Thread.ofVirtual().start(() -> {
                        try {
                            Thread.sleep(800);
                            try {
                                res.body().write('x');
                            } catch (Throwable t) {
                                lateWriteFailure.set(t);
                            }
                            lateCompletionRefused.set(!detached.complete());
                        } catch (InterruptedException ignored) {
                            // the test is over
                        } finally {
                            lateDone.countDown();
                        }
                    });
                })
                .build();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Transport.class, names = {"BLOCKING", "VIRTUAL", "NIO", "BLOCKING_TLS", "VIRTUAL_TLS", "NIO_TLS"})
    void anotherThreadFinishesTheResponseAndTheConnectionGoesOn(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, app()); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(Requests.get("/later")).read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo("finished elsewhere");
            assertThat(response.header("Content-Length")).isEqualTo("18");
            RawResponse failed = client.send(Requests.get("/fail-later")).read();
            assertThat(failed.status()).isEqualTo(409);
            assertThat(failed.text()).isEqualTo("Conflict: conflict found later\n");
            assertThat(client.send(Requests.get("/later")).read().text()).as("the connection goes on").isEqualTo("finished elsewhere");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Transport.class, names = {"BLOCKING", "VIRTUAL", "NIO", "BLOCKING_TLS", "VIRTUAL_TLS", "NIO_TLS"})
    void aResponseNotCompletedInTimeGets503AndTheLateThreadIsRefused(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, app()); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(Requests.get("/never")).read();
            assertThat(response.status()).isEqualTo(503);
            assertThat(response.text()).isEqualTo("Service Unavailable: The response was not completed in time\n");
            assertThat(lateDone.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(lateCompletionRefused).isTrue();
            assertThat(lateWriteFailure.get()).isInstanceOf(IllegalStateException.class);
            assertThat(client.send(Requests.get("/later")).read().status()).as("the connection goes on").isEqualTo(200);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Transport.class, names = {"BLOCKING", "VIRTUAL", "NIO", "BLOCKING_TLS", "VIRTUAL_TLS", "NIO_TLS"})
    void aClientGoneMeanwhileFreesTheConnection(Transport kind) throws Exception {
        CountDownLatch detachedOnce = new CountDownLatch(1);
        AtomicReference<Throwable> writeAfterLeaving = new AtomicReference<>();
        CountDownLatch written = new CountDownLatch(1);
        Router app = Router.builder().get("/slow", (req, res) -> {
            Detached detached = res.detach(Duration.ofSeconds(10));
            detachedOnce.countDown();
            Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(300); // the client leaves meanwhile
                    OutputStream out = res.body();
                    for (int i = 0; i < 200; i++) out.write(new byte[16 * 1024]); // more than any socket buffer takes
                    detached.complete();
                } catch (Throwable t) {
                    writeAfterLeaving.set(t);
                    detached.fail(t);
                } finally {
                    written.countDown();
                }
            });
        }).build();
        try (Server server = TestServers.start(kind, app)) {
            RawClient client = RawClient.connect(server);
            client.send(Requests.get("/slow"));
            assertThat(detachedOnce.await(5, TimeUnit.SECONDS)).isTrue();
            client.disconnect();
            assertThat(written.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(writeAfterLeaving.get()).as("writing to a client that left fails").isNotNull();
            TestServers.awaitLiveConnections(server, 0);
        }
    }

    @TransportTest
    void aHandlerOnTheEventLoopMayNotDetach(Transport kind) throws Exception {
        Router app = Router.builder().get("/", (req, res) -> {
            String where = Thread.currentThread().getName().startsWith("petrel-nio-loop-") ? "loop" : "elsewhere";
            try {
                res.detach(Duration.ofSeconds(1)).complete();
                res.send("detached " + where);
            } catch (IllegalStateException e) {
                res.send("refused " + where);
            }
        }).build();
        try (Server server = TestServers.start(kind, app); RawClient client = RawClient.connect(server)) {
            for (int i = 0; i < 3; i++) {
                // refused exactly where the handler runs on the loop: inline handlers, but for a TLS
                // connection's first request, served on the worker that ran the handshake
                assertThat(client.send(Requests.get("/")).read().text()).isIn("refused loop", "detached elsewhere");
            }
            if (kind == Transport.NIO_INLINE) {
                assertThat(client.send(Requests.get("/")).read().text()).isEqualTo("refused loop");
            }
            if (!kind.toString().contains("inline")) {
                assertThat(client.send(Requests.get("/")).read().text()).isEqualTo("detached elsewhere");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Transport.class, names = {"BLOCKING", "VIRTUAL", "NIO"})
    void overAjpTheFrontEndGetsTheLateResponse(Transport kind) throws Exception {
        try (Server server = TestServers.builder(kind, TestServers.config().build(), app()).ajp(0, AjpConfig.withSecret(SECRET)).start();
             AjpClient front = AjpClient.connect(server.ajpAddress())) {
            AjpClient.Response late = front.send(AjpClient.request("GET", "/later").secret(SECRET));
            assertThat(late.text()).isEqualTo("finished elsewhere");
            assertThat(late.reuse()).isTrue();
            AjpClient.Response never = front.send(AjpClient.request("GET", "/never").secret(SECRET));
            assertThat(never.status()).isEqualTo(503);
            assertThat(front.send(AjpClient.request("GET", "/later").secret(SECRET)).text()).isEqualTo("finished elsewhere");
        }
    }
}
