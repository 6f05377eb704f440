package dev.petrel.http;

import java.nio.charset.StandardCharsets;

/**
 * The standard method names as shared constants, so that parsing a common method allocates no
 * String and callers may compare them by identity or {@code equals}.
 */
public final class Methods {
    /** GET. */ public static final String GET = "GET";
    /** HEAD. */ public static final String HEAD = "HEAD";
    /** POST. */ public static final String POST = "POST";
    /** PUT. */ public static final String PUT = "PUT";
    /** DELETE. */ public static final String DELETE = "DELETE";
    /** OPTIONS. */ public static final String OPTIONS = "OPTIONS";
    /** PATCH. */ public static final String PATCH = "PATCH";
    /** TRACE. */ public static final String TRACE = "TRACE";
    /** CONNECT. */ public static final String CONNECT = "CONNECT";

    private static final String[] KNOWN = {GET, HEAD, POST, PUT, DELETE, OPTIONS, PATCH, TRACE, CONNECT};

    private Methods() {}

    /** The method named by {@code len} bytes at {@code off}: a constant when standard. Methods are case-sensitive. */
    static String of(byte[] bytes, int off, int len) {
        for (String known : KNOWN) {
            if (known.length() == len && matches(bytes, off, known)) return known;
        }
        return new String(bytes, off, len, StandardCharsets.US_ASCII);
    }

    private static boolean matches(byte[] bytes, int off, String known) {
        for (int i = 0; i < known.length(); i++) {
            if (bytes[off + i] != known.charAt(i)) return false;
        }
        return true;
    }
}
