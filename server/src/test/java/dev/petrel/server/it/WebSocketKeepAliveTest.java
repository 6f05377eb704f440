package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.server.WebSocketMessage;
import dev.petrel.server.config.WebSocketConfig;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Keep-alive pings ({@link WebSocketConfig#pingInterval()}): a quiet client is pinged, its pongs
 * keep it past the idle timeout, and one that stops answering is closed with 1001 at the idle
 * timeout. The watch that sends them is the same on every transport: a blocking one, the event
 * loop's, and TLS.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WebSocketKeepAliveTest {
    private static final Duration PING_INTERVAL = Duration.ofMillis(300);
    private static final Duration IDLE_TIMEOUT = Duration.ofMillis(1_500);

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Transport.class, names = {"BLOCKING", "NIO", "NIO_TLS"})
    void aQuietClientIsPingedKeptWhileItAnswersAndClosedWith1001OnceItStops(Transport kind) throws Exception {
        BlockingQueue<Integer> closeCodes = new LinkedBlockingQueue<>();
        WebSocketConfig config = WebSocketConfig.DEFAULT.withPingInterval(PING_INTERVAL).withIdleTimeout(IDLE_TIMEOUT);
        Router router = Router.builder()
                .websocket("/ws", config, socket -> {
                    try {
                        for (WebSocketMessage message; (message = socket.receive()) != null; ) {
                            if (message instanceof WebSocketMessage.Text text) socket.sendText(text.text());
                        }
                    } finally {
                        closeCodes.add(socket.closeCode());
                    }
                })
                .build();
        try (Server server = TestServers.start(kind, router);
             RawClient client = RawClient.connect(server)) {
            assertThat(client.send(ClientFrames.handshake("")).readHead().status()).isEqualTo(101);
            // answer every ping for twice the idle timeout: the session stays
            long start = System.nanoTime();
            int pings = 0;
            while (System.nanoTime() - start < IDLE_TIMEOUT.multipliedBy(2).toNanos()) {
                ClientFrames.ServerFrame frame = ClientFrames.read(client.input());
                assertThat(frame.first()).as("a final ping").isEqualTo(ClientFrames.FIN | ClientFrames.PING);
                client.send(ClientFrames.frame(ClientFrames.FIN | ClientFrames.PONG, frame.payload()));
                pings++;
            }
            assertThat(pings).as("pings in %d ms at one per %d ms of quiet", IDLE_TIMEOUT.multipliedBy(2).toMillis(),
                    PING_INTERVAL.toMillis()).isBetween(3, 15);
            client.send(ClientFrames.text("still here"));
            assertThat(nextData(client).text()).isEqualTo("still here");
            // now answer nothing: pinged still, then closed at the idle timeout
            long quietSince = System.nanoTime();
            assertThat(readCloseCountingPings(client)).as("pings before the close").isGreaterThanOrEqualTo(2);
            assertThat(Duration.ofNanos(System.nanoTime() - quietSince))
                    .isBetween(IDLE_TIMEOUT.minusMillis(100), IDLE_TIMEOUT.plusMillis(1_500));
            assertThat(closeCodes.poll(5, TimeUnit.SECONDS)).isEqualTo(1001);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Transport.class, names = {"NIO"})
    void withoutAPingIntervalNoPingIsSent(Transport kind) throws Exception {
        Router router = Router.builder()
                .websocket("/ws", WebSocketConfig.DEFAULT.withIdleTimeout(Duration.ofSeconds(1)), socket -> {
                    while (socket.receive() != null) {
                        // nothing to answer
                    }
                })
                .build();
        try (Server server = TestServers.start(kind, router);
             RawClient client = RawClient.connect(server)) {
            assertThat(client.send(ClientFrames.handshake("")).readHead().status()).isEqualTo(101);
            assertThat(ClientFrames.readCloseCode(client.input())).as("the first frame: the idle close, no ping before it")
                    .isEqualTo(1001);
        }
    }

    /** The next data frame, answering the pings met before it. */
    private static ClientFrames.ServerFrame nextData(RawClient client) throws IOException {
        for (int i = 0; i < 100; i++) {
            ClientFrames.ServerFrame frame = ClientFrames.read(client.input());
            if (frame.opcode() != ClientFrames.PING) return frame;
            client.send(ClientFrames.frame(ClientFrames.FIN | ClientFrames.PONG, frame.payload()));
        }
        throw new AssertionError("only pings");
    }

    /** Reads up to the server's close, answering nothing; the pings met, the close's code being 1001. */
    private static int readCloseCountingPings(RawClient client) throws IOException {
        for (int pings = 0; pings < 100; pings++) {
            ClientFrames.ServerFrame frame = ClientFrames.read(client.input());
            if (frame.opcode() == ClientFrames.CLOSE) {
                assertThat(frame.closeCode()).isEqualTo(1001);
                return pings;
            }
            assertThat(frame.opcode()).isEqualTo(ClientFrames.PING);
        }
        throw new AssertionError("no close after 100 pings");
    }
}
