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

    /** Runs {@code command}, waiting at most {@code limit}; the output goes to {@code outputFile} and into the result. */
    static CommandResult run(List<String> command, Duration limit, Path outputFile) throws IOException, InterruptedException {
        Files.createDirectories(outputFile.getParent());
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(outputFile.toFile())
                .start();
        ProcessRegistry.add(process);
        try {
            boolean finished = process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
            if (!finished) {
                ProcessRegistry.stop(process, Duration.ofSeconds(5));
            }
            String output = Files.readString(outputFile, StandardCharsets.ISO_8859_1);
            return new CommandResult(finished ? process.exitValue() : -1, output, !finished);
        } finally {
            ProcessRegistry.remove(process);
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
