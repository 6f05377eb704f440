package dev.petrel.http;

import java.nio.charset.StandardCharsets;

/**
 * Encodes response heads (RFC 9112 sections 4 and 5). Status lines of common codes and the
 * names of the fields the server writes itself are pre-encoded. Every name and value supplied by
 * an application is checked, so that no CR or LF can split the response.
 *
 * <p>Responses always say {@code HTTP/1.1}, also to HTTP/1.0 clients (RFC 9110 section 2.5).
 */
public final class ResponseHeadEncoder {
    private static final byte[][] STATUS_LINES = new byte[600][];
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] COLON_SPACE = {':', ' '};
    /** {@code Date: }, pre-encoded. */
    public static final byte[] DATE = name("Date");
    /** {@code Content-Length: }, pre-encoded. */
    public static final byte[] CONTENT_LENGTH = name("Content-Length");
    /** {@code Content-Type: }, pre-encoded. */
    public static final byte[] CONTENT_TYPE = name("Content-Type");
    /** {@code Connection: }, pre-encoded. */
    public static final byte[] CONNECTION = name("Connection");
    /** {@code Transfer-Encoding: }, pre-encoded. */
    public static final byte[] TRANSFER_ENCODING = name("Transfer-Encoding");

    static {
        for (int status = 100; status < 600; status++) {
            String reason = HttpStatus.reason(status);
            if (!reason.isEmpty()) STATUS_LINES[status] = statusLineBytes(status, reason);
        }
    }

    private ResponseHeadEncoder() {}

    /** Writes {@code HTTP/1.1 <status> <reason>CRLF}. */
    public static void statusLine(int status, ByteSink out) {
        if (status < 100 || status > 999) throw new IllegalArgumentException("status must have three digits: " + status);
        byte[] line = status < 600 ? STATUS_LINES[status] : null;
        out.write(line != null ? line : statusLineBytes(status, ""));
    }

    /** Writes a field line; throws {@link IllegalArgumentException} when the name is not a token or the value holds CR, LF or other controls. */
    public static void field(String name, String value, ByteSink out) {
        if (!HttpChars.isToken(name)) throw new IllegalArgumentException("invalid header name: " + name);
        if (!HttpChars.isFieldValue(value)) throw new IllegalArgumentException("invalid value for header " + name);
        out.writeLatin1(name).write(COLON_SPACE).writeLatin1(value).write(CRLF);
    }

    /** Writes a field line whose name is one of the pre-encoded constants and whose value is trusted ASCII. */
    public static void field(byte[] encodedName, byte[] value, ByteSink out) {
        out.write(encodedName).write(value).write(CRLF);
    }

    /** Writes a field line whose name is a pre-encoded constant and whose value is a number. */
    public static void field(byte[] encodedName, long value, ByteSink out) {
        out.write(encodedName).writeDecimal(value).write(CRLF);
    }

    /** Writes the empty line that ends the head. */
    public static void end(ByteSink out) {
        out.write(CRLF);
    }

    private static byte[] name(String name) {
        return (name + ": ").getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] statusLineBytes(int status, String reason) {
        return ("HTTP/1.1 " + status + " " + reason + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }
}
