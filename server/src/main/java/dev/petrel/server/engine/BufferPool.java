package dev.petrel.server.engine;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Response buffers shared by the connections of one server. A connection holds one only while
 * an exchange writes its response, so that thousands of idle keep-alive connections hold none;
 * busy ones take a buffer back from the pool instead of allocating one per request.
 *
 * <p>A fixed set of slots, each empty or holding a free buffer, taken and given back with one
 * compare-and-set and no lock, so the pool itself allocates nothing. When every slot is empty a
 * new buffer is allocated; when every slot is full a returned buffer is left to the collector.
 * Each thread starts looking at a different slot to keep threads apart.
 */
final class BufferPool {
    private final int bufferSize;
    private final AtomicReferenceArray<byte[]> slots;

    /** A pool of at most {@code capacity} free buffers of {@code bufferSize} bytes. */
    BufferPool(int bufferSize, int capacity) {
        this.bufferSize = bufferSize;
        this.slots = new AtomicReferenceArray<>(capacity);
    }

    /** A pool sized for the machine: a few free buffers per processor. */
    static BufferPool forProcessors(int bufferSize) {
        return new BufferPool(bufferSize, Math.max(16, 8 * Runtime.getRuntime().availableProcessors()));
    }

    int bufferSize() {
        return bufferSize;
    }

    /** A free buffer, its contents undefined. */
    byte[] acquire() {
        int n = slots.length();
        int start = firstSlot(n);
        for (int i = 0; i < n; i++) {
            int slot = (start + i) % n;
            byte[] buffer = slots.getPlain(slot);
            if (buffer != null && slots.compareAndSet(slot, buffer, null)) return buffer;
        }
        return new byte[bufferSize];
    }

    /** Gives back a buffer from {@link #acquire()}; the caller must not touch it afterwards. */
    void release(byte[] buffer) {
        if (buffer.length != bufferSize) throw new IllegalArgumentException("not a buffer of this pool");
        int n = slots.length();
        int start = firstSlot(n);
        for (int i = 0; i < n; i++) {
            int slot = (start + i) % n;
            if (slots.getPlain(slot) == null && slots.compareAndSet(slot, null, buffer)) return;
        }
        // full: the collector takes it
    }

    private static int firstSlot(int n) {
        return (int) (Thread.currentThread().threadId() % n);
    }
}
