package dev.petrel.server.handler;

import java.util.Locale;

/**
 * What an {@code Accept-Encoding} request header (RFC 9110 section 12.5.3) allows: whether a
 * content coding is acceptable, that is listed (or matched by {@code *}) with a weight above 0.
 */
public final class ContentCodings {
    private ContentCodings() {}

    /** Whether {@code acceptEncoding} (the header's value, or null) accepts {@code coding} (lower case). */
    public static boolean accepts(String acceptEncoding, String coding) {
        if (acceptEncoding == null) return false;
        Boolean wildcard = null;
        for (String element : acceptEncoding.split(",")) {
            String[] parts = element.split(";");
            String name = parts[0].strip().toLowerCase(Locale.ROOT);
            boolean positive = weight(parts) > 0;
            if (name.equals(coding)) return positive;
            if (name.equals("*")) wildcard = positive;
        }
        return wildcard != null && wildcard;
    }

    /** The {@code q} parameter, 1 when absent, 0 when malformed (a client that garbles it gets nothing new). */
    private static double weight(String[] parts) {
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].strip();
            if (parameter.length() > 2 && (parameter.charAt(0) == 'q' || parameter.charAt(0) == 'Q') && parameter.charAt(1) == '=') {
                try {
                    return Double.parseDouble(parameter.substring(2));
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 1;
    }
}
