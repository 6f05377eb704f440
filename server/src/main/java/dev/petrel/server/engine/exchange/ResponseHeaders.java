package dev.petrel.server.engine.exchange;

import dev.petrel.http.HttpChars;
import java.util.Arrays;

/** The headers a handler sets, in order, validated as they are set. Reused across exchanges. */
final class ResponseHeaders {
    private String[] names = new String[8];
    private String[] values = new String[8];
    private int count;

    void set(String name, String value) {
        remove(name);
        add(name, value);
    }

    void add(String name, String value) {
        if (name == null || !HttpChars.isToken(name)) throw new IllegalArgumentException("invalid header name: " + name);
        if (value == null || !HttpChars.isFieldValue(value)) {
            throw new IllegalArgumentException("invalid value for header " + name + ": control characters are not allowed");
        }
        if (count == names.length) {
            names = Arrays.copyOf(names, count * 2);
            values = Arrays.copyOf(values, count * 2);
        }
        names[count] = name;
        values[count] = value;
        count++;
    }

    String get(String name) {
        for (int i = 0; i < count; i++) {
            if (names[i].equalsIgnoreCase(name)) return values[i];
        }
        return null;
    }

    void remove(String name) {
        int kept = 0;
        for (int i = 0; i < count; i++) {
            if (!names[i].equalsIgnoreCase(name)) {
                names[kept] = names[i];
                values[kept] = values[i];
                kept++;
            }
        }
        for (int i = kept; i < count; i++) {
            names[i] = null;
            values[i] = null;
        }
        count = kept;
    }

    int size() {
        return count;
    }

    String name(int i) {
        return names[i];
    }

    String value(int i) {
        return values[i];
    }

    void clear() {
        Arrays.fill(names, 0, count, null);
        Arrays.fill(values, 0, count, null);
        count = 0;
    }
}
