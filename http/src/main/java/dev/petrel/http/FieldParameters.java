package dev.petrel.http;

import java.nio.charset.Charset;

/**
 * Reads a field value made of a leading type and parameters, the shape of {@code Content-Type}
 * (RFC 9110 section 8.3.1) and {@code Content-Disposition} (RFC 6266 section 4.1):
 * {@code type *( OWS ";" OWS [ name BWS "=" BWS ( token / quoted-string ) ] )}. Empty parameters
 * (a trailing or doubled {@code ;}) are skipped as RFC 9110 allows; quoted-pairs are unescaped.
 * Anything else is malformed: a reader of such values that guessed would disagree with others.
 *
 * <p>One reader walks one value: {@link #type} first, then {@link #next} until it says there are
 * no more parameters. The value bytes are not copied, so they must stay put while it reads.
 */
final class FieldParameters {
    /** What {@link #next} found. */
    enum Found { PARAMETER, END, MALFORMED }

    private final byte[] bytes;
    private final int end;
    private final ByteStore value = new ByteStore(32);
    private int pos;
    private int nameStart;
    private int nameEnd;

    FieldParameters(byte[] bytes, int start, int end) {
        this.bytes = bytes;
        this.pos = start;
        this.end = end;
    }

    /**
     * Reads the leading type (tchars and {@code /}) and whether it equals {@code lowerType},
     * ASCII case-insensitively. Leading and trailing whitespace is not part of it.
     */
    boolean type(String lowerType) {
        skipOws();
        int start = pos;
        while (pos < end && (HttpChars.isTchar(bytes[pos]) || bytes[pos] == '/')) pos++;
        int length = pos - start;
        if (length != lowerType.length()) return false;
        for (int i = 0; i < length; i++) {
            if (HttpChars.lower(bytes[start + i]) != lowerType.charAt(i)) return false;
        }
        return true;
    }

    /** Moves to the next parameter, whose name and value are then available. */
    Found next() {
        while (true) {
            skipOws();
            if (pos == end) return Found.END;
            if (bytes[pos] != ';') return Found.MALFORMED;
            pos++;
            skipOws();
            if (pos < end && bytes[pos] != ';') break; // an empty parameter is skipped
        }
        nameStart = pos;
        while (pos < end && HttpChars.isTchar(bytes[pos])) pos++;
        nameEnd = pos;
        if (nameEnd == nameStart) return Found.MALFORMED;
        skipOws();
        if (pos == end || bytes[pos] != '=') return Found.MALFORMED;
        pos++;
        skipOws();
        value.clear();
        if (pos < end && bytes[pos] == '"') return quotedString() ? Found.PARAMETER : Found.MALFORMED;
        int valueStart = pos;
        while (pos < end && HttpChars.isTchar(bytes[pos])) pos++;
        if (pos == valueStart) return Found.MALFORMED;
        value.append(bytes, valueStart, pos - valueStart);
        return Found.PARAMETER;
    }

    /** Whether the current parameter's name is {@code lowerName}, ASCII case-insensitively. */
    boolean nameIs(String lowerName) {
        if (nameEnd - nameStart != lowerName.length()) return false;
        for (int i = 0; i < lowerName.length(); i++) {
            if (HttpChars.lower(bytes[nameStart + i]) != lowerName.charAt(i)) return false;
        }
        return true;
    }

    /** The current parameter's value, unquoted and unescaped, decoded with {@code charset}. */
    String value(Charset charset) {
        return new String(value.array(), 0, value.length(), charset);
    }

    /** quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE (RFC 9110 section 5.6.4). */
    private boolean quotedString() {
        pos++; // the opening quote
        while (pos < end) {
            byte b = bytes[pos++];
            if (b == '"') return true;
            if (b == '\\') {
                if (pos == end || !isQuotable(bytes[pos])) return false;
                value.append(bytes[pos++]);
            } else if (isQuotable(b)) {
                value.append(b);
            } else {
                return false;
            }
        }
        return false; // no closing quote
    }

    /** HTAB, SP, VCHAR or obs-text: what qdtext and a quoted-pair may hold. */
    private static boolean isQuotable(byte b) {
        return HttpChars.isFieldVchar(b) || HttpChars.isOws(b);
    }

    private void skipOws() {
        while (pos < end && HttpChars.isOws(bytes[pos])) pos++;
    }
}
