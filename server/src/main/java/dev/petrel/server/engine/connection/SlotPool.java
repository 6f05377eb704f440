package dev.petrel.server.engine.connection;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Things shared by the connections of one listener, so that a connection holds one only while it
 * needs it and a busy one takes one back from the pool instead of allocating one.
 * {@link dev.petrel.server.engine.exchange.BufferPool BufferPool} holds arrays (response buffers),
 * {@link InputBufferPool} heap byte buffers (read buffers), and
 * HTTP/1.1 pools the machinery of an exchange in flight.
 *
 * <p>A fixed set of slots, each empty or holding a free item, taken and given back with one
 * compare-and-set and no lock, so the pool itself allocates nothing. When every slot is empty a
 * new item is allocated; when every slot is full a returned one is left to the collector.
 * Each thread starts looking at a different slot to keep threads apart. Every item taken must be
 * given back, even one the pool then leaves to the collector: {@link ResourceCounters} checks that.
 *
 * @param <B> the kind of item
 */
public abstract class SlotPool<B> {
    private final AtomicReferenceArray<B> slots;
    private final ResourceCounters.Resource counted;

    /** A pool of at most {@code capacity} free items, each taken and given back counted as {@code counted}. */
    protected SlotPool(int capacity, ResourceCounters.Resource counted) {
        this.slots = new AtomicReferenceArray<>(capacity);
        this.counted = counted;
    }

    /** Slots for a pool sized for the machine: a few free buffers per processor. */
    public static int capacityForProcessors() {
        return Math.max(16, 8 * Runtime.getRuntime().availableProcessors());
    }

    /** A new item, when no free one is left. */
    protected abstract B allocate();

    /** Whether {@code item} could have come from this pool (a buffer of its size), to refuse one that did not. */
    protected abstract boolean belongs(B item);

    /** A free item, its contents undefined. */
    public final B acquire() {
        ResourceCounters.take(counted);
        int n = slots.length();
        int start = firstSlot(n);
        for (int i = 0; i < n; i++) {
            int slot = (start + i) % n;
            B buffer = slots.getPlain(slot);
            if (buffer != null && slots.compareAndSet(slot, buffer, null)) return buffer;
        }
        return allocate();
    }

    /** Gives back an item from {@link #acquire()}; the caller must not touch it afterwards. */
    public final void release(B buffer) {
        if (!belongs(buffer)) throw new IllegalArgumentException("not an item of this pool");
        ResourceCounters.giveBack(counted);
        int n = slots.length();
        int start = firstSlot(n);
        for (int i = 0; i < n; i++) {
            int slot = (start + i) % n;
            if (slots.getPlain(slot) == null && slots.compareAndSet(slot, null, buffer)) return;
        }
        // full: the collector takes it
    }

    /**
     * Tells the pool that an item from {@link #acquire()} will not come back, as when another
     * thread may still hold it: the collector takes it, and for {@link ResourceCounters} it is given back.
     */
    public final void forget(B item) {
        ResourceCounters.giveBack(counted);
    }

    private static int firstSlot(int n) {
        return (int) (Thread.currentThread().threadId() % n);
    }
}
