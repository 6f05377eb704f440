package dev.petrel.server;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code application/x-www-form-urlencoded} decoding, for query strings and form bodies:
 * {@code &}-separated pairs, {@code +} as a space, {@code %XX} as UTF-8 bytes (the JDK's
 * {@link URLDecoder} does the decoding); a malformed escape is the client's error, 400.
 */
final class FormDecoder {
    private FormDecoder() {}

    /** The pairs of {@code encoded} ({@code null} or empty: none), each name with its values in order. */
    static Map<String, List<String>> decode(String encoded) {
        if (encoded == null || encoded.isEmpty()) return Map.of();
        Map<String, List<String>> parameters = new LinkedHashMap<>();
        for (String pair : encoded.split("&")) {
            if (pair.isEmpty()) continue;
            int equals = pair.indexOf('=');
            String name = decodePart(equals < 0 ? pair : pair.substring(0, equals));
            String value = equals < 0 ? "" : decodePart(pair.substring(equals + 1));
            parameters.computeIfAbsent(name, n -> new ArrayList<>(1)).add(value);
        }
        parameters.replaceAll((name, values) -> Collections.unmodifiableList(values));
        return Collections.unmodifiableMap(parameters);
    }

    /** Whether a {@code Content-Type} is {@code application/x-www-form-urlencoded}, parameters aside. */
    static boolean isForm(String contentType) {
        int semicolon = contentType.indexOf(';');
        String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim();
        return type.toLowerCase(Locale.ROOT).equals("application/x-www-form-urlencoded");
    }

    private static String decodePart(String part) {
        try {
            return URLDecoder.decode(part, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new HttpStatusException(400, "Malformed percent-encoding in a parameter");
        }
    }
}
