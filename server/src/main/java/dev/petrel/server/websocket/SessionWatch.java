package dev.petrel.server.websocket;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One daemon thread that looks at the {@link SessionClock} of every WebSocket session in the
 * JVM {@link #PERIOD_MILLIS four times a second}: it cuts sends past their timeout and has quiet
 * clients pinged.
 *
 * <p>One thread for all, because sessions number in the tens of thousands: a timer scheduled per
 * send would cost on every message, and a thread per session a stack per session, while a sweep
 * costs a few volatile reads per session and look (10,000 sessions: well under a millisecond).
 * The price is precision: a send is cut up to one period past its timeout, a ping sent up to one
 * period late, which is nothing next to timeouts of seconds. The thread never blocks on a session
 * (a ping, which may wait for the socket like any send, goes out on a virtual thread of its own),
 * and runs only while there are sessions to watch.
 */
final class SessionWatch {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.websocket");
    static final long PERIOD_MILLIS = 250;
    /** The one watch of the JVM's sessions, whatever server they belong to. */
    static final SessionWatch SHARED = new SessionWatch();

    private final Set<SessionClock> watched = ConcurrentHashMap.newKeySet();
    private Thread thread; // guarded by this; null while nothing is watched

    private SessionWatch() {}

    void watch(SessionClock clock) {
        watched.add(clock);
        synchronized (this) {
            if (thread == null) thread = Thread.ofPlatform().name("petrel-websocket-watch").daemon(true).start(this::run);
        }
    }

    void forget(SessionClock clock) {
        watched.remove(clock);
    }

    private void run() {
        while (true) {
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                // no one interrupts this thread; look again as if the period had passed
            }
            long now = System.nanoTime();
            for (SessionClock clock : watched) {
                try {
                    clock.look(now);
                } catch (RuntimeException e) { // one session's trouble must not leave the others unwatched
                    LOG.log(System.Logger.Level.WARNING, "watching a WebSocket session failed", e);
                }
            }
            synchronized (this) {
                // the emptiness check and watch()'s start under one lock: a session added now finds no thread and starts one
                if (watched.isEmpty()) {
                    thread = null;
                    return;
                }
            }
        }
    }
}
