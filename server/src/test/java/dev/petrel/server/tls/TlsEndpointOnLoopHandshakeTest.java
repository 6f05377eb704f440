package dev.petrel.server.tls;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.server.tls.TlsEndpoint.HandshakeProgress;
import dev.petrel.server.tls.TlsEndpointMemoryEndpoint.Mode;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link TlsEndpoint#continueHandshake}, the handshake an event loop drives: it takes what has
 * arrived and never waits; when the loop can be woken, the answer to the client's hello computes
 * on the {@link HandshakeLane} and everything else on the loop, whichever engine; when it cannot,
 * an engine that computes inside its unwrap (as BoringSSL's does) completes there and the JDK's
 * engine hands its delegated tasks to a worker; and the clock started by the first call holds for
 * every later one, a hello still waiting in the lane's line included.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsEndpointOnLoopHandshakeTest {
    private static final int HANDSHAKE_MILLIS = 30_000;
    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    static Path keyDir;
    private static TlsEndpointKeys keys;

    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final HandshakeLane lane = new HandshakeLane(1); // one thread, so that a test can hold it

    @BeforeAll
    static void generateKeys() throws Exception {
        keys = TlsEndpointKeys.generate(keyDir);
    }

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    /**
     * Calls {@code continueHandshake} as an event loop does: again each time bytes arrive or the
     * lane wakes it, until it needs neither; counts the wakes in {@code wakes} when given.
     */
    private static HandshakeProgress driveOnLoop(TlsEndpoint server, TlsEndpointMemoryEndpoint raw, AtomicInteger wakes)
            throws Exception {
        while (true) {
            HandshakeProgress progress = server.continueHandshake(HANDSHAKE_MILLIS);
            switch (progress) {
                case NEEDS_INPUT -> assertThat(raw.awaitReadable(WAIT)).as("the client's next flight came").isTrue();
                case COMPUTING -> {
                    assertThat(raw.awaitWake(WAIT)).as("the lane woke the loop").isTrue();
                    wakes.incrementAndGet();
                }
                case DONE, NEEDS_WORKER -> {
                    return progress;
                }
            }
        }
    }

    private static HandshakeProgress driveOnLoop(TlsEndpoint server, TlsEndpointMemoryEndpoint raw) throws Exception {
        return driveOnLoop(server, raw, new AtomicInteger());
    }

    private static void assertDataFlowsBothWays(TlsEndpoint server, TlsEndpointMemoryClient client) throws Exception {
        client.send("ping".getBytes(US_ASCII));
        ByteBuffer received = ByteBuffer.allocate(16);
        assertThat(server.readAvailable(received)).isEqualTo(4);
        assertThat(new String(received.array(), 0, 4, US_ASCII)).isEqualTo("ping");
        server.write("pong".getBytes(US_ASCII), 0, 4);
        assertThat(new String(client.receive(4), US_ASCII)).isEqualTo("pong");
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void anEngineThatComputesInsideItsUnwrapCompletesTheHandshakeWithoutEverWaiting(String protocol) throws Exception {
        TlsEndpointMemoryEndpoint raw = new TlsEndpointMemoryEndpoint(Mode.EVENT_LOOP);
        TasksInsideEngine engine = new TasksInsideEngine(keys.serverEngine());
        TlsEndpoint server = new TlsEndpoint(raw, engine);
        TlsEndpointMemoryClient client = new TlsEndpointMemoryClient(keys.clientEngine(protocol, "petrel.test"), raw, null);

        assertThat(server.continueHandshake(HANDSHAKE_MILLIS)).as("before the client's hello").isEqualTo(HandshakeProgress.NEEDS_INPUT);
        Future<?> clientSide = threads.submit(() -> {
            client.handshake();
            return null;
        });

        assertThat(driveOnLoop(server, raw)).isEqualTo(HandshakeProgress.DONE);
        clientSide.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(engine.tasksRun()).as("the costly work ran inside the loop's calls").isPositive();
        assertThat(raw.blockingReads()).as("reads that waited").isZero();
        assertThat(server.protocol()).isEqualTo(protocol);
        assertThat(server.serverName()).isEqualTo("petrel.test");
        assertThatThrownBy(() -> server.continueHandshake(HANDSHAKE_MILLIS)).isInstanceOf(IllegalStateException.class);
        assertDataFlowsBothWays(server, client);
    }

    @Test
    void theJdkEngineHandsItsDelegatedTasksToAWorkerThatFinishesTheHandshake() throws Exception {
        TlsEndpointMemoryEndpoint raw = new TlsEndpointMemoryEndpoint(Mode.EVENT_LOOP);
        TlsEndpoint server = new TlsEndpoint(raw, keys.serverEngine());
        TlsEndpointMemoryClient client = new TlsEndpointMemoryClient(keys.clientEngine("TLSv1.3", "petrel.test"), raw, null);
        Future<?> clientSide = threads.submit(() -> {
            client.handshake();
            return null;
        });

        assertThat(driveOnLoop(server, raw)).isEqualTo(HandshakeProgress.NEEDS_WORKER);
        assertThat(raw.writtenTotal()).as("nothing answered on the loop").isZero();
        assertThat(raw.blockingReads()).isZero();

        server.handshake(HANDSHAKE_MILLIS); // the worker's part: the tasks, the answer, the client's Finished
        clientSide.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(server.protocol()).isEqualTo("TLSv1.3");
        assertDataFlowsBothWays(server, client);
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void onAnEventLoopAnIdleConnectionHoldsNoRecordBuffersAndTakesThemBackFromThePool(String protocol) throws Exception {
        TlsEndpointMemoryEndpoint raw = new TlsEndpointMemoryEndpoint(Mode.EVENT_LOOP);
        javax.net.ssl.SSLEngine engine = keys.serverEngine();
        TlsBufferPool pool = new TlsBufferPool(engine.getSession().getPacketBufferSize(), TlsEndpoint.Buffers.HEAP, 4);
        TlsEndpoint server = new TlsEndpoint(raw, engine, unused -> { }, lane, TlsEndpoint.Buffers.HEAP, pool);
        TlsEndpointMemoryClient client = new TlsEndpointMemoryClient(keys.clientEngine(protocol, "petrel.test"), raw, null);
        Future<?> clientSide = threads.submit(() -> {
            client.handshake();
            return null;
        });
        if (driveOnLoop(server, raw) == HandshakeProgress.NEEDS_WORKER) server.handshake(HANDSHAKE_MILLIS);
        clientSide.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

        for (int round = 0; round < 3; round++) {
            assertThat(server.netInCapacity() + server.appInCapacity() + server.netOutCapacity())
                    .as("record buffers held while idle").isZero();
            assertDataFlowsBothWays(server, client);
        }
        ByteBuffer[] free = {pool.acquire(), pool.acquire(), pool.acquire()};
        assertThat(free).extracting(ByteBuffer::capacity).containsOnly(engine.getSession().getPacketBufferSize());
        assertThat(free[0]).as("three buffers back in the pool, not one thrice").isNotSameAs(free[1]).isNotSameAs(free[2]);
        assertThat(free[1]).isNotSameAs(free[2]);
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void whenTheLoopCanBeWokenTheAnswerToTheHelloComputesOnTheLaneAndTheRestOnTheLoop(String protocol) throws Exception {
        TlsEndpointMemoryEndpoint raw = new TlsEndpointMemoryEndpoint(Mode.EVENT_LOOP_WAKING);
        TasksInsideEngine engine = new TasksInsideEngine(keys.serverEngine());
        TlsEndpoint server = new TlsEndpoint(raw, engine, unused -> { }, lane);
        TlsEndpointMemoryClient client = new TlsEndpointMemoryClient(keys.clientEngine(protocol, "petrel.test"), raw, null);
        Future<?> clientSide = threads.submit(() -> {
            client.handshake();
            return null;
        });

        AtomicInteger wakes = new AtomicInteger();
        assertThat(driveOnLoop(server, raw, wakes)).isEqualTo(HandshakeProgress.DONE);
        clientSide.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(wakes).as("one hand-over to the lane and back").hasValue(1);
        // the hello is answered on the lane; in TLS 1.2 the client's key exchange is taken on the loop
        List<String> taskThreads = engine.taskThreads();
        assertThat(taskThreads.getFirst()).as("where the hello was answered").startsWith("petrel-tls-handshake-");
        assertThat(taskThreads.subList(1, taskThreads.size())).as("where the client's later flights were taken")
                .allMatch(name -> name.equals(Thread.currentThread().getName()));
        assertThat(raw.blockingReads()).isZero();
        assertThat(server.protocol()).isEqualTo(protocol);
        assertDataFlowsBothWays(server, client);
    }

    @Test
    void theJdkEnginesDelegatedTasksComputeOnTheLaneWhenTheLoopCanBeWoken() throws Exception {
        TlsEndpointMemoryEndpoint raw = new TlsEndpointMemoryEndpoint(Mode.EVENT_LOOP_WAKING);
        TlsEndpoint server = new TlsEndpoint(raw, keys.serverEngine(), unused -> { }, lane);
        TlsEndpointMemoryClient client = new TlsEndpointMemoryClient(keys.clientEngine("TLSv1.3", "petrel.test"), raw, null);
        Future<?> clientSide = threads.submit(() -> {
            client.handshake();
            return null;
        });

        AtomicInteger wakes = new AtomicInteger();
        assertThat(driveOnLoop(server, raw, wakes)).as("no worker needed").isEqualTo(HandshakeProgress.DONE);
        clientSide.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(wakes).hasValue(1);
        assertThat(raw.blockingReads()).isZero();
        assertDataFlowsBothWays(server, client);
    }

    @Test
    void aHelloStillInTheLanesLineAtTheDeadlineIsDroppedAndNeverComputed() throws Exception {
        CountDownLatch blocker = new CountDownLatch(1);
        lane.submit(() -> blocker.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), () -> { }); // holds the lane's one thread
        TlsEndpointMemoryEndpoint raw = new TlsEndpointMemoryEndpoint(Mode.EVENT_LOOP_WAKING);
        TasksInsideEngine engine = new TasksInsideEngine(keys.serverEngine());
        TlsEndpoint server = new TlsEndpoint(raw, engine, unused -> { }, lane);
        TlsEndpointMemoryClient client = new TlsEndpointMemoryClient(keys.clientEngine("TLSv1.3", "petrel.test"), raw, null);
        client.engine().beginHandshake();
        raw.feed(client.wrapHandshake()); // the hello

        assertThat(server.continueHandshake(50)).isEqualTo(HandshakeProgress.COMPUTING);
        assertThat(server.continueHandshake(50)).as("asked again before it is done").isEqualTo(HandshakeProgress.COMPUTING);
        Thread.sleep(Duration.ofNanos(server.handshakeDeadline() - System.nanoTime()).plusMillis(5));
        assertThatThrownBy(() -> server.continueHandshake(50)).isInstanceOf(SocketTimeoutException.class);

        blocker.countDown();
        assertThat(raw.awaitWake(Duration.ofMillis(200))).as("a dropped hello wakes nobody").isFalse();
        assertThat(engine.tasksRun()).as("the hello was never computed").isZero();
    }

    @Test
    void aConnectionClosedWhileItsHelloWaitsForTheLaneFreesTheEngineOnceAndTheHelloNeverRuns() throws Exception {
        CountDownLatch blocker = new CountDownLatch(1);
        lane.submit(() -> blocker.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), () -> { });
        TlsEndpointMemoryEndpoint raw = new TlsEndpointMemoryEndpoint(Mode.EVENT_LOOP_WAKING);
        TasksInsideEngine engine = new TasksInsideEngine(keys.serverEngine());
        AtomicInteger releases = new AtomicInteger();
        TlsEndpoint server = new TlsEndpoint(raw, engine, unused -> releases.incrementAndGet(), lane);
        TlsEndpointMemoryClient client = new TlsEndpointMemoryClient(keys.clientEngine("TLSv1.3", "petrel.test"), raw, null);
        client.engine().beginHandshake();
        raw.feed(client.wrapHandshake());

        assertThat(server.continueHandshake(HANDSHAKE_MILLIS)).isEqualTo(HandshakeProgress.COMPUTING);
        server.close();
        assertThat(releases).as("freed at the close: nobody is inside").hasValue(1);

        blocker.countDown();
        assertThat(raw.awaitWake(WAIT)).as("the lane took the work, found the connection closed, and woke the loop").isTrue();
        assertThatThrownBy(() -> server.continueHandshake(HANDSHAKE_MILLIS)).isInstanceOf(SocketException.class);
        assertThat(releases).as("never twice").hasValue(1);
        assertThat(engine.tasksRun()).isZero();
    }

    @Test
    void aHelloTheLaneRefusesFailsTheHandshakeOnTheLoopWithTheEnginesAlert() throws Exception {
        TlsEndpointMemoryEndpoint raw = new TlsEndpointMemoryEndpoint(Mode.EVENT_LOOP_WAKING);
        TlsEndpoint server = new TlsEndpoint(raw, keys.serverEngine("TLSv1.2"), unused -> { }, lane);
        TlsEndpointMemoryClient client = new TlsEndpointMemoryClient(keys.clientEngine("TLSv1.3", null), raw, null);
        client.engine().beginHandshake();
        raw.feed(client.wrapHandshake()); // a hello for TLS 1.3 only, to a server of TLS 1.2 only

        assertThat(server.continueHandshake(HANDSHAKE_MILLIS)).isEqualTo(HandshakeProgress.COMPUTING);
        assertThat(raw.awaitWake(WAIT)).isTrue();
        assertThatThrownBy(() -> server.continueHandshake(HANDSHAKE_MILLIS)).isInstanceOf(SSLHandshakeException.class);
        assertThat(raw.awaitWritten(WAIT)[0]).as("the engine's alert, sent before failing").isEqualTo((byte) 21);
    }

    @Test
    void theFirstCallStartsTheClockAndEveryLaterCallKeepsIt() throws Exception {
        TlsEndpointMemoryEndpoint raw = new TlsEndpointMemoryEndpoint(Mode.EVENT_LOOP);
        TlsEndpoint server = new TlsEndpoint(raw, keys.serverEngine());

        long before = System.nanoTime();
        assertThat(server.continueHandshake(50)).isEqualTo(HandshakeProgress.NEEDS_INPUT);
        long after = System.nanoTime();
        assertThat(server.handshakeDeadline() - before).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
        assertThat(server.handshakeDeadline() - after).isLessThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));

        assertThat(server.continueHandshake(HANDSHAKE_MILLIS)).as("still in time").isEqualTo(HandshakeProgress.NEEDS_INPUT);
        Thread.sleep(Duration.ofNanos(server.handshakeDeadline() - System.nanoTime()).plusMillis(5));

        assertThatThrownBy(() -> server.continueHandshake(HANDSHAKE_MILLIS))
                .isInstanceOf(SocketTimeoutException.class).hasMessageContaining("within 50 ms");
        assertThatThrownBy(() -> server.handshake(HANDSHAKE_MILLIS)).as("a worker finishing it keeps the clock too")
                .isInstanceOf(SocketTimeoutException.class).hasMessageContaining("within 50 ms");
    }

    @Test
    void plainHttpIsToldFromTlsWithoutAWordSent() throws Exception {
        TlsEndpointMemoryEndpoint raw = new TlsEndpointMemoryEndpoint(Mode.EVENT_LOOP);
        TlsEndpoint server = new TlsEndpoint(raw, keys.serverEngine());
        raw.feed("GET / HTTP/1.1\r\nHost: petrel.test\r\n\r\n".getBytes(US_ASCII));

        assertThatThrownBy(() -> server.continueHandshake(HANDSHAKE_MILLIS)).isInstanceOf(TlsEndpoint.PlainHttpOnTlsPortException.class);
        assertThat(raw.writtenTotal()).isZero();
    }

    @Test
    void aClientThatLeavesMidHandshakeFailsIt() throws Exception {
        TlsEndpointMemoryEndpoint raw = new TlsEndpointMemoryEndpoint(Mode.EVENT_LOOP);
        TlsEndpoint server = new TlsEndpoint(raw, new TasksInsideEngine(keys.serverEngine()));
        TlsEndpointMemoryClient client = new TlsEndpointMemoryClient(keys.clientEngine("TLSv1.3", "petrel.test"), raw, null);
        client.engine().beginHandshake();
        raw.feed(client.wrapHandshake()); // the hello
        raw.feedEnd();

        assertThatThrownBy(() -> server.continueHandshake(HANDSHAKE_MILLIS))
                .isInstanceOf(SSLHandshakeException.class).hasMessageContaining("closed the connection during the TLS handshake");
    }
}
