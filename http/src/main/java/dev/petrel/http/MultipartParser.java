package dev.petrel.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Parses a {@code multipart/form-data} body (RFC 7578 over RFC 2046 section 5.1), pushed in pieces
 * of any size, one event at a time. Part bodies are streamed, never held: the parser keeps one
 * part's header section and at most a delimiter's length of body bytes that might begin a
 * delimiter (and keeps even those as a count, since they can only be the delimiter's own bytes).
 *
 * <p>{@link #parse(ByteBuffer, ByteBuffer)} consumes from {@code in} as far as it can and answers:
 * <ul>
 *   <li>{@link Event#NEED_MORE}: everything usable in {@code in} is consumed; call again with the
 *       bytes that follow;
 *   <li>{@link Event#PART_HEAD}: a part's header section is complete; see {@link #name()},
 *       {@link #filename()}, {@link #contentType()} and {@link #partHeaders()};
 *   <li>{@link Event#BODY}: at least one byte of the current part's body was written to
 *       {@code bodyOut}; drain it and call again;
 *   <li>{@link Event#PART_END}: the current part's body is complete;
 *   <li>{@link Event#COMPLETE}: the close delimiter was seen; the epilogue that follows is
 *       consumed and ignored, by this call and every later one;
 *   <li>{@link Event#ERROR}: the body is invalid; {@link #error()} says why: 400 for malformed
 *       input, 413 naming the {@link MultipartLimits} limit exceeded.
 * </ul>
 * COMPLETE and ERROR are final: every later call answers the same.
 *
 * <p>A body that ends before COMPLETE (for instance without its close delimiter) is only ever
 * NEED_MORE here, since the parser cannot know the input ended; the caller, which does, answers
 * 400 for a body that ends before COMPLETE.
 *
 * <p>Strict, as the rest of this codec: part header lines end in CRLF (a bare CR or LF is 400),
 * obs-fold, whitespace before a colon and control characters are 400, as in a request head. A
 * part must have one {@code Content-Disposition: form-data} with a {@code name} parameter (RFC
 * 7578 section 4.2), so an empty header section is 400 too. A line of a part body that begins with
 * the delimiter but goes on with something other than {@code --}, transport padding (SP, HTAB) or
 * CRLF is 400: RFC 2046 section 5.1.1 forbids a boundary at the start of a line in a part, and
 * reading it as data or as a delimiter would be a guess; the same holds in the preamble. A
 * boundary not preceded by CRLF is data. The CRLF ending a part's header section also serves as
 * the CRLF of a delimiter, since a part may have no body at all (RFC 2046:
 * {@code body-part := MIME-part-headers [CRLF *OCTET]}): the boundary right after the header
 * section ends the part.
 *
 * <p>Lenient where nothing depends on it: a body with no part at all ({@code --boundary--}, what
 * browsers send for a form without fields) completes; anything after the close delimiter is the
 * epilogue, ignored and not counted against {@link MultipartLimits#maxTotalBytes()}.
 */
public final class MultipartParser {
    /** What one call to {@link #parse} produced. */
    public enum Event {
        /** All of {@code in} that can be consumed was; more input is needed. */
        NEED_MORE,
        /** A part's header section is complete. */
        PART_HEAD,
        /** Some body bytes of the current part, at least one, were written to {@code bodyOut}. */
        BODY,
        /** The current part's body is complete. */
        PART_END,
        /** The close delimiter was seen; the epilogue is consumed and ignored. */
        COMPLETE,
        /** The body is invalid; see {@link #error()}. */
        ERROR
    }

    private enum State {
        /** Before the first delimiter: skipped, while looking for it. */
        PREAMBLE,
        /** After a delimiter: {@code --}, transport padding or CRLF. */
        AFTER_DELIMITER,
        /** After {@code CRLF--boundary-}: the second dash of a close delimiter. */
        CLOSE_DASH,
        /** Transport padding after a delimiter, up to its CR. */
        PADDING,
        /** The LF ending a delimiter line. */
        DELIMITER_LF,
        HEADERS,
        BODY,
        /** A delimiter ended the body; PART_END is the next event. */
        PART_END_DUE,
        COMPLETE,
        FAILED
    }

    private static final int MAX_BOUNDARY_LENGTH = 70;
    private static final byte[] CONTENT_DISPOSITION = "content-disposition".getBytes(StandardCharsets.US_ASCII);
    private static final boolean[] BCHAR = new boolean[128];

    static {
        // bchars (RFC 2046 section 5.1.1): bcharsnospace / " "
        for (int c = '0'; c <= '9'; c++) BCHAR[c] = true;
        for (int c = 'a'; c <= 'z'; c++) BCHAR[c] = true;
        for (int c = 'A'; c <= 'Z'; c++) BCHAR[c] = true;
        for (char c : "'()+_,-./:=? ".toCharArray()) BCHAR[c] = true;
    }

    private final MultipartLimits limits;
    private final ByteStore headerStore = new ByteStore(256);
    private final HeaderFields headers = new HeaderFields(headerStore);
    private final FieldSectionParser headerParser;

    /** {@code CRLF--boundary}: a delimiter, the CRLF before it included (RFC 2046 section 5.1.1). */
    private byte[] delimiter;
    private State state;
    /** How many bytes of {@link #delimiter} the latest input bytes match. */
    private int matched;
    /**
     * Where the match began: 2 when it began with a CRLF that was not data (the one ending a
     * header section, or none at the start of the body), so only bytes from here are held back.
     */
    private int matchStart;
    /** Held-back delimiter bytes {@code [releaseFrom, releaseTo)} that proved to be body data, still to be written. */
    private int releaseFrom;
    private int releaseTo;
    private int parts;
    private long partBytes;
    private long total;
    private String name;
    private String filename;
    private String contentType;
    private HttpError error;

    /**
     * A parser of a body whose parts are separated by {@code boundary}, as {@link #boundary(String)}
     * extracts it from the Content-Type.
     *
     * @throws IllegalArgumentException when {@code boundary} is not 1 to 70 bchars ending in other than a space
     */
    public MultipartParser(String boundary, MultipartLimits limits) {
        this.limits = limits;
        this.headerParser = new FieldSectionParser(headerStore, headers, limits.maxPartHeaderBytes(), limits.maxPartHeaderBytes());
        reset(boundary);
    }

    /**
     * Prepares for the next body, separated by {@code boundary}.
     *
     * @throws IllegalArgumentException when {@code boundary} is not 1 to 70 bchars ending in other than a space
     */
    public void reset(String boundary) {
        if (!isValidBoundary(boundary)) throw new IllegalArgumentException("not a valid multipart boundary");
        delimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        state = State.PREAMBLE;
        matched = matchStart = 2; // the first delimiter may open the body: as if a CRLF came before it
        releaseFrom = releaseTo = 0;
        parts = 0;
        partBytes = 0;
        total = 0;
        name = filename = contentType = null;
        error = null;
        headerStore.clear();
        headers.clear();
        headerParser.reset();
    }

    /**
     * The {@code boundary} parameter of a {@code multipart/form-data} Content-Type field value:
     * type and parameter names are case-insensitive, the value a token or a quoted-string, and it
     * must be 1 to 70 of RFC 2046's bchars, the last not a space.
     *
     * @return the boundary, or {@code null} when {@code contentTypeValue} is not multipart/form-data,
     *     is malformed, or has no valid boundary (or more than one)
     */
    public static String boundary(String contentTypeValue) {
        if (contentTypeValue == null) return null;
        byte[] bytes = new byte[contentTypeValue.length()];
        for (int i = 0; i < bytes.length; i++) {
            char c = contentTypeValue.charAt(i);
            if (c > 0xFF) return null;
            bytes[i] = (byte) c;
        }
        FieldParameters reader = new FieldParameters(bytes, 0, bytes.length);
        if (!reader.type("multipart/form-data")) return null;
        String boundary = null;
        FieldParameters.Found found;
        while ((found = reader.next()) == FieldParameters.Found.PARAMETER) {
            if (!reader.nameIs("boundary")) continue;
            if (boundary != null) return null; // which one? neither
            boundary = reader.value(StandardCharsets.ISO_8859_1);
        }
        if (found == FieldParameters.Found.MALFORMED || boundary == null) return null;
        return isValidBoundary(boundary) ? boundary : null;
    }

    private static boolean isValidBoundary(String boundary) {
        if (boundary == null || boundary.isEmpty() || boundary.length() > MAX_BOUNDARY_LENGTH) return false;
        if (boundary.charAt(boundary.length() - 1) == ' ') return false;
        for (int i = 0; i < boundary.length(); i++) {
            char c = boundary.charAt(i);
            if (c >= 128 || !BCHAR[c]) return false;
        }
        return true;
    }

    /** Why the body was rejected, after {@link Event#ERROR}; {@code null} before. */
    public HttpError error() {
        return error;
    }

    /**
     * The header fields of the current part, from {@link Event#PART_HEAD} until the next part's
     * header section starts. Values are ISO-8859-1, as in a request head.
     */
    public HeaderFields partHeaders() {
        return headers;
    }

    /**
     * The {@code name} parameter of the current part's Content-Disposition, unquoted, its bytes
     * decoded as UTF-8 (what browsers send; a byte that is not UTF-8 becomes U+FFFD).
     */
    public String name() {
        return name;
    }

    /**
     * The {@code filename} parameter of the current part's Content-Disposition, decoded as
     * {@link #name()} is, or {@code null} when absent; may be empty (a file input left empty).
     * It is what the client sent: a caller must not use it as a path.
     */
    public String filename() {
        return filename;
    }

    /** The current part's Content-Type value, or {@code null} when absent (text/plain, RFC 7578 section 4.4). */
    public String contentType() {
        return contentType;
    }

    /** How many parts have started so far. */
    public int parts() {
        return parts;
    }

    /**
     * Consumes bytes of the body from {@code in} and writes body bytes of the current part to
     * {@code bodyOut}; see the class comment for the events.
     *
     * @throws IllegalArgumentException when {@code bodyOut} has no room: drain it after each BODY
     */
    public Event parse(ByteBuffer in, ByteBuffer bodyOut) {
        if (!bodyOut.hasRemaining()) throw new IllegalArgumentException("bodyOut has no room");
        if (state == State.COMPLETE) {
            in.position(in.limit()); // the epilogue
            return Event.COMPLETE;
        }
        if (state == State.FAILED) return Event.ERROR;
        // The steps see only the bytes maxTotalBytes still allows, so the limit is checked here alone:
        // needing a byte beyond them is 413.
        int oldLimit = in.limit();
        int start = in.position();
        boolean capped = oldLimit - start > limits.maxTotalBytes() - total;
        if (capped) in.limit(start + (int) (limits.maxTotalBytes() - total));
        Event event;
        try {
            event = step(in, bodyOut, bodyOut.position());
        } finally {
            total += in.position() - start;
            in.limit(oldLimit);
        }
        if (event == Event.NEED_MORE && capped) return fail(413, "Multipart body larger than maxTotalBytes");
        if (event == Event.COMPLETE) in.position(in.limit());
        return event;
    }

    private Event step(ByteBuffer in, ByteBuffer out, int outStart) {
        while (true) {
            switch (state) {
                case PREAMBLE -> {
                    if (!in.hasRemaining()) return Event.NEED_MORE;
                    if (matchDelimiterByte(in)) state = State.AFTER_DELIMITER;
                }
                case BODY -> {
                    Event event = bodyStep(in, out, outStart);
                    if (event != null) return event;
                }
                case PART_END_DUE -> {
                    // Body bytes written in this call are reported first: BODY always comes before PART_END.
                    if (out.position() > outStart) return Event.BODY;
                    state = State.AFTER_DELIMITER;
                    return Event.PART_END;
                }
                case HEADERS -> {
                    ParseStatus status = headerParser.parse(in);
                    if (status == ParseStatus.NEED_MORE) return Event.NEED_MORE;
                    if (status == ParseStatus.ERROR) {
                        HttpError headerError = headerParser.error();
                        return headerError.status() == 431
                                ? fail(413, "Part header section larger than maxPartHeaderBytes")
                                : fail(400, "Part header section: " + headerError.reason());
                    }
                    return partHead();
                }
                case COMPLETE -> { return Event.COMPLETE; }
                case FAILED -> { return Event.ERROR; }
                default -> {
                    if (!in.hasRemaining()) return Event.NEED_MORE;
                    Event event = delimiterLineByte(in.get());
                    if (event != null) return event;
                }
            }
        }
    }

    /**
     * Moves body bytes to {@code out} up to the next delimiter; returns an event only when the
     * call must stop. Bytes that match the start of a delimiter are consumed but held back, as a
     * count, until a byte shows they are not one; then they are written from {@link #delimiter}.
     */
    private Event bodyStep(ByteBuffer in, ByteBuffer out, int outStart) {
        boolean wrote = out.position() > outStart;
        if (releaseFrom < releaseTo) {
            if (partBytes == limits.maxPartBytes()) return wrote ? Event.BODY : fail(413, "Part body larger than maxPartBytes");
            if (!out.hasRemaining()) return Event.BODY;
            int n = (int) Math.min(Math.min(releaseTo - releaseFrom, out.remaining()), limits.maxPartBytes() - partBytes);
            out.put(delimiter, releaseFrom, n);
            releaseFrom += n;
            partBytes += n;
            return null;
        }
        if (!in.hasRemaining()) return wrote ? Event.BODY : Event.NEED_MORE;
        if (matched == 0 && in.get(in.position()) != '\r') {
            // Until the next CR no delimiter can start: copy that run in one go.
            if (partBytes == limits.maxPartBytes()) return wrote ? Event.BODY : fail(413, "Part body larger than maxPartBytes");
            if (!out.hasRemaining()) return Event.BODY;
            int pos = in.position();
            int end = pos + (int) Math.min(Math.min(in.remaining(), out.remaining()), limits.maxPartBytes() - partBytes);
            int run = 1;
            while (pos + run < end && in.get(pos + run) != '\r') run++;
            out.put(out.position(), in, pos, run);
            out.position(out.position() + run);
            in.position(pos + run);
            partBytes += run;
            return null;
        }
        if (in.get(in.position()) == delimiter[matched]) {
            in.get();
            if (++matched == delimiter.length) {
                matched = matchStart = 0;
                state = State.PART_END_DUE;
            }
        } else {
            // Not a delimiter after all: the held-back bytes are data, and this byte is looked at afresh.
            // A delimiter begins with the only CR in it, so none can begin inside the bytes held back.
            // A CRLF that ended the header section is not data, so it is not written.
            releaseFrom = matchStart;
            releaseTo = matched;
            matched = matchStart = 0;
        }
        return null;
    }

    /** Consumes one preamble byte; whether it completed a delimiter. */
    private boolean matchDelimiterByte(ByteBuffer in) {
        byte b = in.get(in.position());
        if (b == delimiter[matched]) {
            in.get();
            if (++matched < delimiter.length) return false;
            matched = matchStart = 0;
            return true;
        }
        if (matched == 0) in.get(); // otherwise this byte may begin a delimiter: look at it again
        matched = matchStart = 0;
        return false;
    }

    /** One byte of what follows a delimiter, up to the CRLF that starts a part's header section. */
    private Event delimiterLineByte(byte b) {
        switch (state) {
            case AFTER_DELIMITER -> {
                if (b == '-') state = State.CLOSE_DASH;
                else if (HttpChars.isOws(b)) state = State.PADDING;
                else if (b == '\r') state = State.DELIMITER_LF;
                else return fail(400, "Boundary at the start of a line not followed by CRLF or --");
            }
            case CLOSE_DASH -> {
                if (b != '-') return fail(400, "Boundary at the start of a line not followed by CRLF or --");
                state = State.COMPLETE;
                return Event.COMPLETE;
            }
            case PADDING -> {
                if (b == '\r') state = State.DELIMITER_LF;
                else if (!HttpChars.isOws(b)) return fail(400, "Transport padding after a boundary not followed by CRLF");
            }
            case DELIMITER_LF -> {
                if (b != '\n') return fail(400, "Bare CR after a boundary");
                if (parts == limits.maxParts()) return fail(413, "More parts than maxParts");
                parts++;
                headerStore.clear();
                headers.clear();
                headerParser.reset();
                name = filename = contentType = null;
                state = State.HEADERS;
            }
            default -> throw new AssertionError(state);
        }
        return null;
    }

    /** Checks the part's header section (RFC 7578 section 4.2) and starts its body. */
    private Event partHead() {
        int disposition = -1;
        for (int i = 0; i < headers.size(); i++) {
            if (!headers.nameIs(i, CONTENT_DISPOSITION)) continue;
            if (disposition >= 0) return fail(400, "Part with more than one Content-Disposition");
            disposition = i;
        }
        if (disposition < 0) return fail(400, "Part without Content-Disposition");
        int start = headers.valueStart(disposition);
        FieldParameters reader = new FieldParameters(headers.bytes(), start, start + headers.valueLength(disposition));
        if (!reader.type("form-data")) return fail(400, "Part Content-Disposition is not form-data");
        FieldParameters.Found found;
        while ((found = reader.next()) == FieldParameters.Found.PARAMETER) {
            if (reader.nameIs("name")) {
                if (name != null) return fail(400, "Part Content-Disposition with more than one name");
                name = reader.value(StandardCharsets.UTF_8);
            } else if (reader.nameIs("filename")) {
                if (filename != null) return fail(400, "Part Content-Disposition with more than one filename");
                filename = reader.value(StandardCharsets.UTF_8);
            }
        }
        if (found == FieldParameters.Found.MALFORMED) return fail(400, "Malformed part Content-Disposition");
        if (name == null) return fail(400, "Part Content-Disposition without a name");
        if (headers.all("Content-Type").size() > 1) return fail(400, "Part with more than one Content-Type");
        contentType = headers.first("Content-Type");
        partBytes = 0;
        // The CRLF ending the header section may also begin the delimiter: a part may have no body
        // at all, not even an empty one (RFC 2046 section 5.1.1: body-part := MIME-part-headers [CRLF *OCTET]).
        matched = matchStart = 2;
        state = State.BODY;
        return Event.PART_HEAD;
    }

    private Event fail(int status, String reason) {
        error = new HttpError(status, reason);
        state = State.FAILED;
        return Event.ERROR;
    }
}
