package dev.petrel.bench.lab;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Every process the lab started and has not yet seen end. A shutdown hook stops them all, by PID,
 * when the lab is interrupted (Ctrl-C, SIGTERM), so that no server or load tool outlives it. What
 * the lab starts through a library (the ajp scenario's Apache httpd) is registered as the
 * {@link AutoCloseable} that stops it, and closed by the same hook.
 */
final class ProcessRegistry {
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();
    private static final Set<AutoCloseable> CLOSEABLE = ConcurrentHashMap.newKeySet();

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

    /** Registers what stops processes the lab did not start itself (a library did). */
    static void addStopper(AutoCloseable stopper) {
        CLOSEABLE.add(stopper);
    }

    static void removeStopper(AutoCloseable stopper) {
        CLOSEABLE.remove(stopper);
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
        for (AutoCloseable stopper : CLOSEABLE) {
            try {
                stopper.close();
            } catch (Exception ignored) {
                // stopping the rest matters more
            }
            CLOSEABLE.remove(stopper);
        }
        for (Process process : LIVE) stop(process, Duration.ofSeconds(3));
    }
}
