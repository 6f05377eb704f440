package dev.petrel.server;

import java.io.IOException;
import java.io.OutputStream;

/**
 * The response a {@link Handler} writes. Until it is committed (head sent) the status and
 * headers may change. The server owns framing: it sets {@code Content-Length} when it knows the
 * length, falls back to chunked coding for HTTP/1.1 streams, adds {@code Date}, and decides
 * {@code Connection}. A handler's own {@code Connection: close} is honoured.
 *
 * <p>Small responses leave in one write, head and body together.
 */
public interface Response {
    /** Sets the status code (default 200). */
    Response status(int status);

    /** The status code set so far. */
    int status();

    /** Sets a header, replacing any value it had. Throws {@link IllegalArgumentException} for an invalid name or a value with CR, LF or other controls. */
    Response header(String name, String value);

    /** Adds a header value, keeping earlier ones. */
    Response addHeader(String name, String value);

    /** The first value of a header set so far, or {@code null}. */
    String header(String name);

    /** Sets {@code Content-Type}. */
    default Response contentType(String mediaType) {
        return header("Content-Type", mediaType);
    }

    /** Declares the body length before streaming it, so the server need not chunk. */
    Response contentLength(long length);

    /** Sends {@code body} as the whole body, with its length. */
    void send(byte[] body) throws IOException;

    /** Sends {@code text} as UTF-8; the Content-Type defaults to {@code text/plain;charset=UTF-8}. */
    void send(String text) throws IOException;

    /** Sends a response with no body. */
    default void send() throws IOException {
        send(new byte[0]);
    }

    /** The body as a stream, for bodies produced in pieces. Close it (or return) to finish. */
    OutputStream body();

    /** Whether the head has been sent; after that, status and headers can no longer change. */
    boolean committed();
}
