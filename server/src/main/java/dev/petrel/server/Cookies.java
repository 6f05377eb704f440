package dev.petrel.server;

import dev.petrel.http.HeaderFields;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code Cookie} request header (RFC 6265 section 4.2): {@code name=value} pairs separated by
 * {@code ;}, over one or more header lines. Values are returned as sent, less surrounding double
 * quotes; a pair without {@code =} or with an empty name is skipped, as browsers never send one.
 */
final class Cookies {
    private Cookies() {}

    static Map<String, String> parse(HeaderFields headers) {
        Map<String, String> cookies = null;
        for (int i = 0; i < headers.size(); i++) {
            if (!headers.name(i).equalsIgnoreCase("Cookie")) continue;
            if (cookies == null) cookies = new LinkedHashMap<>();
            for (String pair : headers.value(i).split(";")) {
                int equals = pair.indexOf('=');
                if (equals < 0) continue;
                String name = pair.substring(0, equals).trim();
                if (name.isEmpty()) continue;
                String value = pair.substring(equals + 1).trim();
                if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) value = value.substring(1, value.length() - 1);
                cookies.putIfAbsent(name, value);
            }
        }
        return cookies == null ? Map.of() : Collections.unmodifiableMap(cookies);
    }
}
