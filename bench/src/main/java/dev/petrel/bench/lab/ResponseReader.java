package dev.petrel.bench.lab;

import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * Finds where one HTTP/1.1 response ends in bytes that arrive in pieces, without keeping them: the
 * status code, then the body framed as RFC 9112 section 6.3 says (no body for 1xx, 204 and 304;
 * chunked when Transfer-Encoding ends in {@code chunked}; else Content-Length; else until the
 * connection closes). Enough for {@link IdleClient}, which only needs to know when a response is
 * complete and whether it was 2xx; it checks framing, not the rest of the grammar.
 *
 * <p>One reader per connection, {@link #reset()} between responses. A malformed response throws
 * {@link IllegalArgumentException} with a one-line reason.
 */
final class ResponseReader {
    /** Longest status, header, chunk-size or trailer line accepted, without its CRLF. */
    static final int MAX_LINE = 8192;
    /** Most header (or trailer) lines accepted in one response. */
    static final int MAX_FIELDS = 100;

    private enum State { STATUS_LINE, HEADERS, BODY, CHUNK_SIZE, CHUNK_DATA, CHUNK_END, TRAILERS, UNTIL_CLOSE, DONE }

    // a line is kept only until its LF: the reader holds no more than one line of any response
    private final StringBuilder line = new StringBuilder(64);
    private State state = State.STATUS_LINE;
    private int status = -1;
    private long contentLength = -1;
    private boolean chunked;
    private boolean otherCoding;
    private boolean close;
    private int fields;
    private long remaining;

    /**
     * Consumes bytes of {@code in} up to the end of the response and no further.
     *
     * @return whether the response is now complete; bytes after its end stay in {@code in}
     * @throws IllegalArgumentException if the bytes are not a response this reader can frame
     */
    boolean feed(ByteBuffer in) {
        while (in.hasRemaining() && state != State.DONE) {
            switch (state) {
                case BODY, CHUNK_DATA -> skip(in);
                case UNTIL_CLOSE -> in.position(in.limit());
                default -> {
                    String complete = line(in);
                    if (complete != null) onLine(complete);
                }
            }
        }
        return state == State.DONE;
    }

    /** At the end of the stream: whether that completes the response (a body delimited by the close). */
    boolean endOfStream() {
        if (state == State.UNTIL_CLOSE) state = State.DONE;
        return state == State.DONE;
    }

    /** Whether a whole response has been read. */
    boolean complete() {
        return state == State.DONE;
    }

    /** The status code, or -1 before the status line has been read. */
    int status() {
        return status;
    }

    /**
     * Whether the response asks for the connection to be closed after it: a {@code Connection}
     * field with the {@code close} option (as httpd sends with its last keep-alive response).
     */
    boolean closes() {
        return close;
    }

    /** Ready for the next response on the same connection. */
    void reset() {
        line.setLength(0);
        state = State.STATUS_LINE;
        status = -1;
        contentLength = -1;
        chunked = false;
        otherCoding = false;
        close = false;
        fields = 0;
        remaining = 0;
    }

    private void skip(ByteBuffer in) {
        int n = (int) Math.min(remaining, in.remaining());
        in.position(in.position() + n);
        remaining -= n;
        if (remaining == 0) state = state == State.BODY ? State.DONE : State.CHUNK_END;
    }

    /** The line ending at the next LF, without CR LF, or {@code null} when its end has not arrived yet. */
    private String line(ByteBuffer in) {
        while (in.hasRemaining()) {
            byte b = in.get();
            if (b == '\n') {
                int end = line.length();
                if (end > 0 && line.charAt(end - 1) == '\r') end--;
                String text = line.substring(0, end);
                line.setLength(0);
                return text;
            }
            if (line.length() >= MAX_LINE) throw new IllegalArgumentException("a line longer than " + MAX_LINE + " bytes");
            line.append((char) (b & 0xff));
        }
        return null;
    }

    private void onLine(String text) {
        switch (state) {
            case STATUS_LINE -> {
                status = statusCode(text);
                state = State.HEADERS;
            }
            case HEADERS -> {
                if (text.isEmpty()) endOfHead();
                else field(text);
            }
            case CHUNK_SIZE -> {
                remaining = chunkSize(text);
                state = remaining == 0 ? State.TRAILERS : State.CHUNK_DATA;
            }
            case CHUNK_END -> {
                if (!text.isEmpty()) throw new IllegalArgumentException("chunk data longer than its size");
                state = State.CHUNK_SIZE;
            }
            case TRAILERS -> {
                if (text.isEmpty()) state = State.DONE;
                else if (++fields > MAX_FIELDS) throw new IllegalArgumentException("more than " + MAX_FIELDS + " fields");
            }
            default -> throw new IllegalStateException(state.name());
        }
    }

    private static int statusCode(String text) {
        // HTTP-version SP 3DIGIT SP [reason]; a server may leave out the reason but not the space before it
        if (!text.startsWith("HTTP/") || text.length() < 12 || text.charAt(8) != ' '
                || (text.length() > 12 && text.charAt(12) != ' ')) {
            throw new IllegalArgumentException("not a status line: " + shortened(text));
        }
        String code = text.substring(9, 12);
        if (!code.chars().allMatch(Character::isDigit)) {
            throw new IllegalArgumentException("not a status line: " + shortened(text));
        }
        return Integer.parseInt(code);
    }

    private void field(String text) {
        if (++fields > MAX_FIELDS) throw new IllegalArgumentException("more than " + MAX_FIELDS + " fields");
        int colon = text.indexOf(':');
        if (colon <= 0) throw new IllegalArgumentException("not a field line: " + shortened(text));
        String name = text.substring(0, colon).toLowerCase(Locale.ROOT);
        String value = text.substring(colon + 1).strip();
        switch (name) {
            case "content-length" -> {
                if (value.isEmpty() || value.length() > 18 || !value.chars().allMatch(Character::isDigit)) {
                    throw new IllegalArgumentException("bad Content-Length: " + shortened(value));
                }
                long length = Long.parseLong(value);
                if (contentLength >= 0 && contentLength != length) {
                    throw new IllegalArgumentException("two different Content-Length values");
                }
                contentLength = length;
            }
            case "transfer-encoding" -> {
                // the last coding decides (RFC 9112 6.3): "gzip, chunked" is chunked, "chunked, gzip" is not
                String[] codings = value.split(",");
                String last = codings[codings.length - 1].strip().toLowerCase(Locale.ROOT);
                chunked = last.equals("chunked");
                otherCoding = !chunked;
            }
            case "connection" -> {
                for (String option : value.split(",")) {
                    if (option.strip().equalsIgnoreCase("close")) close = true;
                }
            }
            default -> {
                // no other field frames a response or ends the connection
            }
        }
    }

    private void endOfHead() {
        fields = 0;
        if (status / 100 == 1 || status == 204 || status == 304) state = State.DONE;
        else if (chunked) state = State.CHUNK_SIZE;
        else if (otherCoding) state = State.UNTIL_CLOSE;
        else if (contentLength == 0) state = State.DONE;
        else if (contentLength > 0) {
            remaining = contentLength;
            state = State.BODY;
        } else state = State.UNTIL_CLOSE;
    }

    private static long chunkSize(String text) {
        int end = text.indexOf(';');
        String hex = (end < 0 ? text : text.substring(0, end)).strip();
        if (hex.isEmpty() || hex.length() > 15 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw new IllegalArgumentException("bad chunk size: " + shortened(text));
        }
        return Long.parseLong(hex, 16);
    }

    private static String shortened(String text) {
        String shown = text.length() > 60 ? text.substring(0, 60) + "..." : text;
        return "'" + shown + "'";
    }
}
