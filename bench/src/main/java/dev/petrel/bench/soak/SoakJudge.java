package dev.petrel.bench.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/** Judges one {@link SoakRun} against the promises of {@link SoakVerdict}, and writes its summary line. */
final class SoakJudge {
    private SoakJudge() {}

    static SoakVerdict judge(SoakRun run, SoakOptions options) {
        SoakVerdict v = new SoakVerdict();
        long requests = 0, failed = 0, injected = 0, lost = 0;
        List<String> unexplained = new ArrayList<>();
        for (SoakOutcome o : run.outcomes) {
            requests += o.requests();
            lost += o.lost();
            if (o.lost() > 0) v.fail("lost: " + o.route().name() + " " + o.operation() + " at " + SoakRun.clock(seconds(run, o.start())) + ": " + o.failure());
            if (o.failed() == 0) continue;
            failed += o.failed();
            if (run.faults.stream().anyMatch(f -> f.explains(o))) {
                injected += o.failed();
            } else {
                unexplained.add(o.route().name() + " " + o.operation() + " at " + SoakRun.clock(seconds(run, o.start())) + ": " + o.failure());
            }
        }
        for (String line : unexplained.subList(0, Math.min(20, unexplained.size()))) v.fail("failed, no fault near it: " + line);
        if (unexplained.size() > 20) v.fail("... and " + (unexplained.size() - 20) + " more failed with no fault near them");

        // after the traffic and its front ends: everything back where it was
        SoakSample before = run.baseline;
        SoakSample after = run.after;
        Set<String> names = new TreeSet<>(before.outstanding().keySet());
        names.addAll(after.outstanding().keySet());
        for (String name : names) {
            long b = before.outstanding().getOrDefault(name, 0L);
            long a = after.outstanding().getOrDefault(name, 0L);
            if (a != b) v.fail(name + ": " + a + " outstanding after the traffic, " + b + " before it");
        }
        if (!Double.isNaN(after.connections()) && after.connections() > 0) v.fail(SoakVerdict.format(after.connections()) + " connections still open after the traffic");
        if (after.fds() > before.fds() + SoakVerdict.FD_SLACK) {
            v.fail(SoakVerdict.format(after.fds()) + " file descriptors after the traffic, " + SoakVerdict.format(before.fds()) + " before it");
        }

        // growth after warm-up
        List<SoakSample> judged = SoakVerdict.judged(run.samples, options.warmUpSeconds());
        boolean slopesJudged = options.minutes() >= SoakVerdict.SLOPES_FROM_MINUTES;
        StringBuilder slopes = new StringBuilder();
        for (SoakVerdict.Bound bound : SoakVerdict.BOUNDS) {
            double slope = SoakVerdict.slopePerHour(judged, bound.value());
            slopes.append(", ").append(bound.figure()).append(' ').append(signed(slope)).append(bound.unit().isEmpty() ? "/h" : " " + bound.unit() + "/h");
            if (slopesJudged && slope > bound.perHour()) {
                v.fail(bound.figure() + " grows " + SoakVerdict.format(slope) + " " + bound.unit() + "/h after warm-up (bound " + bound.perHour() + ")");
            }
        }
        List<String> counts = new ArrayList<>(names);
        counts.add("websocket sessions");
        for (String name : counts) {
            double slope = SoakVerdict.slopePerHour(judged, s -> switch (name) {
                case "websocket sessions" -> s.sessions();
                default -> s.outstanding().containsKey(name) ? s.outstanding().get(name) : Double.NaN;
            });
            if (slopesJudged && slope > SoakVerdict.COUNT_BOUND_PER_HOUR) {
                v.fail(name + " grows " + SoakVerdict.format(slope) + "/h after warm-up (bound " + SoakVerdict.COUNT_BOUND_PER_HOUR + ")");
            }
        }
        if (!slopesJudged) v.note("growth after warm-up is judged in runs of " + SoakVerdict.SLOPES_FROM_MINUTES + " minutes or more; "
                + "resources back where they were after the traffic are judged in every run");

        // tail drift
        String drift = "";
        if (options.minutes() >= SoakVerdict.DRIFT_FROM_MINUTES) {
            double warm = options.warmUpSeconds();
            double first = p99(run, warm, warm + 300);
            double last = p99(run, options.minutes() * 60 - 300, options.minutes() * 60);
            drift = "; p99 " + SoakVerdict.format(first) + " ms after warm-up, " + SoakVerdict.format(last) + " ms in the last 5 min";
            if (last > Math.max(first * SoakVerdict.DRIFT_RATIO, first + SoakVerdict.DRIFT_FLOOR_MS)) {
                v.fail("p99 of the last five minutes, " + SoakVerdict.format(last) + " ms, is above " + SoakVerdict.DRIFT_RATIO
                        + "x that of the first five after warm-up, " + SoakVerdict.format(first) + " ms");
            }
        } else {
            v.note("p99 drift is judged in runs of " + SoakVerdict.DRIFT_FROM_MINUTES + " minutes or more");
        }
        // over a few minutes a slope says more about the heap settling than about a leak: not shown
        String growth = slopesJudged ? "; after warm-up" + slopes.substring(1) : "";
        v.lines.addFirst("soak " + run.label() + ": " + requests + " requests, " + failed + " failed (" + injected + " near an injected fault), "
                + lost + " lost; " + run.faults.size() + " faults" + growth + drift
                + (v.passed ? "" : "  (FAIL)"));
        return v;
    }

    private static double seconds(SoakRun run, long nanos) {
        return (nanos - run.trafficStart) / 1e9;
    }

    /** The p99 in ms of the requests that succeeded between {@code from} and {@code to} seconds into the traffic. */
    static double p99(SoakRun run, double from, double to) {
        long[] sorted = run.outcomes.stream()
                .filter(o -> o.failed() + o.lost() == 0 && !o.operation().equals("websocket") && !o.operation().equals("h2load"))
                .filter(o -> seconds(run, o.end()) >= from && seconds(run, o.end()) < to)
                .mapToLong(SoakOutcome::latencyNanos).sorted().toArray();
        return sorted.length == 0 ? Double.NaN : SoakRun.percentile(sorted, 0.99) / TimeUnit.MILLISECONDS.toNanos(1);
    }

    private static String signed(double v) {
        return Double.isNaN(v) ? "-" : (v > -0.05 ? "+" : "") + SoakVerdict.format(v);
    }

    /** Faults by kind, for the report. */
    static Map<String, Long> faultCounts(SoakRun run) {
        Map<String, Long> counts = new java.util.TreeMap<>();
        run.faults.forEach(f -> counts.merge(f.name(), 1L, Long::sum));
        return counts;
    }
}
