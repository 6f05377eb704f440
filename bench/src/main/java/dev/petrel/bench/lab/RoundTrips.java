package dev.petrel.bench.lab;

import java.io.IOException;
import java.net.ProtocolException;
import java.util.random.RandomGenerator;

/**
 * The {@code round-trip} step of {@link WebSocketLoad}: one connection, one message in flight, the
 * next sent only when the last is back, as {@code ab -k -c1} does for HTTP. The warm-up's round
 * trips are not counted; of the timed ones, the mean is the step's time over their number (as
 * ab's), and their times go into a {@link LatencyHistogram} for p50, p99 and the maximum. Each echo
 * is checked for its opcode and length; its bytes were checked once by {@link EchoCheck}.
 */
final class RoundTrips {
    /** Frames with keys of their own, sent in turn. */
    static final int FRAMES = 16;

    private final WebSocketLoad.Config config;
    private final WebSocketLoad.RoundTrip step;
    private final RandomGenerator random;

    RoundTrips(WebSocketLoad.Config config, WebSocketLoad.RoundTrip step, RandomGenerator random) {
        this.config = config;
        this.step = step;
        this.random = random;
    }

    /** Runs the warm-up and the timed round trips; the result line's pairs. */
    String run(long deadlineNanos) throws IOException {
        byte[] payload = step.kind().payload(step.size(), random);
        byte[][] frames = new byte[FRAMES][];
        for (int i = 0; i < FRAMES; i++) frames[i] = ClientFrame.masked(step.kind().opcode(), payload, random);
        LatencyHistogram times = new LatencyHistogram();
        try (EchoConnection connection = EchoConnection.open(config.server(), config.path(), step.size(), false,
                WebSocketLoad.TIMEOUT, random)) {
            for (int i = 0; i < step.warmup(); i++) once(connection, frames[i % FRAMES], deadlineNanos);
            long start = System.nanoTime();
            for (int i = 0; i < step.count(); i++) {
                long sent = System.nanoTime();
                once(connection, frames[i % FRAMES], deadlineNanos);
                times.record(System.nanoTime() - sent);
            }
            long took = System.nanoTime() - start;
            return WebSocketLoad.pairs("count", step.count(), "seconds", took / 1e9,
                    "mean_us", took / 1e3 / step.count(), "p50_us", times.percentileMicros(50),
                    "p99_us", times.percentileMicros(99), "max_us", times.maxMicros());
        }
    }

    /** One message there and back, within the run's deadline and the per-echo timeout. */
    private void once(EchoConnection connection, byte[] frame, long deadlineNanos) throws IOException {
        long deadline = Math.min(deadlineNanos, System.nanoTime() + WebSocketLoad.TIMEOUT.toNanos());
        if (!EchoCheck.sendWhole(connection, frame, deadline)) connection.awaitMessage(deadline);
        ServerFrameDecoder echo = connection.decoder();
        if (echo.opcode() != step.kind().opcode() || echo.length() != step.size()) {
            throw new ProtocolException("an echo of opcode " + echo.opcode() + " and " + echo.length()
                    + " bytes, for opcode " + step.kind().opcode() + " and " + step.size());
        }
    }
}
