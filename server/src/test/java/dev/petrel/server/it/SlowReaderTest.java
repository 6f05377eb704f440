package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Handler;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;

/**
 * A client that asks for a large response and never reads it: the handler's writes are held
 * back by the full socket buffers (the server buffers no more than its response buffer), the
 * write times out after {@code writeTimeout}, and the connection is cut and freed, while other
 * clients are served as usual.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SlowReaderTest {
    private static final int PIECE = 64 * 1024;
    private static final long TOTAL = 64L * 1024 * 1024;
    /** The client's receive buffer, fixed so that the kernel does not grow it. */
    private static final int CLIENT_RECEIVE_BUFFER = 64 * 1024;
    /**
     * What may leave the handler before its writes block: the server's socket send buffer (Linux
     * autotunes it up to net.ipv4.tcp_wmem's maximum, 4 MiB by default), the client's receive
     * buffer (64 KiB here), and the server's response buffer (16 KiB). 16 MiB leaves room for
     * larger kernel settings and is still a quarter of what the handler tries to send: a server
     * that buffered the response in memory instead of applying back-pressure would get far past it.
     */
    private static final long BOUND = 16L * 1024 * 1024;

    /** What the streaming handler saw. */
    private static final class Stream {
        final AtomicLong bytesOut = new AtomicLong();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch ended = new CountDownLatch(1);

        /** Streams {@link #TOTAL} bytes in pieces, counting those the response stream took. */
        Handler handler() {
            return (request, response) -> {
                byte[] piece = new byte[PIECE];
                java.util.Arrays.fill(piece, (byte) 'x');
                response.contentLength(TOTAL);
                try {
                    OutputStream body = response.body();
                    started.countDown();
                    for (long sent = 0; sent < TOTAL; sent += PIECE) {
                        body.write(piece);
                        bytesOut.addAndGet(PIECE);
                    }
                } catch (Throwable t) {
                    failure.set(t);
                    throw t;
                } finally {
                    ended.countDown();
                }
            };
        }
    }

    @TransportTest
    void clientThatStopsReadingIsCutAfterTheWriteTimeoutAndOthersAreServed(Transport kind) throws Exception {
        Stream stream = new Stream();
        Handler app = Router.builder()
                .get("/", (req, res) -> res.send("HelloWorld"))
                .get("/big", stream.handler())
                .build();
        var config = TestServers.config().writeTimeout(Duration.ofSeconds(1)).build();
        try (Server server = TestServers.start(kind, config, app);
             RawClient slow = RawClient.connect(server, CLIENT_RECEIVE_BUFFER)) {
            slow.send(Requests.get("/big")); // and never reads

            assertThat(stream.started.await(5, TimeUnit.SECONDS)).as("the handler started").isTrue();
            // while the handler is stuck on the slow client, another is served
            try (RawClient other = RawClient.connect(server)) {
                RawResponse response = other.send(Requests.get("/")).read();
                assertThat(response.status()).isEqualTo(200);
                assertThat(response.text()).isEqualTo("HelloWorld");
            }

            assertThat(stream.ended.await(10, TimeUnit.SECONDS)).as("the handler's write failed or finished").isTrue();
            assertThat(stream.failure.get()).as("the write to a client that takes no bytes fails")
                    .isInstanceOf(IOException.class);
            assertThat(stream.bytesOut.get()).as("bytes that left the handler, held back by the socket buffers")
                    .isLessThan(BOUND);

            TestServers.awaitLiveConnections(server, 0);
            // the client, reading at last, finds what the buffers held, then the end of the connection
            long received = slow.discardUntilClosed();
            assertThat(received).isLessThan(BOUND);

            try (RawClient after = RawClient.connect(server)) {
                assertThat(after.send(Requests.get("/")).read().status()).isEqualTo(200);
            }
        }
    }
}
