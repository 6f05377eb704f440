package dev.petrel.bench.lab;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The figures of one ApacheBench run, read from its text output and, for percentiles with
 * sub-millisecond resolution, from its {@code -e} CSV (the text report rounds to whole ms).
 *
 * @param complete requests completed
 * @param failed requests ab counted as failed (connect, receive, length or exception errors)
 * @param non2xx responses with a status other than 2xx
 * @param keepAliveRequests requests served on a reused connection
 * @param requestsPerSecond the mean rate
 * @param timePerRequestMs mean time per request as seen by one client
 * @param tls what ab negotiated over HTTPS, or {@code null} for plain HTTP
 */
record AbOutput(long complete, long failed, long non2xx, long keepAliveRequests, double requestsPerSecond,
                double timePerRequestMs, Tls tls) {
    private static final Pattern COMPLETE = Pattern.compile("^Complete requests:\\s+(\\d+)", Pattern.MULTILINE);
    private static final Pattern FAILED = Pattern.compile("^Failed requests:\\s+(\\d+)", Pattern.MULTILINE);
    private static final Pattern NON_2XX = Pattern.compile("^Non-2xx responses:\\s+(\\d+)", Pattern.MULTILINE);
    private static final Pattern KEEP_ALIVE = Pattern.compile("^Keep-Alive requests:\\s+(\\d+)", Pattern.MULTILINE);
    private static final Pattern RPS = Pattern.compile("^Requests per second:\\s+([\\d.]+)", Pattern.MULTILINE);
    private static final Pattern TIME_PER_REQUEST =
            Pattern.compile("^Time per request:\\s+([\\d.]+) \\[ms\\] \\(mean\\)$", Pattern.MULTILINE);
    // "SSL/TLS Protocol:       TLSv1.3,TLS_AES_256_GCM_SHA384,256,256": protocol, cipher, then key bits
    private static final Pattern TLS_PROTOCOL =
            Pattern.compile("^SSL/TLS Protocol:\\s+([^,\\s]+),([^,\\s]+)(?:,.*)?$", Pattern.MULTILINE);
    // "Server Temp Key:        X25519 253 bits": the ephemeral key exchange
    private static final Pattern TEMP_KEY = Pattern.compile("^Server Temp Key:\\s+(\\S.*?)\\s*$", Pattern.MULTILINE);

    /**
     * What ab reports of the TLS session of its first connection (ab prints it once per run).
     *
     * @param protocol e.g. {@code TLSv1.3}
     * @param cipher the cipher suite as OpenSSL names it, e.g. {@code TLS_AES_256_GCM_SHA384} or
     *     {@code ECDHE-ECDSA-AES256-GCM-SHA384}
     * @param keyExchange the server's ephemeral key, e.g. {@code X25519 253 bits}, or {@code null}
     *     when ab did not print it
     */
    record Tls(String protocol, String cipher, String keyExchange) {
        /** One line for the report, e.g. {@code TLSv1.3, TLS_AES_256_GCM_SHA384, key exchange X25519 253 bits}. */
        String summary() {
            return protocol + ", " + cipher + (keyExchange == null ? "" : ", key exchange " + keyExchange);
        }
    }

    /** Parses ab's text report; {@link IllegalArgumentException} when it holds no result (ab failed early). */
    static AbOutput parse(String text) {
        return new AbOutput(
                longOf(COMPLETE, text, -1),
                longOf(FAILED, text, -1),
                longOf(NON_2XX, text, 0),
                longOf(KEEP_ALIVE, text, 0),
                doubleOf(RPS, text),
                doubleOf(TIME_PER_REQUEST, text),
                tls(text));
    }

    /** The TLS line of ab's report, or {@code null} when there is none (a plain HTTP run). */
    static Tls tls(String text) {
        Matcher protocol = TLS_PROTOCOL.matcher(text);
        if (!protocol.find()) return null;
        Matcher key = TEMP_KEY.matcher(text);
        return new Tls(protocol.group(1), protocol.group(2), key.find() ? key.group(1) : null);
    }

    /**
     * Percentiles from ab's {@code -e} CSV ("Percentage served,Time in ms" then one line per
     * percent 0..100), as microseconds, for the given percents.
     */
    static Map<Integer, Double> percentilesMicros(String csv, int... percents) {
        Map<Integer, Double> all = new LinkedHashMap<>();
        for (String line : csv.split("\n")) {
            String[] cells = line.strip().split(",");
            if (cells.length != 2 || !cells[0].chars().allMatch(Character::isDigit) || cells[0].isEmpty()) continue;
            all.put(Integer.parseInt(cells[0]), Double.parseDouble(cells[1]) * 1000);
        }
        Map<Integer, Double> chosen = new LinkedHashMap<>();
        for (int percent : percents) {
            Double value = all.get(percent);
            if (value == null) throw new IllegalArgumentException("ab CSV has no " + percent + "% line");
            chosen.put(percent, value);
        }
        return chosen;
    }

    private static long longOf(Pattern pattern, String text, long absent) {
        Matcher m = pattern.matcher(text);
        if (m.find()) return Long.parseLong(m.group(1));
        if (absent >= 0) return absent;
        throw new IllegalArgumentException("ab output has no '" + label(pattern) + "' line");
    }

    private static double doubleOf(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        if (m.find()) return Double.parseDouble(m.group(1));
        throw new IllegalArgumentException("ab output has no '" + label(pattern) + "' line");
    }

    private static String label(Pattern pattern) {
        String p = pattern.pattern();
        return p.substring(1, p.indexOf(':'));
    }
}
