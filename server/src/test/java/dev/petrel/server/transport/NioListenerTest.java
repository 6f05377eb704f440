package dev.petrel.server.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.config.DataRate;
import dev.petrel.server.config.TransportKind;
import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.connection.Protocol;
import dev.petrel.server.engine.connection.ProtocolConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The {@code nio} listener's server channel lives on an event loop, which outlives the listener. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class NioListenerTest {
    private static final ListenerSettings SETTINGS = new ListenerSettings(10, 50, Duration.ofSeconds(1),
            Duration.ofSeconds(5), DataRate.OFF, Duration.ofSeconds(1), 1);

    /** No connection is accepted in this test: the protocol is never asked for one. */
    private static final Protocol NO_CONNECTIONS = new Protocol() {
        @Override
        public ProtocolConnection open(Endpoint endpoint) {
            throw new UnsupportedOperationException("no connection expected");
        }

        @Override
        public byte[] overloadAnswer() {
            return new byte[0];
        }
    };

    /**
     * A registered channel's socket closes only when its selector lets it go, at the loop's next
     * select: stopping one listener while the server's loops keep serving the others (here: busy
     * for 100 ms) must still leave its port free.
     */
    @Test
    void portIsFreeWhenTheListenerHasStoppedWhileItsLoopRunsOn() throws Exception {
        try (TransportGroup group = TransportGroup.open(TransportKind.NIO, SETTINGS, LoopThreads.VIRTUAL)) {
            for (int round = 0; round < 3; round++) {
                Listener<?> listener = Listener.open(group, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                        SETTINGS, new ConnectionLimit(10), NO_CONNECTIONS, null);
                int port = listener.address().getPort();
                CountDownLatch busy = new CountDownLatch(1);
                group.nextLoop().execute(() -> { // the group's one loop
                    busy.countDown();
                    Listener.sleepQuietly(100);
                });
                assertThat(busy.await(5, TimeUnit.SECONDS)).isTrue();
                listener.stop(Duration.ZERO);
                try (ServerSocket rebound = new ServerSocket()) {
                    rebound.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                    assertThat(rebound.getLocalPort()).isEqualTo(port);
                }
            }
        }
    }
}
