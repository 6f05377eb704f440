package dev.petrel.bench.lab;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * What the lab says while it runs, on standard error: a line as each scenario starts (its steps and
 * the time they should take), a line per step (one server in one pass) with the time left in the
 * scenario and in the run, problems as they happen, and a live line while a load tool runs (what it
 * has done so far, requests/s where the tool tells; see {@link LiveFigures}).
 *
 * <p>On a terminal the live line is rewritten in place (carriage return) and wiped before any other
 * line. Elsewhere (a log file, CI) a carriage return would pile every refresh onto one line, so the
 * live line is printed as a line of its own, at most one every {@value #LOG_INTERVAL_SECONDS} s: a
 * tool run shorter than that leaves no trace but the step line. Methods are synchronized: the ajp
 * scenario's generator reports from a thread of its own.
 */
final class Progress {
    static final int LOG_INTERVAL_SECONDS = 5;
    /** A live line longer than a terminal row would wrap, and a carriage return only rewrites the last row. */
    private static final int TERMINAL_WIDTH = 79;
    private static final String WIPE = "\r\033[K";

    /**
     * One scenario of the run, as planned before it starts.
     *
     * @param scenario its name
     * @param steps the servers it will run times its passes
     * @param perStep its own estimate of a step ({@link Scenario#stepEstimate()})
     */
    record Plan(String scenario, int steps, Duration perStep) {}

    private final PrintStream out;
    private final boolean terminal;
    private final LongSupplier clock;
    private final List<Plan> plans;
    private final List<TimeLeft> left = new ArrayList<>();
    private int current = -1;
    private long stepStarted = -1;
    private boolean liveShown;
    private long lastLogged = Long.MIN_VALUE;

    /**
     * @param out where to write (standard error)
     * @param terminal whether {@code out} is a terminal ({@link #stderrIsTerminal()})
     * @param clock nanoseconds, {@link System#nanoTime()} but for tests
     * @param plans the run's scenarios in order
     */
    Progress(PrintStream out, boolean terminal, LongSupplier clock, List<Plan> plans) {
        this.out = out;
        this.terminal = terminal;
        this.clock = clock;
        this.plans = List.copyOf(plans);
        for (Plan plan : plans) left.add(new TimeLeft(plan.steps(), plan.perStep()));
    }

    /** Progress on standard error for {@code plans}. */
    static Progress onStandardError(List<Plan> plans) {
        return new Progress(System.err, stderrIsTerminal(), System::nanoTime, plans);
    }

    /**
     * Whether this process's standard error is a terminal. {@code System.console()} answers for
     * standard input and output, which a user may redirect while watching standard error; Linux (the
     * lab needs it for {@code taskset} anyway) names the file behind descriptor 2 in {@code /proc}.
     */
    static boolean stderrIsTerminal() {
        if ("dumb".equals(System.getenv("TERM"))) return false;
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    /** Scenario {@code name} starts: says how many steps it has and how long they should take. */
    synchronized void scenario(String name) {
        finishStep();
        current = indexOf(name);
        TimeLeft scenario = left.get(current);
        line(name + ": " + scenario.steps() + (scenario.steps() == 1 ? " step" : " steps") + " (server start, warm-up, "
                + "load: ~" + human(scenario.perStep()) + " each), ~" + human(scenario.estimatedTotal())
                + (plans.size() > 1 ? "; the run: ~" + human(runLeft()) + " left" : ""));
    }

    /** The next step of the current scenario: server {@code index} of {@code servers} in pass {@code pass}. */
    synchronized void step(int pass, int passes, String server, int index, int servers) {
        finishStep();
        stepStarted = clock.getAsLong();
        TimeLeft scenario = left.get(current);
        line(plans.get(current).scenario() + ": step " + (scenario.done() + 1) + "/" + scenario.steps() + " (pass " + pass
                + "/" + passes + ", " + server + " " + index + "/" + servers + "), ~" + human(scenario.remaining(0))
                + " left" + (plans.size() > 1 && current < plans.size() - 1 ? " (the run: ~" + human(runLeft()) + ")" : ""));
    }

    /** The current scenario is over (its last step ended). */
    synchronized void scenarioDone() {
        finishStep();
    }

    /**
     * What a running load tool has done so far, e.g. {@code ab HTTP keep-alive: 12,345 req/s so far,
     * 40,000 of 100,000, 3.2 s}; the scenario's time left is added.
     */
    synchronized void live(String figures) {
        long now = clock.getAsLong();
        // the scenario is named in the step line above; its time left moves with the live line
        String text = "  " + figures + (current < 0 ? "" : "; ~" + human(scenarioLeft(now)) + " left");
        if (terminal) {
            if (text.length() > TERMINAL_WIDTH) text = text.substring(0, TERMINAL_WIDTH - 3) + "...";
            out.print(WIPE + text);
            out.flush();
            liveShown = true;
        } else if (lastLogged == Long.MIN_VALUE || now - lastLogged >= TimeUnit.SECONDS.toNanos(LOG_INTERVAL_SECONDS)) {
            out.println(text);
            lastLogged = now;
        }
    }

    /** The load tool has finished: its live line goes (the report has its figures). */
    synchronized void liveDone() {
        wipeLive();
    }

    /** A line of its own, such as a problem. */
    synchronized void note(String text) {
        line("  " + text);
    }

    private void line(String text) {
        wipeLive();
        out.println(text);
    }

    private void wipeLive() {
        if (liveShown) {
            out.print(WIPE);
            out.flush();
            liveShown = false;
        }
    }

    private void finishStep() {
        if (stepStarted >= 0 && current >= 0) left.get(current).stepDone(clock.getAsLong() - stepStarted);
        stepStarted = -1;
        // a log gets its first live line of a step 5 s into it, not at once
        if (!terminal) lastLogged = clock.getAsLong();
    }

    private Duration scenarioLeft(long now) {
        return left.get(current).remaining(stepStarted < 0 ? 0 : now - stepStarted);
    }

    /** The current scenario's time left (estimated or measured), and the later ones' estimates. */
    private Duration runLeft() {
        Duration total = current < 0 ? Duration.ZERO : scenarioLeft(clock.getAsLong());
        for (int i = current + 1; i < left.size(); i++) total = total.plus(left.get(i).estimatedTotal());
        return total;
    }

    private int indexOf(String scenario) {
        for (int i = 0; i < plans.size(); i++) if (plans.get(i).scenario().equals(scenario)) return i;
        throw new IllegalArgumentException("scenario " + scenario + " was not planned");
    }

    /** {@code 45 s}, {@code 4 min}, {@code 1 h 20 min}: as precise as an estimate deserves. */
    static String human(Duration d) {
        long s = Math.max(0, d.toSeconds());
        if (s < 90) return s + " s";
        long min = Math.round(s / 60.0);
        return min < 90 ? min + " min" : (min / 60) + " h " + (min % 60) + " min";
    }
}
