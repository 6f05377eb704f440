package dev.petrel.bench.lab;

/**
 * What a finished command left: its exit code, its output, and whether the lab had to stop it.
 *
 * @param exitCode the exit code (-1 when it was stopped)
 * @param output standard output and error, interleaved
 * @param timedOut whether it ran past its time limit and was stopped
 */
record CommandResult(int exitCode, String output, boolean timedOut) {
    boolean ok() {
        return exitCode == 0 && !timedOut;
    }
}
