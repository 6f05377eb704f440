package dev.petrel.bench.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a command to completion, bounded in time, optionally pinned to one CPU with
 * {@code taskset}, keeping its output in a file of the results folder (the raw tool output the
 * report points to). Every process it starts is registered with {@link ProcessRegistry} so that
 * Ctrl-C stops it.
 */
final class Commands {
    private Commands() {}

    /** The command prefixed with {@code taskset -c cpu} (taskset execs it, so the PID is the command's). */
    static List<String> pinned(int cpu, List<String> command) {
        List<String> full = new ArrayList<>(List.of("taskset", "-c", Integer.toString(cpu)));
        full.addAll(command);
        return full;
    }

    /** Told what a running command has written so far, and how long it has run. */
    @FunctionalInterface
    interface Watcher {
        /** What the command has written so far, {@code elapsedNanos} after it started. */
        void seen(String output, long elapsedNanos);

        /** The command has ended, or was stopped; {@link #seen} is not called again. */
        default void ended() {}
    }

    /** How often a {@link Watcher} is told: often enough for a live line, rarely enough to cost nothing. */
    static final Duration WATCH_INTERVAL = Duration.ofMillis(250);

    /** Runs {@code command}, waiting at most {@code limit}; the output goes to {@code outputFile} and into the result. */
    static CommandResult run(List<String> command, Duration limit, Path outputFile) throws IOException, InterruptedException {
        return run(command, limit, outputFile, null);
    }

    /**
     * {@link #run(List, Duration, Path)}, telling {@code watcher} (when not {@code null}) every
     * {@link #WATCH_INTERVAL} what the command has written to {@code outputFile} so far.
     */
    static CommandResult run(List<String> command, Duration limit, Path outputFile, Watcher watcher)
            throws IOException, InterruptedException {
        return run(command, null, limit, outputFile, watcher);
    }

    /**
     * {@link #run(List, Duration, Path)} with the contents of {@code inputFile} as the command's
     * standard input (openssl s_client sends what it reads there).
     */
    static CommandResult runWithInput(List<String> command, Path inputFile, Duration limit, Path outputFile)
            throws IOException, InterruptedException {
        return run(command, inputFile, limit, outputFile, null);
    }

    private static CommandResult run(List<String> command, Path inputFile, Duration limit, Path outputFile, Watcher watcher)
            throws IOException, InterruptedException {
        Files.createDirectories(outputFile.getParent());
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(outputFile.toFile());
        if (inputFile != null) builder.redirectInput(inputFile.toFile());
        Process process = builder.start();
        ProcessRegistry.add(process);
        try {
            boolean finished = watcher == null ? process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)
                    : watch(process, limit, outputFile, watcher);
            if (!finished) {
                ProcessRegistry.stop(process, Duration.ofSeconds(5));
            }
            String output = Files.readString(outputFile, StandardCharsets.ISO_8859_1);
            return new CommandResult(finished ? process.exitValue() : -1, output, !finished);
        } finally {
            ProcessRegistry.remove(process);
            if (watcher != null) watcher.ended();
        }
    }

    /** Waits for {@code process} as {@code run} does, telling {@code watcher} between waits; whether it finished. */
    private static boolean watch(Process process, Duration limit, Path outputFile, Watcher watcher)
            throws IOException, InterruptedException {
        long started = System.nanoTime();
        long deadline = started + limit.toNanos();
        long size = -1;
        String output = "";
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) return false;
            if (process.waitFor(Math.min(left, WATCH_INTERVAL.toNanos()), TimeUnit.NANOSECONDS)) return true;
            // the tools write a few lines a second at most: read again only when the file grew
            long now = Files.size(outputFile);
            if (now != size) {
                size = now;
                output = Files.readString(outputFile, StandardCharsets.ISO_8859_1);
            }
            watcher.seen(output, System.nanoTime() - started);
        }
    }

    /** Runs a short command and returns its first output line, or {@code "unavailable"}. */
    static String firstLine(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly();
            return output.lines().map(String::strip).filter(line -> !line.isEmpty()).findFirst().orElse("unavailable");
        } catch (IOException e) {
            return "unavailable";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unavailable";
        }
    }
}
