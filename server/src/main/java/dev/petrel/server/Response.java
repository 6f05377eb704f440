package dev.petrel.server;

import dev.petrel.server.config.WebSocketConfig;
import dev.petrel.server.handler.FileCopy;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;

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

    /**
     * Sends {@code count} bytes of {@code file} from {@code position} as the whole body, with that
     * length. Over plain HTTP/1.1 on the {@code nio} transport the bytes go from the file to the
     * socket without passing through the heap ({@link FileChannel#transferTo}); elsewhere (TLS,
     * AJP, the blocking transports, a compressing wrapper) they are copied, as this default does.
     * The caller keeps the channel, and closes it once this returns. A {@code HEAD} answer sends
     * the head alone.
     *
     * @throws IOException when the file ends before {@code count} bytes, or the write failed
     */
    default void sendFile(FileChannel file, long position, long count) throws IOException {
        contentLength(count);
        OutputStream out = body();
        FileCopy.copy(file, position, count, out);
        out.close();
    }

    /**
     * The body as a stream, for bodies produced in pieces. Closing it ends what the handler writes;
     * the response is complete only once the handler has returned (or its {@link #detach detached}
     * response has been completed), so that a handler which closes the stream in a
     * try-with-resources block and then throws fails for its client rather than reaching it as a
     * whole response. Returning without closing finishes it too.
     *
     * <p>A response can never end as complete once the request has failed: when reading the
     * request body throws (cut short, too large, too slow), or the handler throws, after the
     * response was committed, the client sees it fail (HTTP/1.1: the connection is reset before
     * the last chunk or the declared length; HTTP/2: {@code RST_STREAM}; AJP: no end-response).
     * Before the commit the client gets the failure's own status instead (400, 408, 413, 500).
     */
    OutputStream body();

    /** Whether the head has been sent; after that, status and headers can no longer change. */
    boolean committed();

    /**
     * Forgets the status, headers, trailers and body buffered so far, to answer differently.
     *
     * @throws IllegalStateException when the response is committed already
     */
    void reset();

    /**
     * Adds a trailer field, sent after the body where the protocol carries trailers: an HTTP/1.1
     * response of unknown length, which is chunked (a response with trailers set before it is
     * committed is sent chunked to carry them). Dropped where the protocol cannot carry them (a
     * response whose length was declared, HTTP/1.0, AJP). May be added until the body is complete.
     *
     * @throws IllegalArgumentException for an invalid name, or a value with CR, LF or other controls
     * @throws IllegalStateException when the response is complete
     */
    Response trailer(String name, String value);

    /**
     * Sends an interim response now, before the final one: {@code 103 Early Hints} with the
     * headers set so far (which stay set for the final response), say. {@code 100 Continue} is the
     * server's own, sent when a handler first reads a body the client asked to continue for.
     * Nothing is sent to an HTTP/1.0 client or over AJP, which carry no interim responses.
     *
     * @param status a 1xx status other than 100 and 101
     * @throws IllegalStateException when the response is committed already
     */
    void sendInterim(int status) throws IOException;

    /**
     * Keeps the exchange open after the handler returns, for another thread to finish the
     * response: the exchange (and its connection) waits until the returned {@link Detached} is
     * completed or failed, or {@code timeout} passes; then the client gets {@code 503} when
     * nothing was sent yet, or the connection is cut, and the late thread's writes fail. One
     * thread at a time may write the response. A handler that detaches may block, by nature: it
     * cannot be one marked {@link Handler#nonBlocking non-blocking} running on an event loop,
     * where this throws {@link IllegalStateException}.
     *
     * @param timeout how long the exchange waits for the completion
     * @throws IllegalStateException when the response is detached already, or the handler runs on an event loop
     */
    Detached detach(java.time.Duration timeout);

    /**
     * Answers the request's WebSocket opening handshake (RFC 6455 section 4.2) and serves the
     * session with {@code handler} once the switch is sent. A request that is no valid handshake
     * gets the status that says why: {@code 426} (no {@code Upgrade: websocket}, or a version
     * other than 13, with {@code Sec-WebSocket-Version: 13}), {@code 400} (a bad key, no
     * {@code Connection: upgrade}, a body) or {@code 403} (a page of another origin than those
     * {@code config} allows). {@link Router.Builder#websocket} calls it for its routes.
     *
     * @throws IllegalStateException when the response is committed already
     * @throws IOException when the client is gone
     */
    default void upgradeToWebSocket(WebSocketHandler handler, WebSocketConfig config) throws IOException {
        throw new UnsupportedOperationException("this response cannot switch to WebSocket");
    }
}
