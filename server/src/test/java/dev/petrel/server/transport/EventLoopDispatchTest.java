package dev.petrel.server.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.petrel.server.config.DataRate;
import dev.petrel.server.engine.connection.ProtocolConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A worker may close its connection while the loop is handing out that socket's readiness (CI saw
 * it once: a TLS client that left right after its handshake). The loop must take the cancelled key
 * as a connection gone, not fail with it.
 */
class EventLoopDispatchTest {
    /** A connection that is running on a worker, as every one is until it first waits on the loop. */
    private static final ProtocolConnection RUNNING_ON_A_WORKER = new ProtocolConnection() {
        @Override
        public boolean serve() {
            throw new AssertionError("not served in this test");
        }

        @Override
        public boolean poll() {
            throw new AssertionError("not polled in this test");
        }

        @Override
        public long wakeDeadline() {
            return Long.MAX_VALUE;
        }

        @Override
        public void drain() {}

        @Override
        public void abort() {}
    };

    private static final ConnectionExecutor NO_WORKERS = new ConnectionExecutor() {
        @Override
        public void execute(Runnable connection) {
            throw new AssertionError("nothing handed over in this test");
        }

        @Override
        public void close() {}
    };

    @Test
    void aKeyCancelledByAWorkerBetweenSelectAndDispatchIsAConnectionGone() throws Exception {
        try (EventLoop loop = new EventLoop("test-loop", LoopThreads.PLATFORM); // never started: the test is the loop
                ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                SocketChannel client = SocketChannel.open(server.getLocalAddress());
                SocketChannel accepted = server.accept()) {
            accepted.configureBlocking(false);
            NioEndpoint endpoint = new NioEndpoint(accepted, loop, new WriteLimits(Duration.ofSeconds(5), DataRate.OFF), null);
            NioConnection connection = new NioConnection(loop, endpoint, RUNNING_ON_A_WORKER, NO_WORKERS);
            SelectionKey key = accepted.register(loop.selector(), SelectionKey.OP_READ, connection);

            accepted.close(); // the worker closes; the loop has yet to hand out the key it selected
            assertThat(key.isValid()).isFalse();

            assertThatCode(() -> loop.dispatch(key)).doesNotThrowAnyException();
        }
    }
}
