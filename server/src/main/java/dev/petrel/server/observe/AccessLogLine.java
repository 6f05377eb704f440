package dev.petrel.server.observe;

import dev.petrel.server.config.AccessLog;
import dev.petrel.server.engine.exchange.ExchangeRequest;
import dev.petrel.server.engine.exchange.ExchangeResponse;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * One exchange as an access log line, in one of the {@link AccessLog.Format formats}. Values a
 * client chose (target, {@code Referer}, {@code User-Agent}) are escaped, so that a line cannot be
 * forged or broken by what a client sends.
 *
 * <p>An exchange whose response never ended (cut after a failure, or its client gone) keeps the
 * status and bytes its client was sent, and says it is incomplete: {@code "complete":false} in
 * JSON, and a last field {@code incomplete} after the NCSA fields, where log parsers that read
 * the common or combined format by its fields ignore it (Tomcat and httpd mark the same case with
 * their {@code %X}).
 */
final class AccessLogLine {
    private static final DateTimeFormatter NCSA_TIME = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT);

    private AccessLogLine() {}

    /** The line for {@code request} answered by {@code response}, begun at {@code startNanos}, ended at {@code now}. */
    static String format(AccessLog.Format format, ExchangeRequest request, ExchangeResponse response, long startNanos,
                         Instant now, ZoneId zone) {
        String remote = address(request.remoteAddress());
        String referer = request.headers().first("Referer");
        String userAgent = request.headers().first("User-Agent");
        long bytes = response.bodyBytes();
        if (format == AccessLog.Format.JSON) {
            StringBuilder json = new StringBuilder(256).append('{');
            field(json, "time", now.toString()).append(',');
            field(json, "remote", remote).append(',');
            field(json, "method", request.method()).append(',');
            field(json, "target", request.target()).append(',');
            field(json, "protocol", request.version().toString()).append(',');
            field(json, "scheme", request.scheme()).append(',');
            field(json, "host", request.host()).append(',');
            json.append("\"status\":").append(response.status()).append(',');
            json.append("\"bytes\":").append(bytes).append(',');
            json.append("\"complete\":").append(response.complete()).append(',');
            json.append("\"duration_ms\":").append(String.format(Locale.ROOT, "%.3f", (System.nanoTime() - startNanos) / 1e6)).append(',');
            field(json, "referer", referer).append(',');
            field(json, "user_agent", userAgent);
            return json.append('}').toString();
        }
        StringBuilder line = new StringBuilder(160);
        line.append(remote).append(" - - [").append(NCSA_TIME.format(ZonedDateTime.ofInstant(now, zone))).append("] \"");
        quoted(line, request.method() + " " + request.target() + " " + request.version()).append("\" ");
        line.append(response.status()).append(' ').append(bytes == 0 ? "-" : Long.toString(bytes));
        if (format == AccessLog.Format.COMBINED) {
            line.append(" \"");
            quoted(line, referer == null ? "-" : referer).append("\" \"");
            quoted(line, userAgent == null ? "-" : userAgent).append('"');
        }
        if (!response.complete()) line.append(" incomplete");
        return line.toString();
    }

    private static String address(InetSocketAddress address) {
        if (address == null) return "-";
        return address.getAddress() != null ? address.getAddress().getHostAddress() : address.getHostString();
    }

    /** Apache's escaping inside quotes: {@code "} and {@code \} escaped, control and non-ASCII bytes as {@code \xHH}. */
    private static StringBuilder quoted(StringBuilder out, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') out.append('\\').append(c);
            else if (c < 0x20 || c >= 0x7f) out.append(String.format(Locale.ROOT, "\\x%02x", c & 0xff));
            else out.append(c);
        }
        return out;
    }

    private static StringBuilder field(StringBuilder json, String name, String value) {
        json.append('"').append(name).append("\":");
        if (value == null) return json.append("null");
        json.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                default -> {
                    if (c < 0x20 || c == 0x7f) json.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    else json.append(c);
                }
            }
        }
        return json.append('"');
    }
}
