package dev.petrel.tomcat;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Servlet async timeouts, as Tomcat's protocols keep them: the exchanges waiting in async are
 * checked once a second on the utility executor, and each whose {@code AsyncContext} timeout has
 * passed gets Coyote's timeout event (the application's {@code onTimeout}, then an error answer).
 */
final class AsyncTimeouts {
    private final Set<PetrelProcessor> waiting = ConcurrentHashMap.newKeySet();
    private ScheduledFuture<?> check;

    void add(PetrelProcessor processor) {
        waiting.add(processor);
    }

    void remove(PetrelProcessor processor) {
        waiting.remove(processor);
    }

    /** Starts the once-a-second check. */
    synchronized void start(ScheduledExecutorService utility) {
        if (check == null) check = utility.scheduleWithFixedDelay(this::checkAll, 1, 1, TimeUnit.SECONDS);
    }

    /** Stops the check; exchanges still waiting are left to the server's stop. */
    synchronized void stop() {
        if (check != null) {
            check.cancel(false);
            check = null;
        }
    }

    private void checkAll() {
        long now = System.currentTimeMillis();
        for (PetrelProcessor processor : waiting) {
            processor.timeoutAsync(now);
        }
    }
}
