package dev.petrel.http;

/** Reason phrases of the status codes of RFC 9110 section 15. */
public final class HttpStatus {
    private static final String[] REASONS = new String[600];

    static {
        put(100, "Continue");
        put(101, "Switching Protocols");
        put(102, "Processing");
        put(103, "Early Hints");
        put(200, "OK");
        put(201, "Created");
        put(202, "Accepted");
        put(203, "Non-Authoritative Information");
        put(204, "No Content");
        put(205, "Reset Content");
        put(206, "Partial Content");
        put(300, "Multiple Choices");
        put(301, "Moved Permanently");
        put(302, "Found");
        put(303, "See Other");
        put(304, "Not Modified");
        put(307, "Temporary Redirect");
        put(308, "Permanent Redirect");
        put(400, "Bad Request");
        put(401, "Unauthorized");
        put(403, "Forbidden");
        put(404, "Not Found");
        put(405, "Method Not Allowed");
        put(406, "Not Acceptable");
        put(408, "Request Timeout");
        put(409, "Conflict");
        put(410, "Gone");
        put(411, "Length Required");
        put(412, "Precondition Failed");
        put(413, "Content Too Large");
        put(414, "URI Too Long");
        put(415, "Unsupported Media Type");
        put(416, "Range Not Satisfiable");
        put(417, "Expectation Failed");
        put(421, "Misdirected Request");
        put(422, "Unprocessable Content");
        put(426, "Upgrade Required");
        put(428, "Precondition Required");
        put(429, "Too Many Requests");
        put(431, "Request Header Fields Too Large");
        put(500, "Internal Server Error");
        put(501, "Not Implemented");
        put(502, "Bad Gateway");
        put(503, "Service Unavailable");
        put(504, "Gateway Timeout");
        put(505, "HTTP Version Not Supported");
    }

    private HttpStatus() {}

    private static void put(int status, String reason) {
        REASONS[status] = reason;
    }

    /** The reason phrase of {@code status}, or an empty string for a code without one. */
    public static String reason(int status) {
        String reason = status >= 100 && status < 600 ? REASONS[status] : null;
        return reason == null ? "" : reason;
    }

    /** Whether a response with this status never has a body (1xx, 204, 304; RFC 9110 section 6.4.1). */
    public static boolean forbidsBody(int status) {
        return status < 200 || status == 204 || status == 304;
    }
}
