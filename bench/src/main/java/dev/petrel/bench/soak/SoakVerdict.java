package dev.petrel.bench.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Whether a soak run kept its promises, and the figures that say so. A run fails when a request
 * that was not faulted failed, when any request was lost (a success with the wrong bytes), when a
 * resource had not come back to where it was before the traffic once the traffic and its front
 * ends were gone, and, in runs long enough to tell ({@link #SLOPES_FROM_MINUTES},
 * {@link #DRIFT_FROM_MINUTES}), when a resource still grows after warm-up or the tail latency drifted.
 */
final class SoakVerdict {
    /** Slopes are judged from this long a run on: over a few minutes, a heap that has not settled looks like a leak. */
    static final int SLOPES_FROM_MINUTES = 10;
    /** The p99 drift needs five minutes after warm-up and five at the end, apart. */
    static final int DRIFT_FROM_MINUTES = 15;
    /** The last five minutes' p99 may be this much above the first five's after warm-up ... */
    static final double DRIFT_RATIO = 1.5;
    /** ... or this many milliseconds, whichever is more: on loopback a p99 of 3 ms against 2 is noise. */
    static final double DRIFT_FLOOR_MS = 5;

    /**
     * A growth bound per hour, over the last two thirds of the samples after warm-up: about what one
     * leaked object a minute would show for counts, and a few MiB an hour for memory, far below
     * what a leak per request would make at the soak's rate.
     */
    record Bound(String figure, String unit, double perHour, ToDoubleFunction<SoakSample> value) {}

    static final List<Bound> BOUNDS = List.of(
            new Bound("RSS", "MiB", 32, SoakSample::rssMib),
            new Bound("heap after GC", "MiB", 8, SoakSample::heapMib),
            new Bound("native (NMT)", "MiB", 32, SoakSample::nativeMib),
            // the descriptors connections hold follow the load and the front ends' pools (mod_jk keeps a
            // connection per httpd thread that ever needed one): what grows beyond them is a leak
            new Bound("FDs beyond connections", "", 60, s -> s.fds() - s.established()),
            new Bound("threads", "", 60, SoakSample::threads));
    /**
     * Petrel's resource counts and its WebSocket sessions grow by no more than this an hour. Its
     * live connections are not judged by their slope (they follow the front ends' pools, see
     * above), but after the traffic: none may be left.
     */
    static final double COUNT_BOUND_PER_HOUR = 60;
    /** How many more file descriptors than before the traffic the server may hold after it: jars and logs it opens on first use. */
    static final int FD_SLACK = 16;

    final List<String> lines = new ArrayList<>();
    boolean passed = true;

    void fail(String line) {
        lines.add("FAIL " + line);
        passed = false;
    }

    void note(String line) {
        lines.add("     " + line);
    }

    /** The least-squares slope of {@code value} over {@code samples}, per hour; NaN with fewer than 3 readings. */
    static double slopePerHour(List<SoakSample> samples, ToDoubleFunction<SoakSample> value) {
        double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (SoakSample s : samples) {
            double y = value.applyAsDouble(s);
            if (Double.isNaN(y)) continue;
            double x = s.seconds() / 3600;
            n++;
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
        }
        if (n < 3) return Double.NaN;
        double d = n * sxx - sx * sx;
        return d == 0 ? Double.NaN : (n * sxy - sx * sy) / d;
    }

    /** The last two thirds of the samples taken after warm-up. */
    static List<SoakSample> judged(List<SoakSample> samples, double warmUpSeconds) {
        List<SoakSample> after = samples.stream().filter(s -> s.seconds() >= warmUpSeconds).toList();
        return after.subList(after.size() / 3, after.size());
    }

    static String format(double v) {
        if (Math.abs(v) < 0.05) v = 0; // no "-0.0" for a slope that rounds to nothing
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%.0f" : "%.1f", v);
    }
}
