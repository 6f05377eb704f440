package dev.petrel.http;

import java.nio.ByteBuffer;

/**
 * Parses a field section: field lines up to and including the empty line that ends them
 * (RFC 9112 section 5). One parser serves both the header section of a request and the trailer
 * section of a chunked body, so the rules below hold for both.
 *
 * <p>Strict by design: a bare CR or LF, whitespace between a field name and its colon, obs-fold
 * (a line that starts with whitespace), and control characters in a value are each rejected with
 * 400, since a lenient reading of any of them is a known request-smuggling vector. Too many lines
 * or too many bytes give 431.
 */
final class FieldSectionParser {
    private enum State { LINE_START, NAME, BEFORE_VALUE, VALUE, LINE_CR, END_CR, DONE }

    private final ByteStore store;
    private final HeaderFields fields;
    private final int maxSectionSize;
    private final int maxFieldCount;

    private State state = State.LINE_START;
    private int consumed;
    private int nameStart;
    private int nameEnd;
    private int valueStart;
    private int valueEnd;
    private HttpError error;

    FieldSectionParser(ByteStore store, HeaderFields fields, int maxSectionSize, int maxFieldCount) {
        this.store = store;
        this.fields = fields;
        this.maxSectionSize = maxSectionSize;
        this.maxFieldCount = maxFieldCount;
    }

    void reset() {
        state = State.LINE_START;
        consumed = 0;
        error = null;
    }

    HttpError error() {
        return error;
    }

    /** Consumes bytes of the section from {@code in}; stops right after its final CRLF. */
    ParseStatus parse(ByteBuffer in) {
        if (error != null) return ParseStatus.ERROR;
        int pos = in.position();
        int limit = in.limit();
        try {
            while (pos < limit) {
                if (state == State.DONE) return ParseStatus.COMPLETE;
                if (++consumed > maxSectionSize) return fail(431, "Request header fields too large");
                byte b = in.get(pos++);
                switch (state) {
                    case LINE_START -> {
                        if (b == '\r') {
                            state = State.END_CR;
                        } else if (HttpChars.isTchar(b)) {
                            nameStart = store.length();
                            store.append(b);
                            state = State.NAME;
                        } else if (HttpChars.isOws(b)) {
                            return fail(400, "Line folding (obs-fold) or leading whitespace in a field line");
                        } else if (b == '\n') {
                            return fail(400, "Bare LF in the header section");
                        } else {
                            return fail(400, "Invalid character in a field name");
                        }
                    }
                    case NAME -> {
                        if (HttpChars.isTchar(b)) {
                            store.append(b);
                        } else if (b == ':') {
                            nameEnd = store.length();
                            state = State.BEFORE_VALUE;
                        } else if (HttpChars.isOws(b)) {
                            return fail(400, "Whitespace between a field name and its colon");
                        } else {
                            return fail(400, "Invalid character in a field name");
                        }
                    }
                    case BEFORE_VALUE -> {
                        if (HttpChars.isOws(b)) {
                            // optional whitespace before the value is not part of it
                        } else if (b == '\r') {
                            valueStart = valueEnd = store.length();
                            state = State.LINE_CR;
                        } else if (HttpChars.isFieldVchar(b)) {
                            valueStart = store.length();
                            store.append(b);
                            valueEnd = store.length();
                            state = State.VALUE;
                        } else {
                            return failInValue(b);
                        }
                    }
                    case VALUE -> {
                        if (HttpChars.isFieldVchar(b)) {
                            store.append(b);
                            valueEnd = store.length();
                        } else if (HttpChars.isOws(b)) {
                            store.append(b); // kept only if a visible character follows
                        } else if (b == '\r') {
                            state = State.LINE_CR;
                        } else {
                            return failInValue(b);
                        }
                    }
                    case LINE_CR -> {
                        if (b != '\n') return fail(400, "Bare CR in a field line");
                        if (fields.size() == maxFieldCount) return fail(431, "Too many header fields");
                        fields.add(nameStart, nameEnd - nameStart, valueStart, valueEnd - valueStart);
                        state = State.LINE_START;
                    }
                    case END_CR -> {
                        if (b != '\n') return fail(400, "Bare CR at the end of the header section");
                        state = State.DONE;
                        in.position(pos);
                        return ParseStatus.COMPLETE;
                    }
                    case DONE -> throw new AssertionError("unreachable");
                }
            }
            in.position(pos);
            return state == State.DONE ? ParseStatus.COMPLETE : ParseStatus.NEED_MORE;
        } finally {
            if (error != null) in.position(pos);
        }
    }

    private ParseStatus failInValue(byte b) {
        return fail(400, b == '\n' ? "Bare LF in a field line" : "Invalid character in a field value");
    }

    private ParseStatus fail(int status, String reason) {
        error = new HttpError(status, reason);
        return ParseStatus.ERROR;
    }
}
