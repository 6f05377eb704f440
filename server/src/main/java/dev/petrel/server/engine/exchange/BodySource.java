package dev.petrel.server.engine.exchange;

import dev.petrel.http.HeaderFields;
import dev.petrel.server.HttpStatusException;
import dev.petrel.server.IncompleteBodyException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * The body of the current request as the handler reads it, whatever the protocol: the protocol
 * supplies how body bytes are read ({@link #readBody}) and this holds the rules. A body that ends
 * before its framing says it is complete, or keeps the server waiting too long (see
 * {@link BodyWaitLimits}), fails with {@link IncompleteBodyException}; a malformed one with
 * {@link HttpStatusException}, and so does one larger than the server's {@code maxBodySize}
 * ({@code 413}), whatever the protocol: a codec may find it sooner (a chunk size too large, a
 * declared length), but no body gets past this count. After a failure every read throws the same exception again,
 * and the exchange will not let the response claim success ({@link BodyFailure}).
 *
 * <p>One per connection (or stream), re-armed for every request.
 */
public abstract class BodySource extends InputStream implements BodyFailure {
    private final BodyWaitLimits waits;
    private final long maxBodySize;
    private final byte[] single = new byte[1];
    private long delivered; // bytes of this body the handler has read
    private volatile Thread reader; // the thread inside read() now, if any
    private Exception failure; // an IncompleteBodyException or an HttpStatusException, once reading failed

    /** A body whose waits for bytes are bounded by {@code waits}, and whose size by {@code maxBodySize}. */
    protected BodySource(BodyWaitLimits waits, long maxBodySize) {
        this.waits = waits;
        this.maxBodySize = maxBodySize;
    }

    /** Forgets the last body's failure and restarts the limits: the protocol calls it when it arms the next body. */
    protected final void rearm() {
        failure = null;
        delivered = 0;
        waits.reset();
    }

    /**
     * Reads body bytes the protocol's way.
     *
     * @return bytes read, at least 1, or -1 at the body's end (only where its framing says it ends)
     */
    protected abstract int readBody(byte[] b, int off, int len) throws IOException;

    @Override
    public final Exception failure() {
        return failure;
    }

    /** Whether reading the body failed: its framing is lost. */
    public final boolean failed() {
        return failure != null;
    }

    /** The trailer fields that followed the body, once it has been read to its end; empty by default. */
    public HeaderFields trailers() {
        return HeaderFields.empty();
    }

    @Override
    public final int read() throws IOException {
        int n = read(single, 0, 1);
        return n < 0 ? -1 : single[0] & 0xFF;
    }

    @Override
    public final int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) return 0;
        if (failure instanceof IOException e) throw e; // every read after a failure fails alike
        if (failure != null) throw (RuntimeException) failure;
        reader = Thread.currentThread();
        try {
            int n = readBody(b, off, len);
            if (n > 0 && (delivered += n) > maxBodySize) {
                throw fail(new HttpStatusException(413, "Request body larger than the limit of " + maxBodySize + " bytes"));
            }
            return n;
        } catch (IncompleteBodyException e) {
            throw fail(e);
        } catch (HttpStatusException e) {
            throw fail(e);
        } catch (IOException e) {
            throw fail(cutShort("the connection failed", e));
        } finally {
            reader = null;
        }
    }

    /**
     * Whether a thread other than the caller is inside a read of this body now: an application
     * that finished its response while a reader of its own still waits for the body (a Servlet
     * non-blocking reader at an async timeout). What the connection receives next is that read's,
     * so the connection cannot be drained or carry another request.
     */
    public final boolean readElsewhere() {
        Thread inside = reader;
        return inside != null && inside != Thread.currentThread();
    }

    /** Notes {@code e} as this body's failure and returns it, to be thrown. */
    protected final <E extends Exception> E fail(E e) {
        if (failure == null) failure = e;
        return e;
    }

    /**
     * Waits for more of the body within the limits: {@code fill} reads from the connection. The
     * end of the stream here cuts the body short, {@code where} saying what its framing still
     * expected, e.g. {@code "chunk data"}.
     *
     * @return bytes read, at least 1
     */
    protected final int fill(BodyWaitLimits.Fill fill, String where) throws IOException {
        int n;
        try {
            n = waits.fill(fill);
        } catch (IncompleteBodyException e) {
            throw fail(e);
        } catch (IOException e) {
            throw fail(cutShort("the connection failed while " + where + " was due", e));
        }
        if (n < 0) throw fail(IncompleteBodyException.cutShort("the connection ended while " + where + " was due"));
        return n;
    }

    private static IncompleteBodyException cutShort(String where, IOException cause) {
        IncompleteBodyException e = IncompleteBodyException.cutShort(where);
        e.initCause(cause);
        return e;
    }

    @Override
    public final void close() {
        // The connection owns the stream; what is left unread is drained or the connection closed.
    }
}
