package dev.petrel.server.engine;

import dev.petrel.http.ChunkedDecoder;
import dev.petrel.http.HttpLimits;
import dev.petrel.http.ParseStatus;
import dev.petrel.server.HttpStatusException;
import dev.petrel.server.IncompleteBodyException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * The body of the current request, read from the connection's buffer and then from the
 * endpoint. One instance per connection, re-armed for each request, so reading a body costs no
 * allocation beyond the caller's array. Each fill may change the connection's buffer (see
 * {@link ConnectionInput}), so the buffer is asked for again after every fill, never kept.
 *
 * <p>A body that ends before its framing says it is complete (the connection closes inside a
 * chunk, a chunk-size line or the trailers, or before the declared length) fails with
 * {@link IncompleteBodyException} (400), never as a normal end of stream; one that keeps the
 * server waiting too long fails with it too (408, see {@link BodyWaitLimits}). After a failure
 * every read throws the same exception again.
 */
final class RequestBody extends InputStream implements BodyFailure {
    private enum Mode { NONE, LENGTH, CHUNKED }

    /** Called before the first read, to send {@code 100 Continue} when the client waits for it. */
    interface FirstReadListener {
        void beforeFirstRead() throws IOException;
    }

    private final ConnectionInput input;
    private final ChunkedDecoder chunked;
    private final BodyWaitLimits waits;
    private final BodyWaitLimits.Fill fill; // made once, not per read
    private FirstReadListener listener;
    private Mode mode = Mode.NONE;
    private long remaining;
    private boolean finished = true;
    private Exception failure; // an IncompleteBodyException or an HttpStatusException, once reading failed
    private boolean touched;
    private ByteBuffer wrapped = ByteBuffer.allocate(0);
    private final byte[] single = new byte[1];

    RequestBody(ConnectionInput input, HttpLimits limits, BodyWaitLimits waits) {
        this.input = input;
        this.chunked = new ChunkedDecoder(limits);
        this.waits = waits;
        this.fill = input::fill;
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
        this.failure = null;
        this.touched = false;
        waits.reset();
    }

    /** Whether the whole body has been consumed from the connection. */
    boolean finished() {
        return finished;
    }

    /** Whether the body turned out malformed, too large, cut short or too slow: the framing is lost. */
    boolean failed() {
        return failure != null;
    }

    @Override
    public Exception failure() {
        return failure;
    }

    /** Whether the handler started reading (and so the client was told to continue). */
    boolean touched() {
        return touched;
    }

    /** Body bytes still expected when the length is declared, else -1. */
    long remainingDeclared() {
        return mode == Mode.LENGTH ? remaining : -1;
    }

    /**
     * Reads and discards what is left, up to {@code maxBytes}, so the connection can carry the
     * next request. Returns whether the body is now finished.
     */
    boolean drain(long maxBytes) {
        if (finished) return true;
        if (failure != null) return false;
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
            if (!input.hasRemaining()) fillOrFail("the rest of the declared Content-Length");
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
    public int read() throws IOException {
        int n = read(single, 0, 1);
        return n < 0 ? -1 : single[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) return 0;
        if (finished) return -1;
        if (failure != null) throw rethrow();
        if (!touched) {
            touched = true;
            if (listener != null) listener.beforeFirstRead();
        }
        return mode == Mode.LENGTH ? readFixed(b, off, len) : readChunked(b, off, len);
    }

    @Override
    public int available() {
        if (finished || failure != null) return 0;
        int buffered = input.buffer().remaining();
        return mode == Mode.LENGTH ? (int) Math.min(buffered, remaining) : 0;
    }

    private int readFixed(byte[] b, int off, int len) throws IOException {
        if (!input.hasRemaining()) fillOrFail("the rest of the declared Content-Length");
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
            if (status == ParseStatus.ERROR) {
                HttpStatusException e = new HttpStatusException(chunked.error().status(), chunked.error().reason());
                failure = e;
                throw e;
            }
            if (status == ParseStatus.COMPLETE) {
                finished = true;
                return n > 0 ? n : -1;
            }
            if (n > 0) return n;
            fillOrFail(chunked.expecting());
        }
    }

    /**
     * Reads more of the body within the wait limits; the end of the stream here cuts the body
     * short, {@code where} its framing says more must come.
     */
    private void fillOrFail(String where) throws IOException {
        int n;
        try {
            n = waits.fill(fill);
        } catch (IOException e) {
            IOException cut = e instanceof IncompleteBodyException ? e
                    : (IOException) IncompleteBodyException.cutShort("the connection failed while " + where + " was due").initCause(e);
            failure = cut;
            throw cut;
        }
        if (n < 0) {
            IncompleteBodyException e = IncompleteBodyException.cutShort("the connection ended while " + where + " was due");
            failure = e;
            throw e;
        }
    }

    /** Throws the failure again: every read after a failure fails alike. */
    private RuntimeException rethrow() throws IOException {
        if (failure instanceof IOException e) throw e;
        throw (RuntimeException) failure;
    }

    @Override
    public void close() {
        // The connection owns the stream; what is left unread is drained or the connection closed.
    }
}
