package dev.petrel.server.tls;

import java.nio.ByteBuffer;
import javax.net.ssl.SSLSession;

/**
 * Where one connection's record buffers come from and when they may go back: from the listener's
 * {@link TlsBufferPool} when there is one and it holds the size and kind asked for, else made for
 * the connection and kept by it. The reader and the writer each hold their own buffers under their
 * own lock; this is the one set of rules both follow.
 *
 * <p>Three buffers, sized once from the engine's session at construction and never grown:
 * ciphertext in ({@link SSLSession#getPacketBufferSize()}, 16,709 bytes on the JDK), plaintext in
 * (the larger of {@link SSLSession#getApplicationBufferSize()} and a packet) and ciphertext out (one
 * packet again), on the heap or in {@linkplain TlsEndpoint.Buffers#DIRECT native memory}. A record
 * that does not fit them is an error, not a reason to grow. With a pool they come from the pool
 * and go back to it when the endpoint closes, and, once the handshake is done, whenever nothing is
 * buffered in them (the connection waits for its next request): the plaintext in and ciphertext
 * out always, the ciphertext in over a raw endpoint that
 * {@linkplain dev.petrel.server.engine.connection.Endpoint#waitsWithoutThread() waits without a thread}
 * (elsewhere a thread waits in a read with it). They are taken again when the next read or write
 * begins. In native memory, a write also copies its plaintext into a fourth buffer, taken from the
 * pool for that write only.
 */
final class TlsRecordBuffers {
    /**
     * A record buffer while the endpoint holds none (see {@link TlsBufferPool}): empty and
     * read-only. Shared, which is safe because its position, limit and mark can only ever be zero.
     */
    static final ByteBuffer NONE = ByteBuffer.allocate(0).asReadOnlyBuffer();

    private final TlsState state;
    private final TlsEndpoint.Buffers kind;
    private final TlsBufferPool pool; // null: the record buffers are the connection's own, for good
    final int packetSize;
    final int appInSize;
    final int plaintextPerRecord; // what one record of a write through native memory carries

    /** The rules for a connection whose engine has {@code session}, keeping records in {@code kind}, pooled in {@code pool} (null: none). */
    TlsRecordBuffers(SSLSession session, TlsEndpoint.Buffers kind, TlsBufferPool pool, TlsState state) {
        this.state = state;
        this.kind = kind;
        this.pool = pool;
        this.packetSize = session.getPacketBufferSize();
        // Room for a whole record's ciphertext, not only its plaintext: an engine over OpenSSL or
        // BoringSSL checks the room against the record's length before decrypting it (16,401 bytes
        // for 16 KiB of TLS 1.3 plaintext), and would otherwise ask for a larger buffer every time.
        this.appInSize = Math.max(session.getApplicationBufferSize(), packetSize);
        this.plaintextPerRecord = Math.min(session.getApplicationBufferSize(), packetSize);
    }

    /** Whether records are kept in native memory, where a write copies its plaintext first. */
    boolean direct() {
        return kind == TlsEndpoint.Buffers.DIRECT;
    }

    /** Whether buffers come from a pool, and so go back to it. */
    boolean pooling() {
        return pool != null;
    }

    /** Whether a side gives back a buffer with nothing in it: with a pool, once the handshake is done. */
    boolean givesBackWhileIdle() {
        return pool != null && state.established;
    }

    /** A buffer of {@code size} bytes, cleared: the pool's when it holds that size, else a new one. */
    ByteBuffer take(int size) {
        return pooled(size) ? pool.acquire().clear() : kind.allocate(size);
    }

    /** A buffer of {@code size} bytes of this connection's kind that never goes to the pool. */
    ByteBuffer allocate(int size) {
        return kind.allocate(size);
    }

    void giveBack(ByteBuffer buffer) {
        if (pooled(buffer.capacity())) pool.release(buffer);
    }

    private boolean pooled(int size) {
        return pool != null && pool.bufferSize() == size && pool.kind() == kind;
    }
}
