package dev.petrel.bench.lab;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The figures of one {@code openssl s_time} run, read from its text output. s_time opens one
 * connection after the other, each a TLS handshake and one {@code GET} (with {@code -www}), for a
 * given time; with {@code -reuse} it offers every connection the session of a first one it made
 * before the timed loop. For each timed connection it prints one mark as it ends: {@code r} when
 * the server resumed the session ({@code SSL_session_reused}), {@code *} (or {@code t}, {@code 3}
 * for old protocol versions) when the handshake was full. So the marks say, connection by
 * connection, whether resumption really happened.
 *
 * <pre>
 * Now timing with session id reuse.
 * starting
 * rrrrrrrrrrrr...
 *
 * 1091 connections in 0.58s; 1881.03 connections/user sec, bytes read 182197
 * 1091 connections in 2 real seconds, 167 bytes read per connection
 * </pre>
 *
 * @param connections connections made in the timed loop (its "N connections in" line)
 * @param marks the marks printed, one per connection that ended
 * @param resumed the marks that say the session was resumed
 */
record STimeOutput(long connections, long marks, long resumed) {
    // the first of the two summary lines: s_time's own CPU time, not the wall time
    private static final Pattern CONNECTIONS = Pattern.compile("^(\\d+) connections in [\\d.]+s;", Pattern.MULTILINE);
    private static final Pattern MARKS = Pattern.compile("^[r*t3]+$", Pattern.MULTILINE);

    /** Parses s_time's report; {@link IllegalArgumentException} when it holds no result (it could not connect). */
    static STimeOutput parse(String text) {
        Matcher connections = CONNECTIONS.matcher(text);
        if (!connections.find()) throw new IllegalArgumentException("s_time output has no 'N connections in' line");
        long marks = 0;
        long resumed = 0;
        Matcher line = MARKS.matcher(text);
        while (line.find()) {
            String run = line.group();
            marks += run.length();
            resumed += run.chars().filter(c -> c == 'r').count();
        }
        return new STimeOutput(Long.parseLong(connections.group(1)), marks, resumed);
    }

    /** The share of the connections whose session was resumed, in percent (0 when there were none). */
    double resumedPercent() {
        return connections == 0 ? 0 : 100.0 * resumed / connections;
    }
}
