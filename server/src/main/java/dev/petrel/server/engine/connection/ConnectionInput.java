package dev.petrel.server.engine.connection;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A connection's read buffer: bytes read from the endpoint and not yet consumed lie between the
 * position and limit of {@link #buffer()}. The head parser and the body streams consume from it
 * in turn, so bytes of a pipelined next request simply stay here.
 *
 * <p>Two tiers, so that an idle keep-alive connection holds little: a small buffer of its own,
 * read into while the connection waits for a request and enough for a typical request whole, and
 * a large one borrowed from a pool shared by the listener's connections when the input needs more
 * room: a large head, a pipelined burst, a request body. It moves to the large buffer (carrying
 * the unconsumed bytes along) when the small one is full of unconsumed bytes, or when a read has
 * just filled it to the brim, since then more is likely waiting in the socket and reading it a
 * small buffer at a time would cost a system call per kilobyte. The engine calls {@link #settle()}
 * where an exchange is over: the large buffer goes back to the pool once what is left of it fits
 * in the small one. {@link #buffer()} may therefore change at each fill: consumers must ask for it
 * again after every {@link #fill} and {@link #fillAvailable}.
 *
 * <p>On a transport that waits without a thread the small buffer is pooled too: taken at the
 * first read of a request and given back when {@link #settle()} finds it empty, so that an idle
 * connection holds no read buffer at all. A thread-per-connection transport blocks in its read
 * with a buffer in hand either way, so there the small buffer is the connection's own.
 *
 * <p>Without a pool (AJP, whose packets must fit one buffer whole) the one buffer is all there is.
 */
public final class ConnectionInput {
    /**
     * The size of the small buffer. A request head from ab, wrk, h2load or curl is 40 to 200 bytes,
     * a browser's typically 400 to 900 (user agent, accept lists, a few cookies): 1 KiB takes any
     * of them in one read, so a keep-alive connection answering such requests never borrows a
     * large one. Idle, a connection on an event loop holds none at all, one on its own thread this one.
     */
    public static final int SMALL_BUFFER_BYTES = 1024;

    /**
     * The current buffer while none is held: empty and read-only. Shared by every input, which is
     * safe because its position, limit and mark can only ever be zero.
     */
    private static final ByteBuffer NONE = ByteBuffer.allocate(0).asReadOnlyBuffer();

    private final Endpoint endpoint;
    private final int smallSize;
    private final InputBufferPool smallPool; // null: the small buffer is this input's own, for good
    private final InputBufferPool pool;      // null: the small buffer is all there is
    private ByteBuffer small;           // this input's own, or borrowed from smallPool, or null
    private ByteBuffer large;           // borrowed from the pool, or null
    private ByteBuffer buffer;          // the current one: small, large or NONE
    private boolean brimful;            // the last read filled the small buffer: more is likely waiting
    private boolean drained;            // the last non-waiting read found the socket empty (see drained())

    /** Input with one buffer of {@code size} bytes and nothing borrowed, ever. */
    public ConnectionInput(Endpoint endpoint, int size) {
        this(endpoint, size, null);
    }

    /**
     * Input with a small buffer of {@code smallSize} bytes, borrowing a large one from {@code pool}
     * when it needs more room.
     */
    public ConnectionInput(Endpoint endpoint, int smallSize, InputBufferPool pool) {
        this(endpoint, smallSize, null, pool);
        this.small = ByteBuffer.allocate(smallSize);
        this.small.limit(0);
        this.buffer = small;
    }

    /**
     * Input borrowing its small buffer from {@code smallPool} only while bytes are in flight, and
     * a large one from {@code pool} when it needs more room: for an endpoint that waits without a
     * thread (see the class comment).
     */
    public ConnectionInput(Endpoint endpoint, InputBufferPool smallPool, InputBufferPool pool) {
        this(endpoint, smallPool.bufferSize(), smallPool, pool);
    }

    private ConnectionInput(Endpoint endpoint, int smallSize, InputBufferPool smallPool, InputBufferPool pool) {
        if (pool != null && pool.bufferSize() <= smallSize) {
            throw new IllegalArgumentException("large buffers of " + pool.bufferSize() + " bytes are not larger than " + smallSize);
        }
        this.endpoint = endpoint;
        this.smallSize = smallSize;
        this.smallPool = smallPool;
        this.pool = pool;
        this.buffer = NONE;
    }

    /** The current buffer, positioned at the first unconsumed byte; may change at each fill. */
    public ByteBuffer buffer() {
        return buffer;
    }

    public boolean hasRemaining() {
        return buffer.hasRemaining();
    }

    /** Whether a large buffer is borrowed from the pool now. */
    public boolean borrowing() {
        return large != null;
    }

    /**
     * Reads more bytes after the unconsumed ones, into the large buffer when more room is needed
     * (see the class comment).
     *
     * @return bytes read, or -1 at end of stream
     */
    public int fill(int timeoutMillis) throws IOException {
        drained = false; // a waiting read says nothing of what is left
        makeRoom();
        int n;
        try {
            n = endpoint.read(buffer, timeoutMillis);
        } finally {
            buffer.flip();
        }
        noteFill();
        return n;
    }

    /**
     * Reads whatever has arrived after the unconsumed bytes, without waiting.
     *
     * @return bytes read, 0 when none had arrived, or -1 at end of stream
     */
    public int fillAvailable() throws IOException {
        makeRoom();
        int room = buffer.remaining();
        // A read that fails (a reset) has not read the socket dry: the next look must read, and meet
        // the failure again. Left as it was, the loop took the connection for drained and waited for
        // readiness that an errored socket reports forever, failing a read on each report.
        drained = false;
        int n;
        try {
            n = endpoint.readAvailable(buffer);
        } finally {
            buffer.flip();
        }
        noteFill();
        drained = n >= 0 && n < room;
        return n;
    }

    /**
     * Whether the last {@link #fillAvailable()} took everything there was: it read less than it
     * had room for, and the endpoint holds nothing of its own (a TLS endpoint may hold a further
     * record). Until the transport reports the socket readable again, another read would only
     * find nothing, which is how Netty also decides that a channel has been read dry.
     */
    public boolean drained() {
        return drained && !buffer.hasRemaining() && !endpoint.hasBufferedInput();
    }

    /**
     * The engine says the exchange is over (or the connection is about to wait for one): gives
     * the large buffer back to the pool when the unconsumed bytes fit in the small buffer,
     * copying them there first, so that a pipelined next request is neither lost nor reordered.
     * When they do not fit the large buffer is kept, and settles at a later call. Allocates
     * nothing.
     */
    public void settle() {
        if (large != null) {
            if (large.remaining() > smallSize) return;
            if (large.hasRemaining()) {
                takeSmall();
                small.clear();
                small.put(large);
                small.flip();
            }
            giveBack();
        }
        // Bytes left over in a brimful small buffer are a pipelined burst, likely with more waiting;
        // without any, what filled it was this exchange's, and the next request is read small.
        if (!buffer.hasRemaining()) {
            brimful = false;
            if (smallPool != null) giveBackSmall();
        }
    }

    /**
     * The connection reads no more: gives borrowed buffers back whatever they hold. Reading after
     * this finds no bytes buffered.
     */
    public void release() {
        if (large != null) giveBack();
        if (small != null) small.clear().limit(0);
        if (smallPool != null) giveBackSmall();
    }

    /** Compacts the current buffer for a read, first moving to the large one when more room is needed. */
    private void makeRoom() {
        if (buffer == NONE) takeSmall();
        buffer.compact();
        if (buffer != small || pool == null) return;
        if (small.hasRemaining() && !brimful) return;
        ByteBuffer borrowed = pool.acquire();
        borrowed.clear();
        small.flip();
        borrowed.put(small); // the unconsumed bytes, in order
        small.clear().limit(0);
        large = borrowed;
        buffer = borrowed;
        brimful = false;
    }

    private void noteFill() {
        brimful = buffer == small && small.limit() == small.capacity();
    }

    private void giveBack() {
        ByteBuffer borrowed = large;
        large = null;
        buffer = small != null ? small : NONE;
        brimful = false;
        pool.release(borrowed);
    }

    /** Makes the small buffer current, empty, borrowing it first when none is held. */
    private void takeSmall() {
        if (small == null) small = smallPool.acquire();
        small.clear().limit(0);
        buffer = small;
    }

    /** Gives a borrowed small buffer back, empty: nothing is held until the next read. */
    private void giveBackSmall() {
        if (small == null || large != null) return;
        ByteBuffer borrowed = small;
        small = null;
        buffer = NONE;
        smallPool.release(borrowed);
    }
}
