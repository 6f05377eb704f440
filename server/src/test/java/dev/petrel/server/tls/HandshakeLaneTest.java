package dev.petrel.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.server.tls.TlsEndpointMemoryEndpoint.Mode;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link HandshakeLane}: work runs on the lane's platform threads and its result or failure comes
 * back as it was; the handshake's deadline is kept while the work waits in line, never by leaving
 * started work running; and {@link TlsEndpoint} sends the first step of a handshake there from a
 * virtual thread only.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HandshakeLaneTest {
    private static final int HANDSHAKE_MILLIS = 30_000;

    @TempDir
    static Path keyDir;
    private static TlsEndpointKeys keys;

    @BeforeAll
    static void generateKeys() throws Exception {
        keys = TlsEndpointKeys.generate(keyDir);
    }

    private static long deadlineIn(long millis) {
        return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    }

    @Test
    void runsTheWorkOnItsOwnPlatformThreadAndReturnsItsResult() throws Exception {
        HandshakeLane lane = new HandshakeLane(1);
        Thread ran = lane.call(Thread::currentThread, deadlineIn(10_000), 10_000);
        assertThat(ran.isVirtual()).isFalse();
        assertThat(ran.getName()).startsWith("petrel-tls-handshake-");
        assertThat(ran).isNotSameAs(Thread.currentThread());
    }

    @Test
    void failuresComeBackAsThrown() {
        HandshakeLane lane = new HandshakeLane(1);
        SSLHandshakeException refused = new SSLHandshakeException("no shared cipher");
        assertThatThrownBy(() -> lane.call(() -> { throw refused; }, deadlineIn(10_000), 10_000)).isSameAs(refused);
        IllegalStateException bug = new IllegalStateException("engine state");
        assertThatThrownBy(() -> lane.call(() -> { throw bug; }, deadlineIn(10_000), 10_000)).isSameAs(bug);
    }

    @Test
    void workStillInLineAtTheDeadlineIsDroppedAndTimesOut() throws Exception {
        HandshakeLane lane = new HandshakeLane(1);
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (ExecutorService caller = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<Object> occupying = caller.submit(() -> lane.call(() -> {
                busy.countDown();
                release.await();
                return null;
            }, deadlineIn(30_000), 30_000));
            assertThat(busy.await(10, TimeUnit.SECONDS)).isTrue();

            AtomicBoolean ranLate = new AtomicBoolean();
            assertThatThrownBy(() -> lane.call(() -> ranLate.getAndSet(true), deadlineIn(50), 50))
                    .isInstanceOf(SocketTimeoutException.class)
                    .hasMessageContaining("within 50 ms");

            release.countDown();
            occupying.get(10, TimeUnit.SECONDS);
            // the lane is free again, and the dropped work never ran
            assertThat(lane.call(() -> "next", deadlineIn(10_000), 10_000)).isEqualTo("next");
            assertThat(ranLate).isFalse();
        }
    }

    @Test
    void workThatHasStartedIsWaitedForPastTheDeadline() throws Exception {
        HandshakeLane lane = new HandshakeLane(1);
        lane.call(() -> null, deadlineIn(10_000), 10_000); // the lane's thread is up: the next work starts at once
        long start = System.nanoTime();
        String result = lane.call(() -> {
            Thread.sleep(600);
            return "done";
        }, deadlineIn(200), 200);
        assertThat(result).isEqualTo("done");
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(600));
    }

    @Test
    void aHandshakeOnAVirtualThreadAnswersTheHelloOnTheLane() throws Exception {
        HandshakeLane lane = new HandshakeLane(1);
        handshake(lane, Executors.newVirtualThreadPerTaskExecutor());
        // the hello's answer: one unwrap over BoringSSL, the delegated tasks and maybe an unwrap on the JDK's engine
        assertThat(lane.completed()).isBetween(1L, 3L);
    }

    @Test
    void aHandshakeOnAPlatformThreadStaysOnIt() throws Exception {
        HandshakeLane lane = new HandshakeLane(1);
        handshake(lane, Executors.newSingleThreadExecutor());
        assertThat(lane.completed()).isZero();
    }

    private static void handshake(HandshakeLane lane, ExecutorService threads) throws Exception {
        try (threads) {
            TlsEndpointMemoryEndpoint raw = new TlsEndpointMemoryEndpoint(Mode.CHUNKS);
            TlsEndpoint server = new TlsEndpoint(raw, keys.serverEngine(), engine -> { }, lane);
            TlsEndpointMemoryClient client = new TlsEndpointMemoryClient(keys.clientEngine("TLSv1.3", "petrel.test"), raw,
                    new java.util.Random(1));
            Future<?> handshake = threads.submit(() -> {
                server.handshake(HANDSHAKE_MILLIS);
                return null;
            });
            client.handshake();
            handshake.get(10, TimeUnit.SECONDS);
            assertThat(server.protocol()).isEqualTo("TLSv1.3");
            server.close();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
