package dev.petrel.server.http2;

import dev.petrel.server.config.Http2Config;

/**
 * Counts what a client makes the server do for nothing, per second, on one connection: streams
 * reset (by the client, rapid reset; or provoked from the server, MadeYouReset), control frames
 * ({@code SETTINGS}, {@code PING}, {@code PRIORITY}, unknown types) and frames that carry nothing.
 * A client past a limit is ending the connection with {@code ENHANCE_YOUR_CALM}; real clients stay
 * far below them. Used by the connection's reader only.
 */
final class FloodGuard {
    private static final long SECOND = 1_000_000_000L;

    private final Counter resets;
    private final Counter control;
    private final Counter empty;

    FloodGuard(Http2Config config) {
        this.resets = new Counter(config.maxResetsPerSecond());
        this.control = new Counter(config.maxControlFramesPerSecond());
        this.empty = new Counter(config.maxEmptyFramesPerSecond());
    }

    /** A stream reset by either side; the reason to end the connection, or null. */
    String reset() {
        return resets.hit() ? "too many streams reset" : null;
    }

    /** A control frame; the reason to end the connection, or null. */
    String control() {
        return control.hit() ? "too many control frames" : null;
    }

    /** A frame that carries nothing; the reason to end the connection, or null. */
    String empty() {
        return empty.hit() ? "too many empty frames" : null;
    }

    /** Events in the current one-second window. */
    private static final class Counter {
        private final int limit;
        private long windowStart = System.nanoTime();
        private int count;

        Counter(int limit) {
            this.limit = limit;
        }

        boolean hit() {
            long now = System.nanoTime();
            if (now - windowStart >= SECOND) {
                windowStart = now;
                count = 0;
            }
            return ++count > limit;
        }
    }
}
