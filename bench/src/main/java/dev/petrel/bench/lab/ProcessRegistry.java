package dev.petrel.bench.lab;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Every process the lab started and has not yet seen end. A shutdown hook stops them all, by PID,
 * when the lab is interrupted (Ctrl-C, SIGTERM), so that no server or load tool outlives it.
 */
final class ProcessRegistry {
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ProcessRegistry::stopAll, "petrel-bench-cleanup"));
    }

    private ProcessRegistry() {}

    static void add(Process process) {
        LIVE.add(process);
    }

    static void remove(Process process) {
        LIVE.remove(process);
    }

    /** SIGTERM to the process (its PID only), then SIGKILL if it has not ended within {@code grace}. */
    static void stop(Process process, Duration grace) {
        process.destroy();
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        LIVE.remove(process);
    }

    static void stopAll() {
        for (Process process : LIVE) stop(process, Duration.ofSeconds(3));
    }
}
