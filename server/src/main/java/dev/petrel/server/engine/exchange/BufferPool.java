package dev.petrel.server.engine.exchange;

import dev.petrel.server.engine.connection.ResourceCounters;
import dev.petrel.server.engine.connection.SlotPool;

/**
 * Response buffers (arrays) shared by the connections of one listener. A connection holds one
 * only while an exchange writes its response, so that thousands of idle keep-alive connections
 * hold none; busy ones take a buffer back from the pool instead of allocating one per request.
 * How the pool works: {@link SlotPool}.
 */
public final class BufferPool extends SlotPool<byte[]> {
    private final int bufferSize;

    /** A pool of at most {@code capacity} free buffers of {@code bufferSize} bytes. */
    public BufferPool(int bufferSize, int capacity) {
        super(capacity, ResourceCounters.Resource.RESPONSE_BUFFERS);
        this.bufferSize = bufferSize;
    }

    /** A pool sized for the machine: a few free buffers per processor. */
    public static BufferPool forProcessors(int bufferSize) {
        return new BufferPool(bufferSize, capacityForProcessors());
    }

    /** The size in bytes of every buffer of this pool. */
    public int bufferSize() {
        return bufferSize;
    }

    @Override
    protected byte[] allocate() {
        return new byte[bufferSize];
    }

    @Override
    protected boolean belongs(byte[] buffer) {
        return buffer.length == bufferSize;
    }
}
