package dev.petrel.http;

/**
 * Character classes of RFC 9110 and RFC 9112, as byte tests. Everything in the codec works on
 * bytes; nothing here allocates.
 */
public final class HttpChars {
    private static final boolean[] TCHAR = new boolean[256];
    private static final boolean[] FIELD_VCHAR = new boolean[256];
    private static final boolean[] TARGET = new boolean[256];

    static {
        for (int c = '0'; c <= '9'; c++) TCHAR[c] = true;
        for (int c = 'a'; c <= 'z'; c++) TCHAR[c] = true;
        for (int c = 'A'; c <= 'Z'; c++) TCHAR[c] = true;
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) TCHAR[c] = true;
        // field-vchar = VCHAR / obs-text (RFC 9110 section 5.5)
        for (int c = 0x21; c <= 0x7E; c++) FIELD_VCHAR[c] = true;
        for (int c = 0x80; c <= 0xFF; c++) FIELD_VCHAR[c] = true;
        // request-target: visible ASCII only; '#' never appears in a target (RFC 9112 section 3.2)
        for (int c = 0x21; c <= 0x7E; c++) TARGET[c] = c != '#';
    }

    private HttpChars() {}

    /** Whether {@code b} may appear in a token (method, field name, coding name). */
    public static boolean isTchar(int b) {
        return TCHAR[b & 0xFF];
    }

    /** Whether {@code b} is a visible character of a field value, obs-text included. */
    public static boolean isFieldVchar(int b) {
        return FIELD_VCHAR[b & 0xFF];
    }

    /** Whether {@code b} may appear in a request-target. */
    public static boolean isTargetChar(int b) {
        return TARGET[b & 0xFF];
    }

    /** Whether {@code b} is optional whitespace (SP or HTAB). */
    public static boolean isOws(int b) {
        return b == ' ' || b == '\t';
    }

    /** Lower-cases one ASCII byte; other bytes are returned as they are. */
    public static int lower(int b) {
        return b >= 'A' && b <= 'Z' ? b + 32 : b;
    }

    /** Whether {@code s} is a non-empty token. */
    public static boolean isToken(CharSequence s) {
        if (s.isEmpty()) return false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c > 0xFF || !TCHAR[c]) return false;
        }
        return true;
    }

    /**
     * Whether {@code s} may be sent as a field value: field-vchar, SP and HTAB only. A CR or LF
     * here would let a caller split the response, so writers refuse it.
     */
    public static boolean isFieldValue(CharSequence s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c > 0xFF || !(FIELD_VCHAR[c] || c == ' ' || c == '\t')) return false;
        }
        return true;
    }

    /** ASCII case-insensitive comparison of {@code len} bytes of {@code a} against {@code lowerName}. */
    static boolean equalsIgnoreCase(byte[] a, int off, int len, byte[] lowerName) {
        if (len != lowerName.length) return false;
        for (int i = 0; i < len; i++) {
            if (lower(a[off + i]) != lowerName[i]) return false;
        }
        return true;
    }
}
