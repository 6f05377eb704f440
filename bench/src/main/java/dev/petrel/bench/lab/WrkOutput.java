package dev.petrel.bench.lab;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The figures of one wrk run, read from its text output.
 *
 * @param requests requests completed
 * @param requestsPerSecond the mean rate
 * @param bytesPerSecond bytes read per second
 * @param socketErrors connect, read, write and timeout errors added up
 * @param non2xx3xx responses with another status
 * @param latencyAvgMs mean latency
 * @param socketErrorsByKind the socket errors one by one, as wrk lists them
 * @param latencyMaxMs the longest latency
 * @param latencyPercentilesMs with {@code --latency}, wrk's "Latency Distribution" (50, 75, 90 and
 *     99 %) by percent; empty without it
 */
record WrkOutput(long requests, double requestsPerSecond, double bytesPerSecond, long socketErrors, long non2xx3xx,
                 double latencyAvgMs, SocketErrors socketErrorsByKind, double latencyMaxMs,
                 Map<Integer, Double> latencyPercentilesMs) {

    WrkOutput {
        // in wrk's order, 50 % first
        latencyPercentilesMs = Collections.unmodifiableMap(new LinkedHashMap<>(latencyPercentilesMs));
    }

    /** wrk's {@code Socket errors: connect C, read R, write W, timeout T} line; all 0 when wrk printed none. */
    record SocketErrors(long connect, long read, long write, long timeout) {
        @Override
        public String toString() {
            return "connect " + connect + ", read " + read + ", write " + write + ", timeout " + timeout;
        }
    }

    private static final Pattern REQUESTS = Pattern.compile("^\\s*(\\d+) requests in ", Pattern.MULTILINE);
    private static final Pattern RPS = Pattern.compile("^Requests/sec:\\s+([\\d.]+)", Pattern.MULTILINE);
    private static final Pattern TRANSFER = Pattern.compile("^Transfer/sec:\\s+([\\d.]+)([KMG]?B)", Pattern.MULTILINE);
    private static final Pattern SOCKET_ERRORS = Pattern.compile(
            "Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");
    private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");
    // "    Latency     8.25ms   11.00ms  88.81ms   91.64%": mean, standard deviation, max
    private static final Pattern LATENCY = Pattern.compile(
            "^\\s+Latency\\s+([\\d.]+)(us|ms|s|m|h)\\s+[\\d.]+(?:us|ms|s|m|h)\\s+([\\d.]+)(us|ms|s|m|h)\\b", Pattern.MULTILINE);
    // under "  Latency Distribution": "     99%   62.92ms"
    private static final Pattern PERCENTILE = Pattern.compile("^\\s+(\\d+)%\\s+([\\d.]+)(us|ms|s|m|h)\\s*$", Pattern.MULTILINE);

    /** Parses wrk's report; {@link IllegalArgumentException} when it holds no result. */
    static WrkOutput parse(String text) {
        Matcher requests = find(REQUESTS, text, "N requests in");
        Matcher rps = find(RPS, text, "Requests/sec");
        Matcher transfer = find(TRANSFER, text, "Transfer/sec");
        Matcher latency = find(LATENCY, text, "Latency");
        SocketErrors byKind = new SocketErrors(0, 0, 0, 0);
        Matcher socket = SOCKET_ERRORS.matcher(text);
        if (socket.find()) {
            byKind = new SocketErrors(Long.parseLong(socket.group(1)), Long.parseLong(socket.group(2)),
                    Long.parseLong(socket.group(3)), Long.parseLong(socket.group(4)));
        }
        long errors = byKind.connect() + byKind.read() + byKind.write() + byKind.timeout();
        Matcher non2xx = NON_2XX.matcher(text);
        return new WrkOutput(
                Long.parseLong(requests.group(1)),
                Double.parseDouble(rps.group(1)),
                Double.parseDouble(transfer.group(1)) * unitBytes(transfer.group(2)),
                errors,
                non2xx.find() ? Long.parseLong(non2xx.group(1)) : 0,
                Units.toMillis(Double.parseDouble(latency.group(1)), latency.group(2)),
                byKind,
                Units.toMillis(Double.parseDouble(latency.group(3)), latency.group(4)),
                percentiles(text));
    }

    /** The "Latency Distribution" block that {@code --latency} adds, by percent, in ms; empty without it. */
    private static Map<Integer, Double> percentiles(String text) {
        Map<Integer, Double> percentiles = new LinkedHashMap<>();
        int block = text.indexOf("Latency Distribution");
        if (block < 0) return percentiles;
        Matcher m = PERCENTILE.matcher(text);
        m.region(block, text.length());
        while (m.find()) percentiles.put(Integer.parseInt(m.group(1)), Units.toMillis(Double.parseDouble(m.group(2)), m.group(3)));
        return percentiles;
    }

    /** The latency at {@code percent} (50, 75, 90 or 99), in ms; {@link IllegalArgumentException} without {@code --latency}. */
    double percentileMs(int percent) {
        Double value = latencyPercentilesMs.get(percent);
        if (value == null) throw new IllegalArgumentException("wrk output has no " + percent + "% latency (run with --latency)");
        return value;
    }

    private static double unitBytes(String unit) {
        return switch (unit) {
            case "KB" -> 1024.0;
            case "MB" -> 1024.0 * 1024;
            case "GB" -> 1024.0 * 1024 * 1024;
            default -> 1.0;
        };
    }

    private static Matcher find(Pattern pattern, String text, String what) {
        Matcher m = pattern.matcher(text);
        if (!m.find()) throw new IllegalArgumentException("wrk output has no '" + what + "' line");
        return m;
    }
}
