package dev.petrel.bench.lab;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The figures of one h2load run, read from its text output.
 *
 * @param seconds the run's duration ("finished in")
 * @param total requests h2load meant to send
 * @param done requests that got a response or failed
 * @param succeeded requests with a 2xx or 3xx response
 * @param failed requests that failed (errored included)
 * @param errored requests that hit a connection error
 * @param timeout requests that timed out
 * @param requestMinMs fastest request
 * @param requestMaxMs slowest request
 * @param requestMeanMs mean request time
 * @param status4xx5xx responses with a 4xx or 5xx status
 * @param status2xx responses with a 2xx status
 * @param dataBytes the bytes of response bodies received (the "data" of the traffic line), or -1 without one
 * @param protocol the application protocol h2load spoke ({@code h2}, {@code h2c}, {@code http/1.1}), as its
 *     "Application protocol" line names it, or {@code null} when it printed none (no connection was made)
 */
public record H2loadOutput(double seconds, long total, long done, long succeeded, long failed, long errored, long timeout,
                    double requestMinMs, double requestMaxMs, double requestMeanMs, long status4xx5xx, long status2xx,
                    long dataBytes, String protocol) {
    private static final Pattern FINISHED = Pattern.compile("^finished in ([\\d.]+)(us|ms|s),", Pattern.MULTILINE);
    private static final Pattern REQUESTS = Pattern.compile(
            "^requests: (\\d+) total, (\\d+) started, (\\d+) done, (\\d+) succeeded, (\\d+) failed, (\\d+) errored, (\\d+) timeout",
            Pattern.MULTILINE);
    private static final Pattern STATUS_CODES = Pattern.compile(
            "^status codes: (\\d+) 2xx, (\\d+) 3xx, (\\d+) 4xx, (\\d+) 5xx", Pattern.MULTILINE);
    // traffic: 61.52KB (63000) total, 12.70KB (13000) headers (space savings 90.00%), 19.53KB (20000) data
    private static final Pattern TRAFFIC = Pattern.compile("^traffic: .*?\\((\\d+)\\) data", Pattern.MULTILINE);
    private static final Pattern PROTOCOL = Pattern.compile("^Application protocol: (\\S+)", Pattern.MULTILINE);
    private static final Pattern REQUEST_TIME = Pattern.compile(
            "^time for request:\\s+([\\d.]+)(us|ms|s)\\s+([\\d.]+)(us|ms|s)\\s+([\\d.]+)(us|ms|s)", Pattern.MULTILINE);

    /** Parses h2load's report; {@link IllegalArgumentException} when it holds no result. */
    public static H2loadOutput parse(String text) {
        Matcher finished = find(FINISHED, text, "finished in");
        Matcher requests = find(REQUESTS, text, "requests:");
        Matcher time = find(REQUEST_TIME, text, "time for request");
        Matcher status = find(STATUS_CODES, text, "status codes");
        Matcher traffic = TRAFFIC.matcher(text);
        Matcher protocol = PROTOCOL.matcher(text);
        return new H2loadOutput(
                Units.toMillis(Double.parseDouble(finished.group(1)), finished.group(2)) / 1000,
                Long.parseLong(requests.group(1)),
                Long.parseLong(requests.group(3)),
                Long.parseLong(requests.group(4)),
                Long.parseLong(requests.group(5)),
                Long.parseLong(requests.group(6)),
                Long.parseLong(requests.group(7)),
                Units.toMillis(Double.parseDouble(time.group(1)), time.group(2)),
                Units.toMillis(Double.parseDouble(time.group(3)), time.group(4)),
                Units.toMillis(Double.parseDouble(time.group(5)), time.group(6)),
                Long.parseLong(status.group(3)) + Long.parseLong(status.group(4)),
                Long.parseLong(status.group(1)),
                traffic.find() ? Long.parseLong(traffic.group(1)) : -1,
                protocol.find() ? protocol.group(1) : null);
    }

    /**
     * Requests answered without a connection error, a timeout or a 4xx/5xx status. Not h2load's
     * own "succeeded": h2load 1.52 counts a complete response as failed, with no status, when its
     * status line has no reason phrase, which is what Tomcat sends ({@code HTTP/1.1 200 }).
     */
    long answered() {
        // "errored" also counts the requests of clients whose connection failed before they started,
        // so it is no part of "done": only the failures beyond errors and timeouts can be answers.
        return succeeded + Math.max(0, failed - errored - timeout - status4xx5xx);
    }

    /**
     * Requests not answered with a 2xx status, over HTTP/2: failed, errored or timed out (h2load's
     * "failed" counts the other two too), answered with another status, or never done. Over HTTP/2
     * every response has its {@code :status}, so h2load's 2xx count is exact there (unlike
     * {@link #answered()}, which makes up for HTTP/1.1 status lines without a reason phrase).
     */
    long errorsH2() {
        return Math.max(0, total - status2xx);
    }

    /** Answered requests per second over the run. */
    double successesPerSecond() {
        return seconds > 0 ? answered() / seconds : 0;
    }

    /** Requests not answered (errors, timeouts, 4xx/5xx, or never done), as a percentage of those meant. */
    double errorPercent() {
        return total > 0 ? 100.0 * (total - answered()) / total : 0;
    }

    private static Matcher find(Pattern pattern, String text, String what) {
        Matcher m = pattern.matcher(text);
        if (!m.find()) throw new IllegalArgumentException("h2load output has no '" + what + "' line");
        return m;
    }
}
