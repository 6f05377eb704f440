package dev.petrel.bench.lab;

import java.io.PrintStream;
import java.time.Duration;

/**
 * One line per step on standard error: scenario, pass, server, and the time left estimated from
 * the steps done so far.
 */
final class Progress {
    private final PrintStream out;
    private final int totalSteps;
    private final long started = System.nanoTime();
    private int done;

    Progress(PrintStream out, int totalSteps) {
        this.out = out;
        this.totalSteps = totalSteps;
    }

    void step(String scenario, int pass, int passes, String server, int index, int servers) {
        String left = "";
        if (done > 0) {
            long perStep = (System.nanoTime() - started) / done;
            left = ", about " + human(Duration.ofNanos(perStep * (totalSteps - done))) + " left";
        }
        out.printf("[%s] pass %d/%d, %s (%d/%d)%s%n", scenario, pass, passes, server, index, servers, left);
        done++;
    }

    void note(String text) {
        out.println("  " + text);
    }

    private static String human(Duration d) {
        long s = d.toSeconds();
        return s >= 120 ? (s / 60) + " min" : s + " s";
    }
}
