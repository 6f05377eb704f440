package dev.petrel.server.websocket;

import java.nio.ByteBuffer;

/**
 * Where a session reads the client's bytes. Most sessions wait most of the time, each with a read
 * pending, so what a session waits with is held as many times as there are sessions: the lab's
 * {@code websocket-idle} measured 20 KiB of heap a session, 16 of them a read buffer. The decoder
 * keeps what it needs of a partial frame itself (see {@link dev.petrel.websocket.MessageDecoder}),
 * so the buffer may change between reads. Two ways:
 *
 * <ul>
 *   <li><em>Its own</em>, for a session whose thread waits in a read: 1 KiB while it waits, and
 *       16 KiB only while bytes stream in. A read that fills its buffer says more bytes are likely
 *       waiting: the next read takes the large buffer. A read that does not says the client has
 *       paused: the next one waits in the small buffer, and the large one goes (a session streaming
 *       large messages allocates it again on its next full read, one 16 KiB array per pause,
 *       against the message's own array).</li>
 *   <li><em>Its event loop's</em> ({@link #shareLoopBuffer()}), for a session read only on its
 *       loop, which reads what has arrived and decodes all of it before the loop moves on: one
 *       16 KiB buffer per loop thread, none per session. The buffer remembers which session filled
 *       it, so bytes one session left (those after a close frame) are never another's.</li>
 * </ul>
 *
 * Not thread-safe: the session's receiving thread alone uses it.
 */
final class SessionReadBuffer {
    static final int WAITING_BYTES = 1024;
    static final int STREAMING_BYTES = 16 * 1024;

    private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);
    private static final ThreadLocal<LoopBuffer> LOOP_BUFFERS = ThreadLocal.withInitial(LoopBuffer::new);

    private ByteBuffer waiting; // its own: allocated by the first read
    private ByteBuffer streaming; // its own: null while the session waits
    private ByteBuffer current = NOTHING;
    private boolean shared;
    private LoopBuffer loopBuffer; // shared: the loop's, once read on it (a connection keeps its loop)

    /** From now on reads go into the buffer of the thread that reads: only for a session read on its event loop alone. */
    void shareLoopBuffer() {
        shared = true;
        waiting = null;
        streaming = null;
        current = NOTHING;
    }

    /** The bytes read and not yet decoded. */
    ByteBuffer input() {
        if (!shared) return current;
        LoopBuffer loop = loopBuffer;
        return loop != null && loop.owner == this ? loop.buffer : NOTHING;
    }

    /** Chooses the buffer for the next read (the input must be drained) and clears it for writing. */
    ByteBuffer startRead() {
        if (shared) {
            if (loopBuffer == null) loopBuffer = LOOP_BUFFERS.get();
            loopBuffer.owner = this;
            return loopBuffer.buffer.clear();
        }
        boolean wasFull = current.capacity() > 0 && current.limit() == current.capacity();
        if (wasFull) {
            if (streaming == null) streaming = ByteBuffer.allocate(STREAMING_BYTES);
            current = streaming;
        } else {
            streaming = null;
            if (waiting == null) waiting = ByteBuffer.allocate(WAITING_BYTES);
            current = waiting;
        }
        return current.clear();
    }

    /** After the read: the bytes it brought, ready to decode. */
    void endRead() {
        if (shared) loopBuffer.buffer.flip();
        else current.flip();
    }

    /**
     * One event loop's read buffer and the session whose bytes it holds. Direct: the socket reads
     * into it as it is, where a heap buffer costs the channel a temporary direct buffer (a
     * thread-local look-up) and a copy on every read; one per loop thread, so its native memory
     * is nothing.
     */
    private static final class LoopBuffer {
        final ByteBuffer buffer = ByteBuffer.allocateDirect(STREAMING_BYTES).flip();
        SessionReadBuffer owner;
    }
}
