package dev.petrel.server.engine.connection;

import java.util.concurrent.TimeUnit;

/** Time arithmetic the engine shares, so that every wait rounds the same way. */
public final class Timeouts {
    private Timeouts() {}

    /**
     * A read timeout in milliseconds for a wait of {@code nanos}: at least 1 (a socket timeout of 0
     * means forever), at most {@link Integer#MAX_VALUE}.
     */
    public static int millis(long nanos) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(nanos)));
    }
}
