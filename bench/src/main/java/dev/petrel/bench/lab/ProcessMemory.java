package dev.petrel.bench.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a server process holds in memory: its resident set ({@code VmRSS} of
 * {@code /proc/PID/status}) and, for a JVM, the heap in use right after a full GC, as
 * {@code jcmd PID GC.run} then {@code GC.heap_info} report it. {@code jcmd} is the one of the JDK
 * the lab runs on, which is the JDK of every JVM server.
 *
 * <p>A server that runs processes of its own (nginx: a master and its worker, which holds the
 * connections) is the sum of their resident sets. Pages they share (the master's, inherited by the
 * worker) count once per process, so the sum is a little high, by the same amount before and with
 * the idle connections; what a connection costs is not.
 */
final class ProcessMemory {
    /** {@code used 9440K} on a heap or generation line; "0% used" on a space line does not match. */
    private static final Pattern USED = Pattern.compile("\\bused (\\d+)([KMG])\\b");
    private static final Pattern RSS = Pattern.compile("^VmRSS:\\s+(\\d+) kB\\s*$", Pattern.MULTILINE);

    /**
     * One reading.
     *
     * @param rssKib the resident set in KiB
     * @param heapUsedKib the heap in use after a full GC in KiB, NaN when not a JVM or not read
     */
    record Reading(double rssKib, double heapUsedKib) {}

    private ProcessMemory() {}

    /**
     * Reads the memory of the server of {@code run}: for a JVM first a full GC and the heap in use
     * (the jcmd output goes to the raw file {@code jcmd-<label>}), then the resident set, so that the
     * garbage of what came before is not counted where a GC can free it. A heap that cannot be read
     * is a problem of the pass and NaN; a resident set that cannot be read is an {@link IOException}.
     */
    static Reading read(Measurement run, String variant, String label) throws IOException, InterruptedException {
        double heap = Double.NaN;
        if (run.server().spec().jvm()) heap = heapAfterGc(run, variant, label);
        return new Reading(serverRssKib(run), heap);
    }

    /**
     * The resident set of the server of {@code run} alone, without a GC or a heap reading (its heap
     * is NaN): what a {@code --quick} run reads, where two {@code jcmd} starts per server would take
     * longer than the rest of its step.
     */
    static Reading readRss(Measurement run) throws IOException {
        return new Reading(serverRssKib(run), Double.NaN);
    }

    private static double serverRssKib(Measurement run) throws IOException {
        double rss = rssKib(status(run.server().pid()));
        for (long child : run.server().descendants()) {
            try {
                rss += rssKib(status(child));
            } catch (IOException gone) {
                // a process that ended since it was listed holds nothing
            }
        }
        return rss;
    }

    /** The text of {@code /proc/PID/status}. */
    private static String status(long pid) throws IOException {
        Path status = Path.of("/proc", Long.toString(pid), "status");
        try {
            return Files.readString(status, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new IOException("cannot read " + status + " (has the process exited?): " + e.getMessage(), e);
        }
    }

    private static double heapAfterGc(Measurement run, String variant, String label)
            throws IOException, InterruptedException {
        // one jcmd for both commands: each jcmd is a JVM start, and the quick run counts seconds
        Path commands = run.raw(variant, "jcmd-commands");
        Files.createDirectories(commands.getParent());
        Files.writeString(commands, "GC.run\nGC.heap_info\n", StandardCharsets.US_ASCII);
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        CommandResult result = Commands.run(Commands.pinned(run.clientCpu(), List.of(jcmd.toString(),
                Long.toString(run.server().pid()), "-f", commands.toString())), Duration.ofSeconds(30),
                run.raw(variant, "jcmd-" + label));
        if (!result.ok()) {
            run.problem(variant, "jcmd (" + label + ") " + (result.timedOut() ? "ran past its 30 s limit"
                    : "exited with " + result.exitCode()) + "; no heap figure");
            return Double.NaN;
        }
        try {
            return heapUsedKib(result.output());
        } catch (IllegalArgumentException e) {
            run.problem(variant, "jcmd (" + label + "): " + e.getMessage());
            return Double.NaN;
        }
    }

    /** The {@code VmRSS} of a {@code /proc/PID/status} text, in KiB. */
    static long rssKib(String procStatus) {
        Matcher m = RSS.matcher(procStatus);
        if (!m.find()) throw new IllegalArgumentException("no 'VmRSS: N kB' line in the process status");
        return Long.parseLong(m.group(1));
    }

    /**
     * The heap in use, in KiB, from {@code jcmd GC.heap_info} output: the {@code used} figure of the
     * heap line (G1: {@code garbage-first heap total ..., used 9440K}), or the sum over the
     * generations (Serial, Parallel: {@code DefNew total ..., used 0K} and {@code Tenured total ...,
     * used 10059K}). Lines without {@code total} (Metaspace in older JDKs) are not the heap.
     */
    static double heapUsedKib(String heapInfo) {
        double sum = 0;
        boolean found = false;
        for (String line : heapInfo.lines().toList()) {
            if (!line.contains(" total ")) continue;
            Matcher m = USED.matcher(line);
            if (!m.find()) continue;
            long value = Long.parseLong(m.group(1));
            sum += switch (m.group(2)) {
                case "K" -> value;
                case "M" -> value * 1024.0;
                default -> value * 1024.0 * 1024.0;
            };
            found = true;
        }
        if (!found) throw new IllegalArgumentException("no heap 'total ..., used N' line in the GC.heap_info output");
        return sum;
    }
}
