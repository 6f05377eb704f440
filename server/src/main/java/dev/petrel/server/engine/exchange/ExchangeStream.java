package dev.petrel.server.engine.exchange;

import dev.petrel.server.engine.connection.ProtocolConnection;
import dev.petrel.server.engine.connection.Upgrade;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;

/**
 * The one contract between the exchange and a protocol: the stream one request and its response
 * travel on. An HTTP/1.1 or AJP connection is one stream at a time ({@link ConnectionStream}); an
 * HTTP/2 connection carries many, each its own. The {@link Exchange} decides everything about a
 * response (when to commit, what is buffered, what the handler may set, the length rules, the
 * error answer) and holds the rules of a request body ({@link BodySource}); the stream only frames
 * what it is given and reads the body's bytes its protocol's way. A new protocol implements this,
 * a {@link BodySource} for its bodies, and a {@link ProtocolConnection} that arms an exchange per
 * request (see docs/ARCHITECTURE.md, "Adding a protocol").
 *
 * <p>Body bytes the exchange buffered lie in a work buffer from {@link BufferPool}, at offset
 * {@link #headRoom()}, with {@link #tailRoom()} bytes free after them, so that a stream can put
 * its head or frame header before them and its frame end after them and send head and body in
 * one write, without copying the body again.
 */
public interface ExchangeStream {
    // ---- the request ----

    /** The body of the request in flight, which the handler reads through the exchange's rules. */
    BodySource body();

    // ---- the response ----

    /** Bytes the stream needs before the body in the work buffer. */
    int headRoom();

    /** Bytes the stream needs after the body in the work buffer. */
    int tailRoom();

    /** Forgets the previous exchange's framing: a new response begins. */
    void begin();

    /**
     * Commits the head with the {@code length} body bytes at {@link #headRoom()} in {@code work}.
     * With {@code complete} they are the whole body ({@code head.contentLength()} says its length;
     * a HEAD answer's may be more); otherwise more follows through {@link #body(byte[], int, int, byte[])}
     * and the stream chooses the framing. A stream may hold a complete response to send it later
     * (AJP sends it with its end-response); {@link #sent()} says whether anything has left.
     */
    void commit(ResponseHead head, byte[] work, int length, boolean complete) throws IOException;

    /** More body after a commit that was not complete; {@code work} is free to frame pieces in. */
    void body(byte[] b, int off, int len, byte[] work) throws IOException;

    /**
     * The whole body from {@code count} bytes of {@code file} at {@code position}, after a commit
     * that was not complete and declared that length, sent without copying where the protocol and
     * the endpoint allow.
     *
     * @return false, having sent nothing, when they do not (the default): the exchange copies the
     *         bytes through {@link #body(byte[], int, int, byte[])} instead
     */
    default boolean bodyFromFile(FileChannel file, long position, long count) throws IOException {
        return false;
    }

    /** The body is complete after a commit that was not: the last chunk and the trailers, where the framing has them. */
    void end(ResponseHead head) throws IOException;

    /** Has what was sent go on to the client now, where the protocol holds it otherwise (AJP's flush). */
    void flush() throws IOException;

    /** An interim response before the final one, where the protocol carries them, with the headers of {@code head}, or none when null. */
    void interim(int status, ResponseHead head) throws IOException;

    /**
     * Whether the connection may switch to another protocol after this request (see
     * {@link Upgrade}): only HTTP/1.1 can, and only once the request has been read to its end.
     * Default: false.
     */
    default boolean canSwitchProtocols() {
        return false;
    }

    /**
     * Whether this stream may go on as a tunnel after a {@code 200} (see
     * {@link ExchangeResponse#openTunnel}): only an HTTP/2 stream an extended CONNECT (RFC 8441)
     * opened can. Default: false.
     */
    default boolean carriesTunnel() {
        return false;
    }

    /** How this stream's protocol carries WebSocket sessions, or null when it carries none. Default: none. */
    default WebSocketCarrier webSockets() {
        return null;
    }

    /** Whether any byte of this response has been written. */
    boolean sent();

    /** Drops a response held but not sent, to answer with another. */
    void discard();

    // ---- the stream itself ----

    /**
     * Cuts the stream so that the client sees a failure, not an end: a response that failed after
     * bytes of it had left. Resets the connection (HTTP/1.1, AJP) or the stream (HTTP/2).
     */
    void reset();

    /** Ends the stream now, whatever it is doing: the server is going away. */
    void abort();

    /**
     * Whether the exchange runs where it must never wait: on a transport's event loop, or on an
     * HTTP/2 connection's reader.
     */
    boolean onEventLoop();

    /** The client's address as the connection sees it, for log lines. */
    InetSocketAddress remoteAddress();
}
