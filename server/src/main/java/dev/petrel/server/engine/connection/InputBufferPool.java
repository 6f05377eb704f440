package dev.petrel.server.engine.connection;

import java.nio.ByteBuffer;

/**
 * Large read buffers shared by the connections of one listener (see {@link ConnectionInput}):
 * a connection borrows one only while its input outgrows its small buffer, for a large head, a
 * pipelined burst or a request body. Heap {@link ByteBuffer}s rather than arrays, so that taking
 * one back does not allocate a new wrapper. How the pool works: {@link SlotPool}.
 */
public final class InputBufferPool extends SlotPool<ByteBuffer> {
    private final int bufferSize;

    /** A pool of at most {@code capacity} free buffers of {@code bufferSize} bytes. */
    public InputBufferPool(int bufferSize, int capacity) {
        super(capacity, ResourceCounters.Resource.INPUT_BUFFERS);
        this.bufferSize = bufferSize;
    }

    /** A pool sized for the machine: a few free buffers per processor. */
    public static InputBufferPool forProcessors(int bufferSize) {
        return new InputBufferPool(bufferSize, capacityForProcessors());
    }

    /** The size in bytes of every buffer of this pool. */
    public int bufferSize() {
        return bufferSize;
    }

    @Override
    protected ByteBuffer allocate() {
        return ByteBuffer.allocate(bufferSize);
    }

    @Override
    protected boolean belongs(ByteBuffer buffer) {
        return buffer.capacity() == bufferSize;
    }
}
