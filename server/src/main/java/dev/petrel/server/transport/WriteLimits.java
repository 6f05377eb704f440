package dev.petrel.server.transport;

import dev.petrel.server.config.DataRate;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * How long a response write may keep its connection, the same on every transport. A write is
 * taken in slices of {@link #SLICE_BYTES}; each slice must be taken by the client within
 * {@code max(grace, (sendBuffer + slice) / minRate)} of its start (the minimum response rate,
 * counted per slice as Kestrel counts it per write), and no write may wait longer than the write
 * timeout without the client taking a byte. A client that reads one byte a second is cut either
 * way, and its connection freed.
 *
 * <p>The socket's send buffer counts because the kernel shows progress only in steps of it: once
 * the buffer is full, a writer is woken only when a good part of it has drained (on Linux, when a
 * third is free). Over loopback, a blocking write of 16 KiB to a client reading 3 MiB/s was seen
 * waiting 0.53 s behind a 2 MiB buffer; a rate counted over the slice alone would have cut it.
 *
 * <p>Slices exist for the thread-per-connection transports, where a blocking socket write shows no
 * progress until it returns: the slice bounds what one wait can cover, so a large write to a
 * client that keeps up is never cut for its size.
 */
final class WriteLimits {
    /** The bytes one blocking write covers, and the unit the minimum rate is counted in. */
    static final int SLICE_BYTES = 16 * 1024;

    private final long timeoutNanos;
    private final DataRate minRate;

    WriteLimits(Duration timeout, DataRate minRate) {
        this.timeoutNanos = timeout.toNanos();
        this.minRate = minRate;
    }

    /**
     * The next slice of a write with {@code remaining} bytes left: {@link #SLICE_BYTES}, or all
     * that is left when that is at most a quarter more, so that a full response buffer with its
     * head (16 KiB and a few hundred bytes) leaves in one write, not a slice and a small tail.
     */
    static int slice(int remaining) {
        return remaining <= SLICE_BYTES + SLICE_BYTES / 4 ? remaining : SLICE_BYTES;
    }

    /**
     * The {@link System#nanoTime()} by which a slice of {@code sliceBytes} begun at
     * {@code sliceStart} must have been taken, the client having last taken bytes at
     * {@code lastProgress}, over a socket whose send buffer holds {@code sendBuffer} bytes.
     */
    long deadline(long sliceStart, int sliceBytes, long lastProgress, long sendBuffer) {
        long byRate = minRate.allowedWaitNanos(sendBuffer + sliceBytes);
        long deadline = lastProgress + timeoutNanos;
        return byRate == Long.MAX_VALUE ? deadline : Math.min(deadline, sliceStart + byRate);
    }

    /** How often a watchdog must look to cut a write no later than a quarter of its allowed time late. */
    long checkPeriodMillis() {
        long shortest = Math.min(timeoutNanos, minRate.enabled() ? minRate.allowedWaitNanos(0) : timeoutNanos);
        return Math.clamp(TimeUnit.NANOSECONDS.toMillis(shortest) / 4, 10, 1000);
    }

    /** The exception for a write cut at its deadline. */
    SocketTimeoutException timedOut() {
        return new SocketTimeoutException("write timed out: the client took no bytes for "
                + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms"
                + (minRate.enabled() ? ", or fewer than the minimum of " + minRate.bytesPerSecond() + " bytes/s" : ""));
    }
}
