package dev.petrel.bench.lab;

import java.io.IOException;
import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The {@code check} step of {@link WebSocketLoad}: that a server's echo keeps the scenario's
 * contract (servers/LabWebSocket), so that its figures are of the same work as every other
 * server's. Over one connection, one message at a time: a short text, a text whose characters take
 * 2, 3 and 4 bytes in UTF-8, 64 KiB of binary, and 1 MiB (the limit) of binary and of text; each must
 * come back whole, with its own opcode and its exact bytes, however many frames the server used.
 */
final class EchoCheck {
    /** One message of the check. */
    record Probe(String name, int opcode, byte[] payload) {}

    private final WebSocketLoad.Config config;
    private final RandomGenerator random;

    EchoCheck(WebSocketLoad.Config config, RandomGenerator random) {
        this.config = config;
        this.random = random;
    }

    /** The messages, in the order sent. */
    List<Probe> probes() {
        byte[] largeText = WebSocketLoad.Kind.TEXT.payload(WebSocketLoad.MAX_MESSAGE_BYTES, random);
        return List.of(
                new Probe("text 'HelloWorld'", ClientFrame.TEXT, WebSocketLoad.TEXT.getBytes(StandardCharsets.US_ASCII)),
                new Probe("text in 2- to 4-byte UTF-8", ClientFrame.TEXT, "Grüße, ½ € ✓ 🐦".getBytes(StandardCharsets.UTF_8)),
                new Probe("binary 64 KiB", ClientFrame.BINARY, WebSocketLoad.Kind.BINARY.payload(64 * 1024, random)),
                new Probe("binary 1 MiB", ClientFrame.BINARY, WebSocketLoad.Kind.BINARY.payload(WebSocketLoad.MAX_MESSAGE_BYTES, random)),
                new Probe("text 1 MiB", ClientFrame.TEXT, largeText));
    }

    /** Sends every probe and checks its echo; the result line's pairs. */
    String run(long deadlineNanos) throws IOException {
        List<Probe> probes = probes();
        try (EchoConnection connection = EchoConnection.open(config.server(), config.path(), WebSocketLoad.MAX_MESSAGE_BYTES,
                true, WebSocketLoad.TIMEOUT, random)) {
            for (Probe probe : probes) {
                byte[] frame = ClientFrame.masked(probe.opcode(), probe.payload(), random);
                long deadline = Math.min(deadlineNanos, System.nanoTime() + WebSocketLoad.TIMEOUT.toNanos());
                if (!sendWhole(connection, frame, deadline)) connection.awaitMessage(deadline);
                ServerFrameDecoder echo = connection.decoder();
                if (echo.opcode() != probe.opcode()) {
                    throw new ProtocolException(probe.name() + " came back with opcode " + echo.opcode());
                }
                if (!Arrays.equals(connection.payload(), probe.payload())) {
                    throw new ProtocolException(probe.name() + " came back changed (" + echo.length() + " bytes)");
                }
            }
        }
        return WebSocketLoad.pairs("messages", probes.size());
    }

    /**
     * Writes a frame of up to 1 MiB from a non-blocking connection, waiting for room within the
     * deadline, and reading meanwhile: a server that echoes a frame while it still reads it (Jetty,
     * Helidon, the C floor) could otherwise fill both directions' buffers and wait on the client
     * forever. Whether the whole echo has come back already (then the decoder describes it).
     */
    static boolean sendWhole(EchoConnection connection, byte[] frame, long deadlineNanos) throws IOException {
        if (connection.send(frame)) return false;
        boolean back = false;
        while (!connection.writeRest()) {
            if (!back) back = connection.poll();
            if (System.nanoTime() > deadlineNanos) throw new java.net.SocketTimeoutException("the server stopped reading");
            Thread.onSpinWait();
            try {
                Thread.sleep(0, 100_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted");
            }
        }
        return back;
    }
}
