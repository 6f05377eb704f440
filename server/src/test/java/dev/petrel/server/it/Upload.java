package dev.petrel.server.it;

import java.io.IOException;
import java.time.Duration;

/**
 * One upload to {@code POST /upload}, driven by a test step by step over one protocol, so that the
 * request can be made to fail at a chosen point (after the response has begun) and the client can
 * then tell whether the response it got ended as a whole one. The protocols' clients are
 * {@link Http1Upload}, {@link H2Upload} and {@link AjpUpload}.
 */
interface Upload extends AutoCloseable {
    /** Sends the request head: with {@code Content-Length: length}, or of unknown length when {@code length} is -1. */
    void begin(long length) throws IOException;

    /** Sends body bytes. */
    void send(byte[] bytes) throws IOException;

    /** Waits for the response head and returns its status. */
    int awaitHead() throws IOException;

    /** Ends the body before its declared length: the client's side ends (HTTP/1.1), END_STREAM (HTTP/2), an empty chunk (AJP). */
    void cutShort() throws IOException;

    /** Vanishes: a TCP reset (HTTP/1.1, AJP) or a {@code RST_STREAM} (HTTP/2). */
    void reset() throws IOException;

    /**
     * Sends one body byte every {@code every}, at most {@code count} of them, while the server still
     * reads (a client far below any minimum rate); returns once the server has ended the response
     * or the bytes are used up.
     */
    void trickle(Duration every, int count) throws IOException;

    /** Reads the rest of the response until the server ends it one way or another; what it was. */
    Outcome finish() throws IOException;

    /**
     * How a response ended as the client saw it.
     *
     * @param complete whether it ended as a whole response: its framing complete (the last chunk,
     *                 the declared length), {@code END_STREAM}, AJP's end-response
     * @param bodyBytes body bytes received
     * @param how what the client saw at the end, for a failure message
     */
    record Outcome(boolean complete, long bodyBytes, String how) {}

    @Override
    void close() throws IOException;
}
