package dev.petrel.server.config;

import dev.petrel.server.Server;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where and how a server logs each request, one line per exchange, as Tomcat's
 * {@code AccessLogValve} and nginx's {@code access_log} do. Off unless given to
 * {@link Server.Builder#accessLog}. Lines are written off the request path: a request hands its
 * line to a bounded queue and goes on; when the writer falls behind and the queue is full, lines
 * are counted as dropped and the count is logged, never a request slowed.
 *
 * <pre>{@code
 * Server.builder().accessLog(AccessLog.file(Path.of("access.log")).format(AccessLog.Format.COMBINED))
 * }</pre>
 *
 * <p>A file is opened for appending and reopened by {@link Server#reopenAccessLog()} (the command
 * line does it on SIGHUP and SIGUSR1), so that {@code logrotate} can move it away.
 *
 * @param file the file, or {@code null} for standard output
 * @param format the line format
 */
public record AccessLog(Path file, Format format) {
    /** Line formats. */
    public enum Format {
        /** NCSA common: {@code 127.0.0.1 - - [24/Nov/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 10}. */
        COMMON,
        /** Common, then the {@code Referer} and {@code User-Agent} in quotes (Apache's and nginx's default). */
        COMBINED,
        /**
         * One JSON object per line: {@code time} (ISO-8601), {@code remote}, {@code method},
         * {@code target}, {@code protocol}, {@code scheme}, {@code host}, {@code status}, {@code bytes},
         * {@code duration_ms}, {@code referer}, {@code user_agent}.
         */
        JSON
    }

    public AccessLog {
        Objects.requireNonNull(format, "format");
    }

    /** The combined format into {@code file}. */
    public static AccessLog file(Path file) {
        return new AccessLog(Objects.requireNonNull(file, "file"), Format.COMBINED);
    }

    /** The combined format on standard output (a container's log collector reads it there). */
    public static AccessLog standardOutput() {
        return new AccessLog(null, Format.COMBINED);
    }

    /** The same destination in another format. */
    public AccessLog format(Format format) {
        return new AccessLog(file, format);
    }
}
