package dev.petrel.http;

/**
 * Non-negative decimal numbers as HTTP writes them ({@code 1*DIGIT}): Content-Length values,
 * byte positions of a Range, field values of that shape in any protocol. Parsed in one place so
 * that every protocol refuses the same texts.
 */
public final class Decimal {
    /**
     * At most this many digits: more than any length or position a server can serve, and few
     * enough that the value cannot overflow a {@code long}.
     */
    public static final int MAX_DIGITS = 18;

    private Decimal() {}

    /** The number {@code text} spells, or -1 when it is empty, has anything but digits, or more than {@link #MAX_DIGITS}. */
    public static long parse(CharSequence text) {
        int length = text.length();
        if (length == 0 || length > MAX_DIGITS) return -1;
        long value = 0;
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') return -1;
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /** The number the bytes of {@code bytes} from {@code from} to {@code to} (exclusive) spell, or -1 as above. */
    public static long parse(byte[] bytes, int from, int to) {
        int length = to - from;
        if (length <= 0 || length > MAX_DIGITS) return -1;
        long value = 0;
        for (int i = from; i < to; i++) {
            byte b = bytes[i];
            if (b < '0' || b > '9') return -1;
            value = value * 10 + (b - '0');
        }
        return value;
    }
}
