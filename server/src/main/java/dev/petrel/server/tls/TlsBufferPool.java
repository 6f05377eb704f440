package dev.petrel.server.tls;

import dev.petrel.server.engine.connection.ResourceCounters;
import dev.petrel.server.engine.connection.SlotPool;
import java.nio.ByteBuffer;

/**
 * Record buffers shared by the TLS connections of one listener: on an event loop a
 * {@link TlsEndpoint} holds its three (about 49 KiB with the JDK's engine) only while records are
 * in flight, and gives them back when it waits for the next request with nothing buffered, so an
 * idle TLS connection holds none. How the pool works: {@link SlotPool}.
 */
public final class TlsBufferPool extends SlotPool<ByteBuffer> {
    private final int bufferSize;
    private final TlsEndpoint.Buffers kind;

    /** A pool of at most {@code capacity} free buffers of {@code bufferSize} bytes, of {@code kind}. */
    public TlsBufferPool(int bufferSize, TlsEndpoint.Buffers kind, int capacity) {
        super(capacity, ResourceCounters.Resource.TLS_RECORD_BUFFERS);
        this.bufferSize = bufferSize;
        this.kind = kind;
    }

    /** The size in bytes of every buffer of this pool. */
    public int bufferSize() {
        return bufferSize;
    }

    /** Heap or native memory. */
    public TlsEndpoint.Buffers kind() {
        return kind;
    }

    @Override
    protected ByteBuffer allocate() {
        return kind.allocate(bufferSize);
    }

    @Override
    protected boolean belongs(ByteBuffer buffer) {
        return buffer.capacity() == bufferSize && buffer.isDirect() == (kind == TlsEndpoint.Buffers.DIRECT);
    }
}
