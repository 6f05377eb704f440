package dev.petrel.server.engine.exchange;

import dev.petrel.server.IncompleteBodyException;
import dev.petrel.server.config.DataRate;
import dev.petrel.server.config.ServerConfig;
import dev.petrel.server.engine.connection.Timeouts;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;

/**
 * How long one request body may keep the server waiting, the same for every protocol: each wait
 * for more bytes at most {@code bodyReadTimeout}, every wait of the body together at most
 * {@code requestBodyTimeout}, and the bytes received must keep up with {@code minRequestBodyRate}
 * over the time waited (see {@link DataRate}). Only the time spent waiting for the client counts:
 * a handler that reads slowly never makes its client look slow. A body that breaks a limit fails
 * with {@code 408}. One per connection, {@linkplain #reset() reset} for each body.
 */
public final class BodyWaitLimits {
    private enum Limit { READ, TOTAL, RATE }

    private final long readTimeoutNanos;
    private final long totalNanos; // 0: no total limit
    private final DataRate minRate;
    private long waitedNanos;
    private long received;
    private Limit limiting = Limit.READ; // the limit that sets the length of the current wait

    public BodyWaitLimits(ServerConfig config) {
        this.readTimeoutNanos = config.bodyReadTimeout().toNanos();
        this.totalNanos = config.requestBodyTimeout().toNanos();
        this.minRate = config.minRequestBodyRate();
    }

    /** Starts counting for the next body. */
    public void reset() {
        waitedNanos = 0;
        received = 0;
    }

    /**
     * Waits for more body bytes through {@code fill}, for as long as the limits allow.
     *
     * @return what {@code fill} returned: bytes read, or -1 at end of stream
     * @throws IncompleteBodyException with 408 when a limit ran out before bytes came
     */
    public int fill(Fill fill) throws IOException {
        long allowed = allowedWaitNanos();
        if (allowed <= 0) throw failure();
        long start = System.nanoTime();
        int n;
        try {
            n = fill.fill(Timeouts.millis(allowed));
        } catch (SocketTimeoutException e) {
            waitedNanos += System.nanoTime() - start;
            throw failure();
        }
        waitedNanos += System.nanoTime() - start;
        if (n > 0) received += n;
        return n;
    }

    /** A read of the body's bytes that waits up to a timeout: the connection's fill. */
    @FunctionalInterface
    public interface Fill {
        int fill(int timeoutMillis) throws IOException;
    }

    private long allowedWaitNanos() {
        long allowed = readTimeoutNanos;
        limiting = Limit.READ;
        if (totalNanos > 0 && totalNanos - waitedNanos < allowed) {
            allowed = totalNanos - waitedNanos;
            limiting = Limit.TOTAL;
        }
        long byRate = minRate.allowedWaitNanos(received);
        if (byRate != Long.MAX_VALUE && byRate - waitedNanos < allowed) {
            allowed = byRate - waitedNanos;
            limiting = Limit.RATE;
        }
        return allowed;
    }

    private IncompleteBodyException failure() {
        return IncompleteBodyException.tooSlow(switch (limiting) {
            case READ -> "no bytes for " + TimeUnit.NANOSECONDS.toMillis(readTimeoutNanos) + " ms";
            case TOTAL -> "not complete within " + TimeUnit.NANOSECONDS.toMillis(totalNanos) + " ms";
            case RATE -> "below the minimum of " + minRate.bytesPerSecond() + " bytes/s";
        });
    }
}
