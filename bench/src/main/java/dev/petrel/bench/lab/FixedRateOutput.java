package dev.petrel.bench.lab;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The figures of one {@link FixedRateLoad} run, read from its {@code name: value} report.
 *
 * @param scheduled requests scheduled ({@code rate × duration})
 * @param ok responses with status 200
 * @param non200 complete responses with another status
 * @param connectErrors connects that failed
 * @param readErrors connections that closed before the whole response, or sent one that could not be framed
 * @param timeouts connections on which a read waited longer than the timeout
 * @param unfinished requests not completed when the generator ended
 * @param startedLateMs how long after the agreed start instant the generator was ready
 * @param achievedPerSecond 200 responses over the time from the start to the last completion
 * @param p50Ms median latency of the 200 responses, from each request's intended send time
 * @param p99Ms 99th percentile of the same
 * @param maxMs the longest of the same
 * @param generatorLagMaxMs the longest the generator itself was late handing a request to the pool
 */
record FixedRateOutput(long scheduled, long ok, long non200, long connectErrors, long readErrors, long timeouts,
                       long unfinished, long startedLateMs, double achievedPerSecond, double p50Ms, double p99Ms,
                       double maxMs, double generatorLagMaxMs) {

    /** Every request that did not end in a 200: connect, read and timeout errors, other statuses, unfinished. */
    long errors() {
        return non200 + connectErrors + readErrors + timeouts + unfinished;
    }

    /** The errors by kind, for a note: {@code connect 0, read 3, timeout 0, non-200 0, unfinished 0}. */
    String errorText() {
        return "connect " + connectErrors + ", read " + readErrors + ", timeout " + timeouts + ", non-200 " + non200
                + ", unfinished " + unfinished;
    }

    /** Parses the report; {@link IllegalArgumentException} naming what is missing. */
    static FixedRateOutput parse(String text) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : text.lines().toList()) {
            int colon = line.indexOf(": ");
            if (colon > 0) fields.putIfAbsent(line.substring(0, colon).strip(), line.substring(colon + 2).strip());
        }
        return new FixedRateOutput(
                whole(fields, "scheduled"), whole(fields, "ok"), whole(fields, "non-200"), whole(fields, "connect errors"),
                whole(fields, "read errors"), whole(fields, "timeouts"), whole(fields, "unfinished"),
                whole(fields, "started late ms"), decimal(fields, "achieved per second"), decimal(fields, "latency p50 ms"),
                decimal(fields, "latency p99 ms"), decimal(fields, "latency max ms"), decimal(fields, "generator lag max ms"));
    }

    private static long whole(Map<String, String> fields, String name) {
        String value = value(fields, name);
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("fixed-rate output: '" + name + "' is not a whole number: " + value);
        }
    }

    private static double decimal(Map<String, String> fields, String name) {
        String value = value(fields, name);
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("fixed-rate output: '" + name + "' is not a number: " + value);
        }
    }

    private static String value(Map<String, String> fields, String name) {
        String value = fields.get(name);
        if (value == null) throw new IllegalArgumentException("fixed-rate output has no '" + name + ":' line");
        return value;
    }
}
