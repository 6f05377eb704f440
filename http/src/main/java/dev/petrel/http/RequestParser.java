package dev.petrel.http;

import java.nio.ByteBuffer;

/**
 * A push parser for HTTP/1.1 request heads (RFC 9112): feed it the bytes someone else read, in
 * pieces of any size, and it answers {@link ParseStatus#NEED_MORE}, {@link ParseStatus#COMPLETE}
 * (the {@link #head()} is ready and the buffer is positioned at the first byte after it) or
 * {@link ParseStatus#ERROR} (the {@link #error()} names the status to answer with).
 *
 * <p>It does no I/O, holds no threads and reads no clock. It copies head bytes as it consumes
 * them, so callers may compact or reuse their buffer between calls, and it keeps its storage
 * for the next request: parse, handle, {@link #reset()}, parse again.
 *
 * <p>What it rejects, and with which status:
 * <ul>
 *   <li>400: malformed request line, bare CR or LF, invalid characters, whitespace before a
 *       field colon, obs-fold, missing or repeated Host on HTTP/1.1, invalid or conflicting
 *       Content-Length, Content-Length with Transfer-Encoding, chunked not last, a target form
 *       the method does not allow;</li>
 *   <li>413: a Content-Length above {@link HttpLimits#maxBodySize()};</li>
 *   <li>414: a request line longer than the limit while reading the target;</li>
 *   <li>417: an expectation other than 100-continue;</li>
 *   <li>431: too many header fields or too many header bytes;</li>
 *   <li>501: a transfer coding other than chunked;</li>
 *   <li>505: a protocol version other than HTTP/1.x.</li>
 * </ul>
 */
public final class RequestParser {
    private enum State { LEADING_CRLF, LEADING_LF, METHOD, TARGET, VERSION, LINE_LF, FIELDS, COMPLETE, FAILED }

    /** Empty lines tolerated before a request line (RFC 9112 section 2.2 says to ignore at least one). */
    private static final int MAX_LEADING_EMPTY_LINES = 4;

    private final HttpLimits limits;
    private final ByteStore store = new ByteStore(512);
    private final HeaderFields fields = new HeaderFields(store);
    private final RequestHead head = new RequestHead(fields);
    private final FieldSectionParser fieldParser;
    // the same target and Host, request after request on a connection, give back the same Strings
    private final RecentText targetText = new RecentText();
    private final RecentText hostText = new RecentText();
    private final TargetMemo lastTarget = new TargetMemo();

    private State state = State.LEADING_CRLF;
    private int leadingEmptyLines;
    private int lineLength;
    private int methodEnd;
    private int targetStart;
    private int targetEnd;
    private int versionStart;
    private HttpError error;

    /** A parser enforcing {@code limits}. */
    public RequestParser(HttpLimits limits) {
        this.limits = limits;
        this.fieldParser = new FieldSectionParser(store, fields, limits.maxHeaderSectionSize(), limits.maxHeaderCount());
        head.clear();
    }

    /** A parser with {@link HttpLimits#DEFAULT}. */
    public RequestParser() {
        this(HttpLimits.DEFAULT);
    }

    /** Prepares for the next request on the same connection; the previous head becomes invalid. */
    public void reset() {
        state = State.LEADING_CRLF;
        leadingEmptyLines = 0;
        lineLength = 0;
        error = null;
        store.clear();
        fields.clear();
        fieldParser.reset();
        head.clear();
    }

    /**
     * Whether this parser has consumed any byte of a request since the last reset: the
     * difference between an idle connection and one in the middle of sending a head.
     */
    public boolean started() {
        return state != State.LEADING_CRLF || leadingEmptyLines > 0;
    }

    /** The head, after {@link ParseStatus#COMPLETE}. */
    public RequestHead head() {
        if (state != State.COMPLETE) throw new IllegalStateException("no complete head");
        return head;
    }

    /** Why the input was rejected, after {@link ParseStatus#ERROR}. */
    public HttpError error() {
        return error;
    }

    /**
     * Consumes bytes of the request head from {@code in}, from its position to its limit, and
     * stops right after the head.
     */
    public ParseStatus parse(ByteBuffer in) {
        switch (state) {
            case COMPLETE -> { return ParseStatus.COMPLETE; }
            case FAILED -> { return ParseStatus.ERROR; }
            case FIELDS -> { return parseFields(in); }
            default -> { }
        }
        int pos = in.position();
        int limit = in.limit();
        while (pos < limit) {
            byte b = in.get(pos++);
            switch (state) {
                case LEADING_CRLF -> {
                    if (b == '\r') {
                        state = State.LEADING_LF;
                    } else if (HttpChars.isTchar(b)) {
                        store.append(b);
                        lineLength = 1;
                        state = State.METHOD;
                    } else {
                        return fail(in, pos, 400, b == '\n' ? "Bare LF before the request line" : "Invalid character in the method");
                    }
                }
                case LEADING_LF -> {
                    if (b != '\n') return fail(in, pos, 400, "Bare CR before the request line");
                    if (++leadingEmptyLines > MAX_LEADING_EMPTY_LINES) return fail(in, pos, 400, "Too many empty lines before the request line");
                    state = State.LEADING_CRLF;
                }
                case METHOD -> {
                    if (++lineLength > limits.maxRequestLineLength()) return fail(in, pos, 400, "Request line too long");
                    if (HttpChars.isTchar(b)) {
                        store.append(b);
                    } else if (b == ' ') {
                        methodEnd = store.length();
                        targetStart = methodEnd;
                        state = State.TARGET;
                    } else {
                        return fail(in, pos, 400, "Invalid character in the method");
                    }
                }
                case TARGET -> {
                    if (++lineLength > limits.maxRequestLineLength()) return fail(in, pos, 414, "Request target too long");
                    if (HttpChars.isTargetChar(b)) {
                        store.append(b);
                    } else if (b == ' ' && store.length() > targetStart) {
                        targetEnd = store.length();
                        versionStart = targetEnd;
                        state = State.VERSION;
                    } else {
                        return fail(in, pos, 400, "Invalid character in the request target");
                    }
                }
                case VERSION -> {
                    if (b == '\r') { // the CRLF does not count against maxRequestLineLength
                        HttpError versionError = readVersion();
                        if (versionError != null) return fail(in, pos, versionError.status(), versionError.reason());
                        state = State.LINE_LF;
                    } else if (++lineLength > limits.maxRequestLineLength()) {
                        return fail(in, pos, 400, "Request line too long");
                    } else if (store.length() - versionStart == 8) {
                        return fail(in, pos, 400, "Malformed protocol version");
                    } else {
                        store.append(b);
                    }
                }
                case LINE_LF -> {
                    if (b != '\n') return fail(in, pos, 400, "Bare CR in the request line");
                    state = State.FIELDS;
                    in.position(pos);
                    return parseFields(in);
                }
                default -> throw new AssertionError(state);
            }
        }
        in.position(pos);
        return ParseStatus.NEED_MORE;
    }

    private ParseStatus parseFields(ByteBuffer in) {
        ParseStatus status = fieldParser.parse(in);
        if (status == ParseStatus.NEED_MORE) return status;
        if (status == ParseStatus.ERROR) {
            error = fieldParser.error();
            state = State.FAILED;
            return status;
        }
        byte[] bytes = store.array();
        head.method = Methods.of(bytes, 0, methodEnd);
        head.target = targetText.of(bytes, targetStart, targetEnd - targetStart);
        HttpError invalid = lastTarget.restore(head) ? null : RequestTargets.interpret(head);
        if (invalid == null) {
            lastTarget.remember(head);
            invalid = HeadSemantics.interpret(head, limits, hostText);
        }
        if (invalid != null) {
            error = invalid;
            state = State.FAILED;
            return ParseStatus.ERROR;
        }
        state = State.COMPLETE;
        return ParseStatus.COMPLETE;
    }

    /** HTTP-version = "HTTP/" DIGIT "." DIGIT; 1.0 and 1.1 are served, a later 1.x as 1.1, others get 505. */
    private HttpError readVersion() {
        byte[] b = store.array();
        int v = versionStart;
        if (store.length() - v != 8 || b[v] != 'H' || b[v + 1] != 'T' || b[v + 2] != 'T' || b[v + 3] != 'P'
                || b[v + 4] != '/' || !isDigit(b[v + 5]) || b[v + 6] != '.' || !isDigit(b[v + 7])) {
            return HttpError.badRequest("Malformed protocol version");
        }
        if (b[v + 5] != '1') return new HttpError(505, "HTTP version not supported");
        head.version = b[v + 7] == '0' ? HttpVersion.HTTP_1_0 : HttpVersion.HTTP_1_1;
        return null;
    }

    /**
     * What {@link RequestTargets#interpret} made of the last valid target, to copy instead of
     * splitting the target again (and allocating its path and query) when the same target
     * {@code String} comes back with the same method.
     */
    private static final class TargetMemo {
        private String method;
        private String target;
        private TargetForm form;
        private String rawPath;
        private String query;
        private String authority;

        boolean restore(RequestHead head) {
            if (head.target != target || head.method != method) return false;
            head.form = form;
            head.rawPath = rawPath;
            head.query = query;
            head.authority = authority;
            return true;
        }

        void remember(RequestHead head) {
            method = head.method;
            target = head.target;
            form = head.form;
            rawPath = head.rawPath;
            query = head.query;
            authority = head.authority;
        }
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    private ParseStatus fail(ByteBuffer in, int pos, int status, String reason) {
        in.position(pos);
        error = new HttpError(status, reason);
        state = State.FAILED;
        return ParseStatus.ERROR;
    }
}
