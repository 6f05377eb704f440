package dev.petrel.server.engine;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A connection's read buffer: bytes read from the endpoint and not yet consumed lie between
 * the buffer's position and limit. The head parser and the body streams consume from it in turn,
 * so bytes of a pipelined next request simply stay here.
 */
final class ConnectionInput {
    private final Endpoint endpoint;
    private final ByteBuffer buffer;

    ConnectionInput(Endpoint endpoint, int size) {
        this.endpoint = endpoint;
        this.buffer = ByteBuffer.allocate(size);
        this.buffer.limit(0);
    }

    ByteBuffer buffer() {
        return buffer;
    }

    boolean hasRemaining() {
        return buffer.hasRemaining();
    }

    /**
     * Reads more bytes after the unconsumed ones.
     *
     * @return bytes read, or -1 at end of stream
     */
    int fill(int timeoutMillis) throws IOException {
        buffer.compact();
        try {
            return endpoint.read(buffer, timeoutMillis);
        } finally {
            buffer.flip();
        }
    }

    /**
     * Reads whatever has arrived after the unconsumed bytes, without waiting.
     *
     * @return bytes read, 0 when none had arrived, or -1 at end of stream
     */
    int fillAvailable() throws IOException {
        buffer.compact();
        try {
            return endpoint.readAvailable(buffer);
        } finally {
            buffer.flip();
        }
    }
}
