package dev.petrel.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The field lines of a parsed head or trailer section, in the order received. Names and values
 * stay as bytes until asked for; lookups by name compare bytes, ASCII case-insensitively, and
 * allocate nothing. Values are decoded as ISO-8859-1 so that obs-text bytes survive.
 *
 * <p>A view over the parser's storage: it is valid until the parser that made it starts on the
 * next message.
 */
public final class HeaderFields {
    private static final int STRIDE = 4; // nameStart, nameLength, valueStart, valueLength
    private static final HeaderFields EMPTY = new HeaderFields(new ByteStore(1)); // never added to

    /** No field lines: what a message without a trailer section has for trailers. */
    public static HeaderFields empty() {
        return EMPTY;
    }

    private final ByteStore store;
    private int[] index = new int[16 * STRIDE];
    private int count;

    HeaderFields(ByteStore store) {
        this.store = store;
    }

    void add(int nameStart, int nameLength, int valueStart, int valueLength) {
        int at = count * STRIDE;
        if (at + STRIDE > index.length) index = Arrays.copyOf(index, index.length * 2);
        index[at] = nameStart;
        index[at + 1] = nameLength;
        index[at + 2] = valueStart;
        index[at + 3] = valueLength;
        count++;
    }

    void clear() {
        count = 0;
    }

    /** The number of field lines. */
    public int size() {
        return count;
    }

    /** The name of field line {@code i}, as received. */
    public String name(int i) {
        checkIndex(i);
        return new String(store.array(), index[i * STRIDE], index[i * STRIDE + 1], StandardCharsets.ISO_8859_1);
    }

    /** The value of field line {@code i}, without leading or trailing whitespace. */
    public String value(int i) {
        checkIndex(i);
        return new String(store.array(), index[i * STRIDE + 2], index[i * STRIDE + 3], StandardCharsets.ISO_8859_1);
    }

    /** The first value of the named field, or {@code null} when absent. */
    public String first(String name) {
        for (int i = 0; i < count; i++) {
            if (nameEquals(i, name)) return value(i);
        }
        return null;
    }

    /** Every value of the named field, in order; empty when absent. */
    public List<String> all(String name) {
        List<String> values = new ArrayList<>(2);
        for (int i = 0; i < count; i++) {
            if (nameEquals(i, name)) values.add(value(i));
        }
        return values;
    }

    /** Whether the named field is present. */
    public boolean contains(String name) {
        for (int i = 0; i < count; i++) {
            if (nameEquals(i, name)) return true;
        }
        return false;
    }

    /**
     * Whether any value of the named field, read as a comma-separated list, holds {@code token}
     * (case-insensitive), as for {@code Connection: keep-alive, Upgrade}.
     */
    public boolean containsToken(String name, String token) {
        for (int i = 0; i < count; i++) {
            if (nameEquals(i, name) && listContains(i, token)) return true;
        }
        return false;
    }

    /** Whether field line {@code i} has the given name, given in lower case. */
    boolean nameIs(int i, byte[] lowerName) {
        return HttpChars.equalsIgnoreCase(store.array(), index[i * STRIDE], index[i * STRIDE + 1], lowerName);
    }

    int valueStart(int i) {
        return index[i * STRIDE + 2];
    }

    int valueLength(int i) {
        return index[i * STRIDE + 3];
    }

    byte[] bytes() {
        return store.array();
    }

    private boolean nameEquals(int i, String name) {
        int start = index[i * STRIDE];
        int length = index[i * STRIDE + 1];
        if (length != name.length()) return false;
        byte[] bytes = store.array();
        for (int k = 0; k < length; k++) {
            int c = name.charAt(k);
            if (c > 0x7F || HttpChars.lower(bytes[start + k]) != HttpChars.lower(c)) return false;
        }
        return true;
    }

    /** Whether the value of field line {@code i}, read as a comma-separated list, holds {@code token}. */
    boolean listContains(int i, String token) {
        byte[] bytes = store.array();
        int pos = valueStart(i);
        int end = pos + valueLength(i);
        while (pos < end) {
            while (pos < end && (bytes[pos] == ',' || HttpChars.isOws(bytes[pos]))) pos++;
            int elementStart = pos;
            while (pos < end && bytes[pos] != ',') pos++;
            int elementEnd = pos;
            while (elementEnd > elementStart && HttpChars.isOws(bytes[elementEnd - 1])) elementEnd--;
            if (elementEnd - elementStart == token.length() && regionEqualsIgnoreCase(bytes, elementStart, token)) {
                return true;
            }
        }
        return false;
    }

    private static boolean regionEqualsIgnoreCase(byte[] bytes, int start, String token) {
        for (int k = 0; k < token.length(); k++) {
            if (HttpChars.lower(bytes[start + k]) != HttpChars.lower(token.charAt(k))) return false;
        }
        return true;
    }

    private void checkIndex(int i) {
        if (i < 0 || i >= count) throw new IndexOutOfBoundsException(i);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) text.append(name(i)).append(": ").append(value(i)).append('\n');
        return text.toString();
    }
}
