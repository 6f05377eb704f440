package dev.petrel.server.engine;

/**
 * Response buffers (arrays) shared by the connections of one listener. A connection holds one
 * only while an exchange writes its response, so that thousands of idle keep-alive connections
 * hold none; busy ones take a buffer back from the pool instead of allocating one per request.
 * How the pool works: {@link SlotPool}.
 */
public final class BufferPool extends SlotPool<byte[]> {
    /** A pool of at most {@code capacity} free buffers of {@code bufferSize} bytes. */
    public BufferPool(int bufferSize, int capacity) {
        super(bufferSize, capacity);
    }

    /** A pool sized for the machine: a few free buffers per processor. */
    public static BufferPool forProcessors(int bufferSize) {
        return new BufferPool(bufferSize, capacityForProcessors());
    }

    @Override
    public byte[] allocate() {
        return new byte[bufferSize()];
    }

    @Override
    public int sizeOf(byte[] buffer) {
        return buffer.length;
    }
}
