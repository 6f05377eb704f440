package dev.petrel.server.config;

import java.time.Duration;
import java.util.Objects;

/**
 * A minimum data rate for one direction of a transfer, as Kestrel's {@code MinDataRate}: once a
 * transfer has kept the server waiting for {@code grace}, the bytes it moved must keep up with
 * {@code bytesPerSecond} over the time the server spent waiting for it; a transfer that falls
 * behind is cut. Only waiting counts: time the application spends between reads or writes is its
 * own, not the client's.
 *
 * <p>A client that sends or reads one byte a second is cut a little after {@code grace}; one that
 * keeps up, however large its transfer, never is.
 *
 * @param bytesPerSecond the least average rate allowed; 0 turns the check off
 * @param grace the waiting time allowed before the rate is checked, e.g. for a slow start
 */
public record DataRate(long bytesPerSecond, Duration grace) {
    /** No minimum. */
    public static final DataRate OFF = new DataRate(0, Duration.ZERO);

    /** Checks the values. */
    public DataRate {
        if (bytesPerSecond < 0) throw new IllegalArgumentException("bytesPerSecond must not be negative");
        Objects.requireNonNull(grace, "grace");
        if (grace.isNegative()) throw new IllegalArgumentException("grace must not be negative");
    }

    /** Whether a minimum is set. */
    public boolean enabled() {
        return bytesPerSecond > 0;
    }

    /**
     * How long, in nanoseconds, a transfer that has moved {@code bytes} may have kept the server
     * waiting in all: the grace period, or the time those bytes earn at the minimum rate if longer.
     * {@link Long#MAX_VALUE} when the check is off.
     */
    public long allowedWaitNanos(long bytes) {
        if (!enabled()) return Long.MAX_VALUE;
        long earned = bytes >= Long.MAX_VALUE / 1_000_000_000L ? Long.MAX_VALUE : bytes * 1_000_000_000L / bytesPerSecond;
        return Math.max(grace.toNanos(), earned);
    }

    @Override
    public String toString() {
        return enabled() ? bytesPerSecond + " B/s after " + grace.toMillis() + " ms" : "off";
    }
}
