package dev.petrel.server.it;

import static dev.petrel.server.it.ClientFrames.BINARY;
import static dev.petrel.server.it.ClientFrames.FIN;
import static dev.petrel.server.it.ClientFrames.TEXT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.server.WebSocket;
import dev.petrel.server.WebSocketListener;
import dev.petrel.server.WebSocketMessage;
import dev.petrel.server.config.WebSocketConfig;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A listener's sends on the {@code nio} event loop never wait for the client: what the socket does
 * not take is queued and sent when the client reads, the session reads nothing more meanwhile, and
 * the loop serves its other connections all the while. One loop, so that every session shares it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WebSocketListenerQueueTest {
    /** More than the socket's buffers on both sides hold, however the kernel sizes them (loopback's go up to 4 MiB). */
    private static final int BIG = 8 << 20;
    private static final int FLOOD_PART = 512 * 1024;

    /** "big" is answered by an 8 MiB binary message, "flood" by 16 of 512 KiB at once, anything else by its echo. */
    private static final class Sender implements WebSocketListener {
        final BlockingQueue<String> events = new LinkedBlockingQueue<>();

        @Override
        public void onMessage(WebSocket socket, WebSocketMessage message) throws IOException {
            if (!(message instanceof WebSocketMessage.Text text)) return;
            switch (text.text()) {
                case "big" -> socket.sendBinary(pattern(BIG));
                case "flood" -> {
                    try {
                        for (int i = 0; i < 16; i++) socket.sendBinary(pattern(FLOOD_PART));
                        events.add("all sent");
                    } catch (IOException e) {
                        events.add("send failed: " + e.getMessage());
                        throw e;
                    }
                }
                default -> socket.sendText(text.text());
            }
        }

        @Override
        public void onClose(WebSocket socket, int code) {
            events.add("closed:" + code);
        }

        String next() throws InterruptedException {
            String event = events.poll(15, TimeUnit.SECONDS);
            assertThat(event).as("a listener event within 15 s").isNotNull();
            return event;
        }
    }

    private static byte[] pattern(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) bytes[i] = (byte) (i * 31 + (i >>> 10));
        return bytes;
    }

    private static Server start(WebSocketConfig config, WebSocketListener listener) throws IOException {
        Router router = Router.builder().websocket("/ws", config, listener).build();
        return TestServers.builder(Transport.NIO, TestServers.config().build(), router).eventLoops(1).start();
    }

    private static RawClient open(Server server, int receiveBuffer) throws IOException {
        RawClient client = RawClient.connect(server, receiveBuffer);
        assertThat(client.send(ClientFrames.handshake("")).readHead().status()).isEqualTo(101);
        return client;
    }

    /** An echo round trip on a fresh session: how long it took. */
    private static Duration echoOnAnotherSession(Server server) throws IOException {
        long start = System.nanoTime();
        try (RawClient other = open(server, 0)) {
            other.send(ClientFrames.text("still there?"));
            ClientFrames.ServerFrame echo = ClientFrames.read(other.input());
            assertThat(echo.first()).isEqualTo(FIN | TEXT);
            assertThat(echo.text()).isEqualTo("still there?");
            other.send(ClientFrames.close(1000));
            assertThat(ClientFrames.readCloseCode(other.input())).isEqualTo(1000);
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    @Test
    void aClientThatDoesNotReadHoldsUpNoOtherSessionOnItsLoopAndIsCutAtTheSendTimeout() throws Exception {
        Sender sender = new Sender();
        try (Server server = start(WebSocketConfig.DEFAULT.withSendTimeout(Duration.ofSeconds(3)), sender);
             RawClient slow = open(server, 4096)) {
            slow.send(ClientFrames.text("big")); // 8 MiB that the sockets cannot hold: the rest is queued on the loop
            Thread.sleep(300);
            // the loop does not wait on the slow client: another session on it is served at once, not after the 3 s
            assertThat(echoOnAnotherSession(server)).isLessThan(Duration.ofMillis(1_500));
            assertThat(sender.next()).as("the other session's end").isEqualTo("closed:1000");
            // the slow one is cut at its send timeout, with 1008, and its connection is freed
            assertThat(sender.next()).isEqualTo("closed:1008");
            TestServers.awaitLiveConnections(server, 0);
            assertThat(echoOnAnotherSession(server)).isPositive();
        }
    }

    @Test
    void whatIsQueuedReachesALateReaderWholeAndInOrderAndTheSessionThenReadsOn() throws Exception {
        Sender sender = new Sender();
        try (Server server = start(WebSocketConfig.DEFAULT, sender);
             RawClient late = open(server, 4096)) {
            late.send(ClientFrames.text("big"));
            late.send(ClientFrames.text("big"));
            late.send(ClientFrames.text("after")); // read by the session only once the queue is out
            Thread.sleep(500);
            for (int i = 0; i < 2; i++) {
                ClientFrames.ServerFrame frame = ClientFrames.read(late.input());
                assertThat(frame.first()).isEqualTo(FIN | BINARY);
                assertThat(frame.payload()).as("message " + (i + 1) + ", whole").isEqualTo(pattern(BIG));
            }
            ClientFrames.ServerFrame after = ClientFrames.read(late.input());
            assertThat(after.text()).isEqualTo("after");
            late.send(ClientFrames.close(1000));
            assertThat(ClientFrames.readCloseCode(late.input())).isEqualTo(1000);
            assertThat(sender.next()).isEqualTo("closed:1000");
            TestServers.awaitLiveConnections(server, 0);
        }
    }

    /** A listener that keeps each session it opens, for a test's own thread to send on. */
    private static final class Keeper implements WebSocketListener {
        final BlockingQueue<WebSocket> opened = new LinkedBlockingQueue<>();
        final BlockingQueue<String> events = new LinkedBlockingQueue<>();

        @Override
        public void onOpen(WebSocket socket) {
            opened.add(socket);
        }

        @Override
        public void onMessage(WebSocket socket, WebSocketMessage message) {
            // the test's thread does the sending
        }

        @Override
        public void onClose(WebSocket socket, int code) {
            events.add("closed:" + code);
        }
    }

    /** Sends {@code count} messages of 512 KiB on a thread that may wait (not an event loop's); its outcome, and how long it took. */
    private static BlockingQueue<Object> sendOffTheLoop(WebSocket socket, int count) {
        BlockingQueue<Object> outcome = new LinkedBlockingQueue<>();
        Thread.ofPlatform().daemon(true).start(() -> {
            long start = System.nanoTime();
            try {
                for (int i = 0; i < count; i++) socket.sendBinary(pattern(FLOOD_PART));
                outcome.add("all sent");
            } catch (IOException e) {
                outcome.add(e);
            }
            outcome.add(Duration.ofNanos(System.nanoTime() - start));
        });
        return outcome;
    }

    @Test
    void aSenderOffTheLoopWaitsForRoomPastTheLimitAndTheClientGetsEverything() throws Exception {
        Keeper keeper = new Keeper();
        try (Server server = start(WebSocketConfig.DEFAULT.withSendTimeout(Duration.ofSeconds(20)), keeper);
             RawClient late = open(server, 4096)) {
            WebSocket socket = keeper.opened.poll(10, TimeUnit.SECONDS);
            assertThat(socket).isNotNull();
            BlockingQueue<Object> outcome = sendOffTheLoop(socket, 32); // 16 MiB: past the sockets' buffers and the 1 MiB queue
            assertThat(outcome.poll(1, TimeUnit.SECONDS)).as("the sender waits while the client reads nothing").isNull();
            for (int i = 0; i < 32; i++) {
                ClientFrames.ServerFrame frame = ClientFrames.read(late.input());
                assertThat(frame.first()).isEqualTo(FIN | BINARY);
                assertThat(frame.payload()).as("message " + (i + 1) + ", whole").isEqualTo(pattern(FLOOD_PART));
            }
            assertThat(outcome.poll(10, TimeUnit.SECONDS)).isEqualTo("all sent");
            assertThat((Duration) outcome.poll(1, TimeUnit.SECONDS)).as("how long the sender waited").isGreaterThan(Duration.ofMillis(900));
            late.send(ClientFrames.close(1000));
            assertThat(ClientFrames.readCloseCode(late.input())).isEqualTo(1000);
            assertThat(keeper.events.poll(10, TimeUnit.SECONDS)).isEqualTo("closed:1000");
        }
    }

    @Test
    void aSenderOffTheLoopWaitingOnAClientThatNeverReadsFailsAtTheSendTimeoutWith1008() throws Exception {
        Keeper keeper = new Keeper();
        try (Server server = start(WebSocketConfig.DEFAULT.withSendTimeout(Duration.ofSeconds(1)), keeper);
             RawClient slow = open(server, 4096)) {
            WebSocket socket = keeper.opened.poll(10, TimeUnit.SECONDS);
            assertThat(socket).isNotNull();
            BlockingQueue<Object> outcome = sendOffTheLoop(socket, 32);
            assertThat(outcome.poll(15, TimeUnit.SECONDS)).asInstanceOf(InstanceOfAssertFactories.THROWABLE)
                    .isInstanceOf(IOException.class).hasMessageContaining("(1008)");
            assertThat((Duration) outcome.poll(1, TimeUnit.SECONDS)).as("the failed send's wait").isBetween(Duration.ofMillis(900),
                    Duration.ofMillis(5_000));
            assertThat(keeper.events.poll(10, TimeUnit.SECONDS)).isEqualTo("closed:1008");
            TestServers.awaitLiveConnections(server, 0);
            try (RawClient other = open(server, 0)) {
                assertThat(keeper.opened.poll(10, TimeUnit.SECONDS)).as("another session opens").isNotNull();
            }
        }
    }

    @Test
    void aListenerThatQueuesPastTheLimitOnTheLoopHasItsSendFailAndTheSessionEndsWith1008() throws Exception {
        Sender sender = new Sender();
        try (Server server = start(WebSocketConfig.DEFAULT, sender);
             RawClient slow = open(server, 4096)) {
            slow.send(ClientFrames.text("flood")); // 8 MiB in one callback, to a client that reads nothing
            assertThat(sender.next()).startsWith("send failed: the WebSocket client does not read what is sent to it")
                    .contains("past the limit of 1048576");
            assertThat(sender.next()).isEqualTo("closed:1008");
            TestServers.awaitLiveConnections(server, 0);
            assertThat(echoOnAnotherSession(server)).isPositive();
        }
    }
}
