package dev.petrel.server.observe;

import java.util.Locale;

/**
 * A string as a JSON value (RFC 8259): quoted, with {@code "}, {@code \} and control characters
 * escaped, so that what a client chose (a target, a file name) cannot break the document it is
 * written into. For the few JSON documents the server writes itself; no library for so little.
 */
public final class JsonStrings {
    private JsonStrings() {}

    /** Appends {@code value} to {@code json} as a JSON string, or {@code null}. */
    public static StringBuilder append(StringBuilder json, String value) {
        if (value == null) return json.append("null");
        json.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                default -> {
                    if (c < 0x20 || c == 0x7f) json.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    else json.append(c);
                }
            }
        }
        return json.append('"');
    }
}
