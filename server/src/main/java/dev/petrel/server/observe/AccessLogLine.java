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
 *
 * <p>A WebSocket session gets a line of its own when it ends ({@link #formatSession}), besides the
 * line of its handshake's exchange (status 101) written when the connection switched.
 */
final class AccessLogLine {
    /** RFC 6455's 1006: the connection ended without a close frame, the session's analogue of a cut response. */
    private static final int ABNORMAL_CLOSE = 1006;
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

    /**
     * The line for a WebSocket session opened by {@code handshake}, written when it ends at
     * {@code now}: the handshake's request line with status 101, the payload bytes sent for the
     * body bytes, and the session's own fields after the NCSA ones (after a marker
     * {@code websocket}), or in JSON after the usual keys.
     */
    static String formatSession(AccessLog.Format format, HandshakeLine handshake, WebSocketSessionRecorder.SessionTotals session,
                                Instant now, ZoneId zone) {
        String duration = String.format(Locale.ROOT, "%.3f", session.durationNanos() / 1e6);
        if (format == AccessLog.Format.JSON) {
            StringBuilder json = new StringBuilder(320).append('{');
            field(json, "time", now.toString()).append(',');
            field(json, "remote", handshake.remote()).append(',');
            field(json, "method", handshake.method()).append(',');
            field(json, "target", handshake.target()).append(',');
            field(json, "protocol", handshake.protocol()).append(',');
            field(json, "scheme", handshake.scheme()).append(',');
            field(json, "host", handshake.host()).append(',');
            json.append("\"status\":101,");
            json.append("\"bytes\":").append(session.bytesSent()).append(',');
            json.append("\"complete\":").append(session.closeCode() != ABNORMAL_CLOSE).append(',');
            json.append("\"duration_ms\":").append(duration).append(',');
            field(json, "referer", handshake.referer()).append(',');
            field(json, "user_agent", handshake.userAgent()).append(',');
            json.append("\"websocket\":true,");
            json.append("\"close_code\":").append(session.closeCode()).append(',');
            json.append("\"messages_received\":").append(session.messagesReceived()).append(',');
            json.append("\"bytes_received\":").append(session.bytesReceived()).append(',');
            json.append("\"messages_sent\":").append(session.messagesSent()).append(',');
            json.append("\"bytes_sent\":").append(session.bytesSent());
            return json.append('}').toString();
        }
        StringBuilder line = new StringBuilder(240);
        line.append(handshake.remote()).append(" - - [").append(NCSA_TIME.format(ZonedDateTime.ofInstant(now, zone))).append("] \"");
        quoted(line, handshake.method() + " " + handshake.target() + " " + handshake.protocol()).append("\" 101 ");
        line.append(session.bytesSent() == 0 ? "-" : Long.toString(session.bytesSent()));
        if (format == AccessLog.Format.COMBINED) {
            line.append(" \"");
            quoted(line, handshake.referer() == null ? "-" : handshake.referer()).append("\" \"");
            quoted(line, handshake.userAgent() == null ? "-" : handshake.userAgent()).append('"');
        }
        line.append(" websocket close_code=").append(session.closeCode()).append(" duration_ms=").append(duration)
                .append(" messages_received=").append(session.messagesReceived())
                .append(" bytes_received=").append(session.bytesReceived())
                .append(" messages_sent=").append(session.messagesSent())
                .append(" bytes_sent=").append(session.bytesSent());
        return line.toString();
    }

    static String address(InetSocketAddress address) {
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
        return JsonStrings.append(json.append('"').append(name).append("\":"), value);
    }
}
