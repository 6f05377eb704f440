package dev.petrel.server.engine;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Buffers of one size shared by the connections of one listener, so that a connection holds one
 * only while it needs it and a busy one takes a buffer back from the pool instead of allocating
 * one. {@link BufferPool} holds arrays (response buffers), {@link InputBufferPool} heap byte
 * buffers (large read buffers).
 *
 * <p>A fixed set of slots, each empty or holding a free buffer, taken and given back with one
 * compare-and-set and no lock, so the pool itself allocates nothing. When every slot is empty a
 * new buffer is allocated; when every slot is full a returned buffer is left to the collector.
 * Each thread starts looking at a different slot to keep threads apart.
 *
 * @param <B> the kind of buffer
 */
public abstract class SlotPool<B> {
    private final int bufferSize;
    private final AtomicReferenceArray<B> slots;

    /** A pool of at most {@code capacity} free buffers of {@code bufferSize} bytes. */
    public SlotPool(int bufferSize, int capacity) {
        this.bufferSize = bufferSize;
        this.slots = new AtomicReferenceArray<>(capacity);
    }

    /** Slots for a pool sized for the machine: a few free buffers per processor. */
    public static int capacityForProcessors() {
        return Math.max(16, 8 * Runtime.getRuntime().availableProcessors());
    }

    /** The size in bytes of every buffer of this pool. */
    public final int bufferSize() {
        return bufferSize;
    }

    /** A new buffer of {@link #bufferSize()} bytes, when no free one is left. */
    public abstract B allocate();

    /** The size in bytes of {@code buffer}, to refuse one that is not of this pool. */
    public abstract int sizeOf(B buffer);

    /** A free buffer, its contents undefined. */
    public final B acquire() {
        int n = slots.length();
        int start = firstSlot(n);
        for (int i = 0; i < n; i++) {
            int slot = (start + i) % n;
            B buffer = slots.getPlain(slot);
            if (buffer != null && slots.compareAndSet(slot, buffer, null)) return buffer;
        }
        return allocate();
    }

    /** Gives back a buffer from {@link #acquire()}; the caller must not touch it afterwards. */
    public final void release(B buffer) {
        if (sizeOf(buffer) != bufferSize) throw new IllegalArgumentException("not a buffer of this pool");
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
