package dev.petrel.bench.lab;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The live line of a running load tool ({@link Progress#live}), from what the tool has written so
 * far into its raw output. Each tool tells what it tells, and the line says no more:
 *
 * <ul>
 *   <li>ab prints {@code Completed N requests} on standard error after each tenth of its {@code -n}
 *       (the lab leaves out {@code -q}, which silences it): requests/s so far is N over the time
 *       since ab started at which the lab first saw N. The lab looks four times a second, so the
 *       rate is at most a quarter of a second's worth low, never high.
 *   <li>h2load with {@code -r} (the ramp's) prints {@code progress: N% of clients started}: how far
 *       the ramp-up is, not how many requests were answered, so there is no rate until it ends.
 *   <li>h2load without {@code -r} (the h2 scenario's) prints {@code progress: N% done} after each
 *       tenth of its {@code -n}: requests/s so far is that share of {@code -n} over the time since it started.
 *   <li>wrk prints nothing until it ends: only the time run of its {@code -d}.
 *   <li>openssl s_time prints a mark as each connection ends ({@code r} resumed, {@code *} full):
 *       connections/s so far is the marks over the time since it started.
 *   <li>the lab's fixed-rate generator prints {@code progress: C completed, K ok, T ms} once a
 *       second from its own counters ({@link FixedRateLoad}): requests/s so far is K over T.
 * </ul>
 *
 * <p>The servers are not asked instead: fifteen different programs share no request counter, and
 * counting bytes or packets on the loopback would count warm-ups and retransmissions too.
 */
final class LiveFigures {
    private static final Pattern AB_COMPLETED = Pattern.compile("^Completed (\\d+) requests$", Pattern.MULTILINE);
    private static final Pattern H2LOAD_DONE = Pattern.compile("^progress: (\\d+)% done$", Pattern.MULTILINE);
    private static final Pattern H2LOAD_STARTED = Pattern.compile("^progress: (\\d+)% of clients started$", Pattern.MULTILINE);
    // a line of s_time's marks, the last one still growing
    private static final Pattern S_TIME_MARKS = Pattern.compile("^[r*t3]+$", Pattern.MULTILINE);
    private static final Pattern FIXED_RATE = Pattern.compile("^progress: (\\d+) completed, (\\d+) ok, (\\d+) ms$", Pattern.MULTILINE);

    /** Reads one tool's output. */
    @FunctionalInterface
    private interface Reading {
        String line(String output, long elapsedNanos);
    }

    private final Reading reading;

    private LiveFigures(Reading reading) {
        this.reading = reading;
    }

    /** ab with {@code -n requests}, measuring {@code variant}. */
    static LiveFigures ab(String variant, long requests) {
        return new LiveFigures(new AbReading(variant, requests));
    }

    /** h2load ramping {@code clients} users up, measuring {@code variant}. */
    static LiveFigures h2load(String variant, int clients) {
        return new LiveFigures((output, elapsed) -> {
            String started = last(H2LOAD_STARTED, output, 1);
            return "h2load " + variant + ": " + (started == null ? "starting" : started + "% of " + number(clients)
                    + " users started") + ", " + seconds(elapsed) + " s (rate at the end)";
        });
    }

    /** h2load with {@code -n requests} and no ramp, measuring {@code variant}. */
    static LiveFigures h2loadDone(String variant, long requests) {
        return new LiveFigures((output, elapsed) -> {
            String done = last(H2LOAD_DONE, output, 1);
            long requestsDone = done == null ? 0 : requests * Long.parseLong(done) / 100;
            return "h2load " + variant + ": " + (done == null ? "starting" : rate(requestsDone, elapsed) + " req/s so far, "
                    + done + "% of " + number(requests)) + ", " + seconds(elapsed) + " s";
        });
    }

    /** wrk for {@code duration}, measuring {@code variant}. */
    static LiveFigures wrk(String variant, Duration duration) {
        return new LiveFigures((output, elapsed) -> "wrk " + variant + ": " + seconds(Math.min(elapsed, duration.toNanos()))
                + " of " + duration.toSeconds() + " s (rate at the end)");
    }

    /** openssl s_time for {@code duration}, measuring {@code variant}. */
    static LiveFigures sTime(String variant, Duration duration) {
        return new LiveFigures((output, elapsed) -> {
            long marks = 0;
            Matcher m = S_TIME_MARKS.matcher(output);
            while (m.find()) marks += m.group().length();
            return "s_time " + variant + ": " + rate(marks, elapsed) + " connections/s so far, " + number(marks) + ", "
                    + seconds(Math.min(elapsed, duration.toNanos())) + " of " + duration.toSeconds() + " s";
        });
    }

    /** The fixed-rate generator scheduling {@code scheduled} requests, measuring {@code variant}. */
    static LiveFigures fixedRate(String variant, long scheduled) {
        return new LiveFigures((output, elapsed) -> {
            Matcher m = lastMatch(FIXED_RATE, output);
            if (m == null) return "fixed-rate " + variant + ": waiting for the agreed start";
            long completed = Long.parseLong(m.group(1));
            long ok = Long.parseLong(m.group(2));
            long ms = Long.parseLong(m.group(3));
            return "fixed-rate " + variant + ": " + rate(ok, ms * 1_000_000) + " req/s so far, " + number(completed)
                    + " of " + number(scheduled) + ", " + seconds(ms * 1_000_000) + " s";
        });
    }

    /** The line for the tool's output so far, {@code elapsedNanos} after it started. */
    String line(String output, long elapsedNanos) {
        return reading.line(output, elapsedNanos);
    }

    /** The last match of {@code pattern} in {@code output}, or {@code null}. */
    private static Matcher lastMatch(Pattern pattern, String output) {
        Matcher m = pattern.matcher(output);
        int start = -1;
        while (m.find()) start = m.start();
        if (start < 0) return null;
        m.find(start);
        return m;
    }

    private static String last(Pattern pattern, String output, int group) {
        Matcher m = lastMatch(pattern, output);
        return m == null ? null : m.group(group);
    }

    private static String rate(long count, long nanos) {
        return nanos <= 0 ? "–" : number(Math.round(count * 1e9 / nanos));
    }

    private static String number(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e9);
    }

    /** ab's tenths: the count, and when the lab first saw it. */
    private static final class AbReading implements Reading {
        private final String variant;
        private final long requests;
        private long count;
        private long seenAt;

        AbReading(String variant, long requests) {
            this.variant = variant;
            this.requests = requests;
        }

        @Override
        public String line(String output, long elapsed) {
            String completed = last(AB_COMPLETED, output, 1);
            if (completed != null && Long.parseLong(completed) != count) {
                count = Long.parseLong(completed);
                seenAt = elapsed;
            }
            String head = "ab " + variant + ": ";
            if (count == 0) return head + "no tenth done yet, " + seconds(elapsed) + " s";
            return head + rate(count, seenAt) + " req/s so far, " + number(count) + " of " + number(requests) + ", "
                    + seconds(elapsed) + " s";
        }
    }
}
