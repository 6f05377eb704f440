package dev.petrel.bench.soak;

/**
 * What happened to one request (or one WebSocket session) of the soak's own clients.
 *
 * @param route     the route it took
 * @param operation {@code ping}, {@code download}, {@code upload}, {@code range}, {@code gzip},
 *                  {@code websocket} or {@code h2load}
 * @param start     when it was sent, on {@link System#nanoTime()}
 * @param end       when it ended, the same clock
 * @param requests  how many requests it stands for (an h2load burst is many)
 * @param failed    how many of those failed visibly to the client: an error status, a reset, a timeout
 * @param lost      how many of those were answered as a success with the wrong bytes: never allowed
 * @param failure   what went wrong, or null
 */
record SoakOutcome(SoakRoute route, String operation, long start, long end, long requests, long failed, long lost, String failure) {
    static SoakOutcome ok(SoakRoute route, String operation, long start) {
        return new SoakOutcome(route, operation, start, System.nanoTime(), 1, 0, 0, null);
    }

    static SoakOutcome failed(SoakRoute route, String operation, long start, String failure) {
        return new SoakOutcome(route, operation, start, System.nanoTime(), 1, 1, 0, failure);
    }

    static SoakOutcome lost(SoakRoute route, String operation, long start, String failure) {
        return new SoakOutcome(route, operation, start, System.nanoTime(), 1, 0, 1, failure);
    }

    /** A success when {@code body}, answered with {@code status}, is {@code expected}; lost otherwise. */
    static SoakOutcome compared(SoakRoute route, String operation, long start, int status, byte[] body, byte[] expected) {
        if (java.util.Arrays.equals(body, expected)) return ok(route, operation, start);
        return lost(route, operation, start, "status " + status + " with " + body.length + " bytes that are not the " + expected.length + " expected");
    }

    long latencyNanos() {
        return end - start;
    }
}
