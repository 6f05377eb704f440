package dev.petrel.bench.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CPU time processes used, read from {@code /proc/PID/stat} in clock ticks, as the seeds'
 * "average CPU %" of a process over a window: the ticks spent in the window over the ticks the
 * window lasted, so 100 % is one core busy throughout.
 *
 * <p>A process group (Apache httpd: its main process and the children it forks and reaps) is
 * sampled as the main process's own time, the time of the children it has reaped
 * ({@code cutime + cstime}: the kernel adds a child's whole time there when the parent waits for
 * it), and each child alive at the sample. Over a window, a child alive at both ends counts its
 * difference; one born in the window counts all of its time; one that exited in the window counts
 * through the parent's {@code cutime} (all of its life) less what it had at the start sample. So a
 * child that comes and goes between the samples is not lost. A child reaped while a sample is read
 * would count twice or not at all; {@link #sample} reads again then. What this cannot see:
 * children of children that their own parent never reaps (httpd has none).
 */
final class ProcessCpu {
    /** Fields after the command name: state is field 3; utime 14, stime 15, cutime 16, cstime 17 (proc(5)). */
    private static final int STATE = 3;
    private static final int PPID = 4;
    private static final int UTIME = 14;
    private static final int CSTIME = 17;
    /** How many times {@link #sample} tries for a sample during which no child was reaped. */
    static final int ATTEMPTS = 5;

    private ProcessCpu() {}

    /**
     * One process's times in clock ticks.
     *
     * @param pid the process
     * @param ppid its parent
     * @param state its state letter ({@code R}, {@code S}, {@code Z} for a child not yet reaped...)
     * @param utime user time
     * @param stime system time
     * @param cutime user time of its reaped children
     * @param cstime system time of its reaped children
     */
    record Times(long pid, long ppid, char state, long utime, long stime, long cutime, long cstime) {
        /** Its own time, user and system. */
        long own() {
            return utime + stime;
        }

        /** The time of the children it has reaped. */
        long reaped() {
            return cutime + cstime;
        }
    }

    /**
     * A process group at one moment.
     *
     * @param nanoTime {@link System#nanoTime()} when it was taken
     * @param main the main process
     * @param children the children alive then (any other process of the group), by PID
     * @param unreadable PIDs listed in the group that had gone before they could be read
     * @param consistent whether the parent reaped no child while the sample was read
     */
    record Sample(long nanoTime, Times main, Map<Long, Times> children, List<Long> unreadable, boolean consistent) {}

    /**
     * Parses one {@code /proc/PID/stat} line. The command name (field 2) is in parentheses and may
     * itself hold spaces and parentheses, so the fields are counted from the last {@code ')'}.
     *
     * @throws IllegalArgumentException if the line is not a stat line
     */
    static Times parse(String stat) {
        String line = stat.strip();
        int open = line.indexOf(" (");
        int close = line.lastIndexOf(')');
        if (open <= 0 || close < open) throw new IllegalArgumentException("not a /proc/PID/stat line: " + shortened(line));
        String[] rest = line.substring(close + 1).strip().split(" +");
        // rest[0] is field 3 (state)
        if (rest.length < CSTIME - STATE + 1) {
            throw new IllegalArgumentException("a /proc/PID/stat line with " + (rest.length + 2) + " fields, not "
                    + CSTIME + " or more: " + shortened(line));
        }
        try {
            long pid = Long.parseLong(line.substring(0, open));
            if (rest[0].length() != 1) throw new IllegalArgumentException("not a process state: " + rest[0]);
            return new Times(pid, Long.parseLong(rest[PPID - STATE]), rest[0].charAt(0),
                    Long.parseLong(rest[UTIME - STATE]), Long.parseLong(rest[UTIME + 1 - STATE]),
                    Long.parseLong(rest[UTIME + 2 - STATE]), Long.parseLong(rest[CSTIME - STATE]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a non-numeric field in /proc/PID/stat: " + shortened(line), e);
        }
    }

    /** Reads one process's times; an {@link IOException} when it has gone (or this is not Linux). */
    static Times read(long pid) throws IOException {
        Path file = Path.of("/proc", Long.toString(pid), "stat");
        String text;
        try {
            text = Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new IOException("cannot read " + file + " (has the process exited?): " + e.getMessage(), e);
        }
        try {
            return parse(text);
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Samples a process group: the main process, each child, then the main process again. When the
     * parent reaped a child meanwhile (its {@code cutime + cstime} moved), that child could count
     * twice or not at all, so the sample is taken again, up to {@value #ATTEMPTS} times; the last
     * one says whether it was {@linkplain Sample#consistent() consistent}. A listed PID that has gone
     * (reaped before it was read) is fine: its time is in the parent's {@code cutime} at both reads.
     * {@code pids} may include {@code mainPid}.
     *
     * @throws IOException when the main process cannot be read
     */
    static Sample sample(long mainPid, Collection<Long> pids) throws IOException {
        Sample last = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Times before = read(mainPid);
            Map<Long, Times> children = new LinkedHashMap<>();
            List<Long> unreadable = new ArrayList<>();
            for (long pid : pids) {
                if (pid == mainPid || children.containsKey(pid)) continue;
                try {
                    children.put(pid, read(pid));
                } catch (IOException gone) {
                    unreadable.add(pid);
                }
            }
            Times after = read(mainPid);
            boolean consistent = before.reaped() == after.reaped();
            last = new Sample(System.nanoTime(), after, children, unreadable, consistent);
            if (consistent) return last;
        }
        return last;
    }

    /**
     * The ticks a process group used between two samples (see the class comment): the main
     * process's own difference, plus the difference of its reaped children's time, plus each child
     * at the end, less each child at the start.
     */
    static long ticksBetween(Sample start, Sample end) {
        if (start.main().pid() != end.main().pid()) {
            throw new IllegalArgumentException("samples of two processes: " + start.main().pid() + " and " + end.main().pid());
        }
        long ticks = end.main().own() - start.main().own() + end.main().reaped() - start.main().reaped();
        for (Times child : end.children().values()) ticks += child.own();
        for (Times child : start.children().values()) ticks -= child.own();
        return ticks;
    }

    /** The ticks one process used between two readings of it. */
    static long ticksBetween(Times start, Times end) {
        if (start.pid() != end.pid()) throw new IllegalArgumentException("readings of two processes: " + start.pid() + " and " + end.pid());
        return end.own() - start.own();
    }

    /**
     * CPU as a percentage of one core: {@code ticks} of CPU time over a window of {@code windowNanos}
     * with {@code ticksPerSecond} ticks a second ({@code getconf CLK_TCK}). 200 % is two cores.
     */
    static double percentOfOneCore(long ticks, long ticksPerSecond, long windowNanos) {
        if (ticksPerSecond <= 0) throw new IllegalArgumentException("clock ticks per second must be positive: " + ticksPerSecond);
        if (windowNanos <= 0) throw new IllegalArgumentException("the window must be longer than zero: " + windowNanos + " ns");
        return ticks * 100.0 * 1_000_000_000.0 / ticksPerSecond / windowNanos;
    }

    /**
     * CPU time per event in µs: {@code ticks} of CPU time ({@code ticksPerSecond} a second) over
     * {@code count} events, such as a server's time over the TLS handshakes it completed. A tick is
     * 10 ms at the usual 100 a second, so a figure is as exact as its window holds many ticks.
     */
    static double microsEach(long ticks, long ticksPerSecond, long count) {
        if (ticksPerSecond <= 0) throw new IllegalArgumentException("clock ticks per second must be positive: " + ticksPerSecond);
        if (count <= 0) throw new IllegalArgumentException("no events to share the time: " + count);
        return ticks * 1_000_000.0 / ticksPerSecond / count;
    }

    /** {@code getconf CLK_TCK}: clock ticks per second, the unit of {@code /proc/PID/stat} times. */
    static long ticksPerSecond() throws IOException {
        String line = Commands.firstLine(List.of("getconf", "CLK_TCK"));
        try {
            long ticks = Long.parseLong(line.strip());
            if (ticks > 0) return ticks;
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IOException("getconf CLK_TCK answered '" + line + "', not a number of ticks per second");
    }

    /** The {@code Cpus_allowed_list} of {@code /proc/PID/status}, e.g. {@code 0} or {@code 0-1}. */
    static String allowedCpus(long pid) throws IOException {
        Path file = Path.of("/proc", Long.toString(pid), "status");
        for (String line : Files.readAllLines(file, StandardCharsets.ISO_8859_1)) {
            if (line.startsWith("Cpus_allowed_list:")) return line.substring(line.indexOf(':') + 1).strip();
        }
        throw new IOException(file + " has no Cpus_allowed_list line");
    }

    private static String shortened(String text) {
        String shown = text.length() > 80 ? text.substring(0, 80) + "..." : text;
        return "'" + shown + "'";
    }
}
