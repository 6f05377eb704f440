package dev.petrel.server.websocket;

import java.nio.ByteBuffer;

/**
 * Where a session reads the client's bytes: a small buffer while it waits, a large one only while
 * bytes stream in. Most sessions wait most of the time, each with a read pending, so the buffer
 * it waits with is what 10,000 idle sessions hold 10,000 times: 1 KiB rather than 16 KiB (the
 * lab's {@code websocket-idle} measured 16 KiB of every 20 KiB a session held on the heap in the
 * large one). The decoder keeps what it needs of a partial frame itself (see
 * {@link dev.petrel.websocket.MessageDecoder}), so the buffer can change between reads.
 *
 * <p>A read that fills its buffer says more bytes are likely waiting: the next read takes the
 * large buffer. A read that does not says the client has paused: the next one waits in the small
 * buffer, and the large one goes (a session streaming large messages allocates it again on its
 * next full read, one 16 KiB array per pause, against the message's own array). Not thread-safe:
 * the session's receiving thread alone uses it.
 */
final class SessionReadBuffer {
    static final int WAITING_BYTES = 1024;
    static final int STREAMING_BYTES = 16 * 1024;

    private final ByteBuffer waiting = ByteBuffer.allocate(WAITING_BYTES).flip();
    private ByteBuffer streaming; // null while the session waits
    private ByteBuffer current = waiting;

    /** The bytes read and not yet decoded. */
    ByteBuffer input() {
        return current;
    }

    /** Chooses the buffer for the next read (the current one must be drained) and clears it for writing. */
    ByteBuffer startRead() {
        boolean wasFull = current.limit() == current.capacity();
        if (wasFull) {
            if (streaming == null) streaming = ByteBuffer.allocate(STREAMING_BYTES);
            current = streaming;
        } else {
            streaming = null;
            current = waiting;
        }
        return current.clear();
    }

    /** After the read: the bytes it brought, ready to decode. */
    void endRead() {
        current.flip();
    }
}
