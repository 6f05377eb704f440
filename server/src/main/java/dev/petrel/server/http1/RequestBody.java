package dev.petrel.server.http1;

import dev.petrel.http.ChunkedDecoder;
import dev.petrel.http.HeaderFields;
import dev.petrel.http.HttpLimits;
import dev.petrel.http.ParseStatus;
import dev.petrel.server.HttpStatusException;
import dev.petrel.server.engine.connection.ConnectionInput;
import dev.petrel.server.engine.exchange.BodySource;
import dev.petrel.server.engine.exchange.BodyWaitLimits;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The body of the current HTTP/1.1 request, read from the connection's buffer and then from the
 * endpoint: of a declared length, or chunked. Part of the {@link Http1ExchangeParts} a connection
 * holds while a request is in flight, re-armed for each request, so reading a body costs no
 * allocation beyond the caller's array. Each fill may change
 * the connection's buffer (see {@link ConnectionInput}), so the buffer is asked for again after
 * every fill, never kept. The failure rules are {@link BodySource}'s.
 */
final class RequestBody extends BodySource {
    private enum Mode { NONE, LENGTH, CHUNKED }

    /** Called before the first read, to send {@code 100 Continue} when the client waits for it. */
    interface FirstReadListener {
        void beforeFirstRead() throws IOException;
    }

    private final ChunkedDecoder chunked;
    private final BodyWaitLimits.Fill fill; // made once, not per read
    private ConnectionInput input; // bound to the connection whose request is in flight
    private FirstReadListener listener;
    private Mode mode = Mode.NONE;
    private long remaining;
    private boolean finished = true;
    private boolean touched;
    private ByteBuffer wrapped = ByteBuffer.allocate(0);

    /** A body stream within {@code limits} and {@code waits}; {@link #bind} it before use. */
    RequestBody(HttpLimits limits, BodyWaitLimits waits) {
        super(waits, limits.maxBodySize());
        this.chunked = new ChunkedDecoder(limits);
        this.fill = timeoutMillis -> input.fill(timeoutMillis);
    }

    /** Reads the bodies that follow from {@code input}. */
    void bind(ConnectionInput input) {
        this.input = input;
    }

    void none() {
        arm(Mode.NONE, 0, null);
    }

    void fixed(long length, FirstReadListener listener) {
        arm(Mode.LENGTH, length, listener);
    }

    void chunked(FirstReadListener listener) {
        chunked.reset();
        arm(Mode.CHUNKED, -1, listener);
    }

    private void arm(Mode mode, long length, FirstReadListener listener) {
        this.mode = mode;
        this.remaining = length;
        this.listener = listener;
        this.finished = mode == Mode.NONE;
        this.touched = false;
        rearm();
    }

    /** Whether the whole body has been consumed from the connection. */
    boolean finished() {
        return finished;
    }

    /** Whether the handler started reading (and so the client was told to continue). */
    boolean touched() {
        return touched;
    }

    /** Body bytes still expected when the length is declared, else -1. */
    long remainingDeclared() {
        return mode == Mode.LENGTH ? remaining : -1;
    }

    @Override
    public HeaderFields trailers() {
        return mode == Mode.CHUNKED && finished ? chunked.trailers() : HeaderFields.empty();
    }

    /**
     * Reads and discards what is left, up to {@code maxBytes}, so the connection can carry the
     * next request. Returns whether the body is now finished.
     */
    boolean drain(long maxBytes) {
        if (finished) return true;
        if (failed()) return false;
        try {
            if (mode == Mode.LENGTH) skipFixed(maxBytes);
            else skipChunked(maxBytes);
        } catch (IOException | HttpStatusException e) {
            return false;
        }
        return finished;
    }

    /** Drops declared-length body bytes where they lie in the buffer: no copy, no array. */
    private void skipFixed(long maxBytes) throws IOException {
        if (remaining > maxBytes) return; // more than we would read: the caller closes instead
        while (!finished) {
            if (!input.hasRemaining()) fill(fill, "the rest of the declared Content-Length");
            ByteBuffer buffer = input.buffer(); // asked after the fill, which may have moved to the large buffer
            int n = (int) Math.min(remaining, buffer.remaining());
            buffer.position(buffer.position() + n);
            remaining -= n;
            if (remaining == 0) finished = true;
        }
    }

    /**
     * Chunked bodies must pass through the decoder to find their end, so their data is decoded
     * into a throwaway array; this path is only taken when a handler leaves such a body unread.
     */
    private void skipChunked(long maxBytes) throws IOException {
        byte[] scratch = new byte[(int) Math.min(4096, Math.max(1, maxBytes))];
        long left = maxBytes;
        while (!finished && left > 0) {
            int n = read(scratch, 0, (int) Math.min(scratch.length, left));
            if (n < 0) break;
            left -= n;
        }
    }

    @Override
    protected int readBody(byte[] b, int off, int len) throws IOException {
        if (finished) return -1;
        if (!touched) {
            touched = true;
            if (listener != null) listener.beforeFirstRead();
        }
        return mode == Mode.LENGTH ? readFixed(b, off, len) : readChunked(b, off, len);
    }

    @Override
    public int available() {
        if (finished || failed()) return 0;
        int buffered = input.buffer().remaining();
        return mode == Mode.LENGTH ? (int) Math.min(buffered, remaining) : 0;
    }

    private int readFixed(byte[] b, int off, int len) throws IOException {
        if (!input.hasRemaining()) fill(fill, "the rest of the declared Content-Length");
        ByteBuffer buffer = input.buffer(); // asked after the fill, which may have moved to the large buffer
        int n = (int) Math.min(Math.min(len, remaining), buffer.remaining());
        buffer.get(b, off, n);
        remaining -= n;
        if (remaining == 0) finished = true;
        return n;
    }

    private int readChunked(byte[] b, int off, int len) throws IOException {
        if (wrapped.array() != b) wrapped = ByteBuffer.wrap(b);
        wrapped.limit(off + len).position(off);
        while (true) {
            ParseStatus status = chunked.decode(input.buffer(), wrapped);
            int n = wrapped.position() - off;
            if (status == ParseStatus.ERROR) throw new HttpStatusException(chunked.error().status(), chunked.error().reason());
            if (status == ParseStatus.COMPLETE) {
                finished = true;
                return n > 0 ? n : -1;
            }
            if (n > 0) return n;
            fill(fill, chunked.expecting());
        }
    }
}
