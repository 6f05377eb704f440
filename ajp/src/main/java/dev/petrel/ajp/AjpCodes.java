package dev.petrel.ajp;

import java.nio.charset.StandardCharsets;

/** AJP/1.3's one-byte method codes and two-byte header name codes, both directions. */
final class AjpCodes {
    /** The method code that says the method name follows as the {@code stored_method} attribute. */
    static final int STORED_METHOD = 0xFF;

    private static final String[] METHODS = {
        null, "OPTIONS", "GET", "HEAD", "POST", "PUT", "DELETE", "TRACE", "PROPFIND", "PROPPATCH", "MKCOL", "COPY",
        "MOVE", "LOCK", "UNLOCK", "ACL", "REPORT", "VERSION-CONTROL", "CHECKIN", "CHECKOUT", "UNCHECKOUT", "SEARCH",
        "MKWORKSPACE", "UPDATE", "LABEL", "MERGE", "BASELINE-CONTROL", "MKACTIVITY"
    };

    /** Request header names by code {@code 0xA001}..{@code 0xA00E}, as HTTP spells them. */
    private static final byte[][] REQUEST_HEADERS = names(
        null, "Accept", "Accept-Charset", "Accept-Encoding", "Accept-Language", "Authorization", "Connection",
        "Content-Type", "Content-Length", "Cookie", "Cookie2", "Host", "Pragma", "Referer", "User-Agent");

    /** Response header names with codes {@code 0xA001}..{@code 0xA00B}. */
    private static final String[] RESPONSE_HEADERS = {
        null, "Content-Type", "Content-Language", "Content-Length", "Date", "Last-Modified", "Location", "Set-Cookie",
        "Set-Cookie2", "Servlet-Engine", "Status", "WWW-Authenticate"
    };

    /** Header code 8 (Content-Length) and 11 (Host) in requests, read by the parser itself. */
    static final int CONTENT_LENGTH = 8;

    private AjpCodes() {}

    /** The method for {@code code}, or {@code null} when the code is unknown. */
    static String method(int code) {
        return code > 0 && code < METHODS.length ? METHODS[code] : null;
    }

    /** The request header name for the low byte of a {@code 0xA0xx} code, or {@code null} when unknown. */
    static byte[] requestHeader(int code) {
        return code > 0 && code < REQUEST_HEADERS.length ? REQUEST_HEADERS[code] : null;
    }

    /** The code for a response header name ({@code 0xA0xx}), or 0 when it has none and is sent as a string. */
    static int responseHeader(String name) {
        for (int i = 1; i < RESPONSE_HEADERS.length; i++) {
            if (RESPONSE_HEADERS[i].equalsIgnoreCase(name)) return 0xA000 | i;
        }
        return 0;
    }

    private static byte[][] names(String... names) {
        byte[][] bytes = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            bytes[i] = names[i] == null ? null : names[i].getBytes(StandardCharsets.US_ASCII);
        }
        return bytes;
    }
}
