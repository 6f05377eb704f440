package dev.petrel.server.transport;

/**
 * The kind of thread the {@code nio} transport's event loops run on.
 *
 * <p>When handlers may block, each request leaves the loop for a virtual thread and comes back
 * when its response has left. With the loop on a platform thread, each hand-over is a wake-up of
 * another kernel thread: on a server pinned to one CPU, at 100 keep-alive connections, that cost
 * context switches on most requests, and the default {@code nio} fell well short of the rate the
 * same handlers reach inline on the loop; on virtual loops it measured no context switches, and
 * the rate of inline. With the loop on a virtual thread, the loop and the requests' threads share
 * the carriers, and a hand-over is a switch between continuations on one carrier
 * ({@code scripts/thread-cost.sh}; the figures: {@code bench/RESULTS.md}, "Speed 3").
 *
 * <p>A virtual loop costs one thing a platform loop does not: when it waits for readiness, the
 * JDK parks it and watches the selector on its own poller thread, so an idle loop is woken by two
 * threads instead of one. Handlers that never block gain nothing from a virtual loop and keep the
 * platform one.
 */
public enum LoopThreads {
    /** A platform thread per loop: the loop runs handlers that never block itself. */
    PLATFORM,
    /** A virtual thread per loop, sharing the carriers with the requests it hands over. */
    VIRTUAL;

    /** The loops' threads for a server whose handler may block ({@code Handler.mayBlock()}), or never does. */
    public static LoopThreads forHandlers(boolean mayBlock) {
        return mayBlock ? VIRTUAL : PLATFORM;
    }
}
