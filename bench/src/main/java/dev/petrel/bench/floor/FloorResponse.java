package dev.petrel.bench.floor;

import java.nio.charset.StandardCharsets;

/**
 * The floor servers' one answer, byte for byte what {@code bench/baseline/dummy.c} sends for every
 * path but {@code /page}: status line, Content-Type, Content-Length, a fixed Date, and
 * {@code Connection: keep-alive} only for an HTTP/1.0 request that asked for keep-alive; a HEAD request
 * gets the head alone. Fixed bytes, so the servers compare their I/O and nothing else.
 */
final class FloorResponse {
    /** The body. */
    static final String BODY = "HelloWorld";
    /** The answer to an HTTP/1.1 request, or to an HTTP/1.0 request that is closed after it. */
    static final byte[] PLAIN = build(false);
    /** The answer to an HTTP/1.0 request with {@code Connection: keep-alive}. */
    static final byte[] KEEP_ALIVE = build(true);
    /** The most bytes one response takes. */
    static final int MAX_LENGTH = KEEP_ALIVE.length;

    private FloorResponse() {}

    /** The response for a request, as {@link RequestHeads} read it. */
    static byte[] bytes(RequestHeads head) {
        return head.http10() && head.keepAlive() ? KEEP_ALIVE : PLAIN;
    }

    /** How many of {@code bytes(head)} go out: all, or the head alone for HEAD. */
    static int length(RequestHeads head, byte[] bytes) {
        return head.headOnly() ? bytes.length - BODY.length() : bytes.length;
    }

    private static byte[] build(boolean keepAlive) {
        String text = "HTTP/1.1 200 OK\r\n"
                + "Content-Type: text/plain;charset=UTF-8\r\n"
                + "Content-Length: " + BODY.length() + "\r\n"
                + "Date: Sun, 22 Nov 2026 12:00:00 GMT\r\n" // dummy.c's fixed date
                + (keepAlive ? "Connection: keep-alive\r\n" : "")
                + "\r\n"
                + BODY;
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
