package dev.petrel.bench.support;

import java.util.concurrent.TimeUnit;

/** Ends a child process the lab started, by its pid. */
public final class ChildProcesses {
    private ChildProcesses() {}

    /**
     * SIGTERM ({@code kill} false: an operator's stop) or SIGKILL (a crash), then waits for the
     * process to be gone; one that ignores SIGTERM for 30 s gets SIGKILL. Interrupted, it kills.
     */
    public static void end(Process process, boolean kill) {
        if (process == null) return;
        try {
            if (kill) process.destroyForcibly();
            else process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
