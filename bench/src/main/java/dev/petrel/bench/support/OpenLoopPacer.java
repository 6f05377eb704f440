package dev.petrel.bench.support;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;

/**
 * The pacing of an open-loop load: the {@code n}-th request is due {@code n / rate} seconds after
 * the start, whatever the answers to the earlier ones take, as real users do not wait for each
 * other. Used by the failover scenario's load and the soak's traffic, each sending on threads of
 * its own.
 */
public final class OpenLoopPacer {
    private OpenLoopPacer() {}

    /**
     * Calls {@code send} with 0, 1, 2, ... each at its time, on the calling thread (so {@code send}
     * must hand the request on and return), until {@code duration} has passed, {@code running}
     * says no or the thread is interrupted.
     */
    public static void pace(int rate, Duration duration, BooleanSupplier running, LongConsumer send) {
        long period = TimeUnit.SECONDS.toNanos(1) / rate;
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        for (long i = 0; running.getAsBoolean(); i++) {
            long due = start + i * period;
            if (due > end) return;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(wait);
                } catch (InterruptedException e) {
                    return;
                }
            }
            send.accept(i);
        }
    }
}
