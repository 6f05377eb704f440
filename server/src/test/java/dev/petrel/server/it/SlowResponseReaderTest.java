package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.config.DataRate;
import dev.petrel.server.Handler;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.server.config.ServerConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;

/**
 * A client that reads the response slower than the minimum response rate is cut and its
 * connection freed, long before the write timeout (which only cuts a client that takes nothing);
 * one that keeps up gets the whole response. On every transport.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SlowResponseReaderTest {
    private static final int PIECE = 16 * 1024;
    private static final long TOTAL = 256L * 1024 * 1024;
    /** Long enough that only the rate can explain a cut within the test's time. */
    private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(60);
    /**
     * Fast for a minimum, so that a slow reader is cut within seconds although the allowance of
     * each slice covers the socket's send buffer (2 MiB or so over loopback, see WriteLimits).
     */
    private static final DataRate RATE = new DataRate(1024 * 1024, Duration.ofMillis(500));

    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicLong blockedSince = new AtomicLong();
    private final CountDownLatch ended = new CountDownLatch(1);

    /** Streams {@link #TOTAL} bytes in 16 KiB writes; notes when a write first took long (the socket buffers were full). */
    private Handler big() {
        return (request, response) -> {
            byte[] piece = new byte[PIECE];
            Arrays.fill(piece, (byte) 'x');
            response.contentLength(TOTAL);
            try {
                OutputStream body = response.body();
                for (long sent = 0; sent < TOTAL; sent += PIECE) {
                    long before = System.nanoTime();
                    body.write(piece);
                    if (System.nanoTime() - before > TimeUnit.MILLISECONDS.toNanos(100)) blockedSince.compareAndSet(0, before);
                }
            } catch (Throwable t) {
                if (blockedSince.get() == 0) blockedSince.set(System.nanoTime()); // the first write that waited failed
                failure.set(t);
                throw t;
            } finally {
                ended.countDown();
            }
        };
    }

    private Server start(Transport kind) throws IOException {
        ServerConfig config = TestServers.config().writeTimeout(WRITE_TIMEOUT).from(ServerConfig.DEFAULT.withMinResponseRate(RATE)).build();
        return TestServers.start(kind, config, Router.builder().get("/", (req, res) -> res.send("HelloWorld")).get("/big", big()).build());
    }

    @TransportTest
    void aLargeResponseToAClientThatKeepsUpIsNeverCutForItsSize(Transport kind) throws Exception {
        byte[] large = new byte[8 * 1024 * 1024];
        Arrays.fill(large, (byte) 'y');
        // one send of 8 MiB, more than the socket buffers take, read at about 6 MiB/s: the write
        // waits longer in all than the 1 s write timeout, yet never keeps a slice waiting long.
        // The kernel shows the reading in steps (a third or more of its send buffer, a quarter
        // of a second here), which the minimum rate must not take for a stall.
        ServerConfig config = TestServers.config().writeTimeout(Duration.ofSeconds(1)).idleTimeout(Duration.ofSeconds(10))
                .from(ServerConfig.DEFAULT.withMinResponseRate(RATE)).build();
        try (Server server = TestServers.start(kind, config, Router.builder().get("/large", (req, res) -> res.send(large)).build());
             RawClient client = RawClient.connect(server, 64 * 1024)) {
            client.send(Requests.get("/large"));
            assertThat(client.readHead().status()).isEqualTo(200);
            long received = 0;
            while (received < large.length) {
                int n = client.readUpTo((int) Math.min(64 * 1024, large.length - received));
                assertThat(n).as("bytes read after %d: the connection was cut", received).isPositive();
                received += n;
                Thread.sleep(10);
            }
            assertThat(received).isEqualTo(large.length);
            assertThat(client.send(Requests.get("/large")).readHead().status()).as("the connection lives on").isEqualTo(200);
        }
    }

    @TransportTest
    void aClientReadingOneBytePerSecondIsCutByTheRateAndItsSlotFreed(Transport kind) throws Exception {
        try (Server server = start(kind); RawClient slow = RawClient.connect(server, 64 * 1024)) {
            slow.send(Requests.get("/big"));
            Thread reader = Thread.ofVirtual().start(() -> slow.readSlowly(1, Duration.ofSeconds(1), 20));

            assertThat(ended.await(20, TimeUnit.SECONDS)).as("the handler's write was cut").isTrue();
            long cutAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - blockedSince.get());
            assertThat(failure.get()).isInstanceOf(IOException.class);
            assertThat(cutAfter).as("ms from the first write that waited to the cut: the rate's, not the write timeout's")
                    .isLessThan(WRITE_TIMEOUT.toMillis() / 4);
            TestServers.awaitLiveConnections(server, 0);
            reader.interrupt();

            try (RawClient other = RawClient.connect(server)) {
                assertThat(other.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");
            }
        }
    }
}
