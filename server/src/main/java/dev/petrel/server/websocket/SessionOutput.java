package dev.petrel.server.websocket;

import dev.petrel.server.engine.connection.Endpoint;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * The frames a session on an event loop could not write at once, in order, for the loop to send
 * when the socket has room. Each is a copy: the encoder reuses its buffer for the next frame. The
 * session guards it with its send lock and bounds it, makes one when a send finds the socket full,
 * and drops it once it is out (see {@link WebSocketSession}).
 */
final class SessionOutput {
    private final ArrayDeque<ByteBuffer> frames = new ArrayDeque<>();
    private long bytes;

    /** Frames queued, the one partly written included. */
    int frames() {
        return frames.size();
    }

    /** Bytes queued and not yet taken by the socket. */
    long bytes() {
        return bytes;
    }

    /** Queues a copy of what is left of {@code frame}, from its position to its limit. */
    void add(ByteBuffer frame) {
        ByteBuffer copy = ByteBuffer.allocate(frame.remaining());
        copy.put(frame).flip();
        frames.add(copy);
        bytes += copy.remaining();
    }

    /**
     * Writes queued frames while the socket takes them, without waiting.
     *
     * @return true when everything queued has been written
     */
    boolean flush(Endpoint endpoint) throws IOException {
        ByteBuffer head;
        while ((head = frames.peek()) != null) {
            int before = head.remaining();
            endpoint.writeAvailable(head);
            bytes -= before - head.remaining();
            if (head.hasRemaining()) return false;
            frames.poll();
        }
        return true;
    }
}
