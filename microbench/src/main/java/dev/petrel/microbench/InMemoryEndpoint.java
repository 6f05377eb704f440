package dev.petrel.microbench;

import dev.petrel.server.engine.connection.Endpoint;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * An {@link Endpoint} with no socket behind it, for driving the protocol engine in memory: each
 * {@link #arrive()} makes one copy of the request bytes readable, and writes are counted and
 * dropped. It waits without a thread, the way the {@code nio} transport's endpoints do, so the
 * engine returns from {@code serve()} once it has answered what arrived.
 *
 * <p>It allocates nothing after construction, so whatever a benchmark's allocation profile shows
 * is the engine's own.
 */
final class InMemoryEndpoint implements Endpoint {
    private final byte[] request;
    private final InetSocketAddress remote = new InetSocketAddress("127.0.0.1", 40000);
    private final InetSocketAddress local = new InetSocketAddress("127.0.0.1", 8080);
    private int unread;
    private long bytesWritten;
    private long writes;
    private boolean closed;

    InMemoryEndpoint(byte[] request) {
        this.request = request;
    }

    /** Makes one more copy of the request readable. */
    void arrive() {
        unread += request.length;
    }

    long bytesWritten() {
        return bytesWritten;
    }

    long writes() {
        return writes;
    }

    boolean closed() {
        return closed;
    }

    @Override
    public int read(ByteBuffer dst, int timeoutMillis) throws IOException {
        int n = readAvailable(dst);
        if (n == 0) throw new IllegalStateException("the benchmark made no request arrive");
        return n;
    }

    @Override
    public int readAvailable(ByteBuffer dst) {
        int n = 0;
        while (unread > 0 && dst.hasRemaining()) {
            int offset = request.length - (unread % request.length == 0 ? request.length : unread % request.length);
            int piece = Math.min(dst.remaining(), request.length - offset);
            dst.put(request, offset, piece);
            unread -= piece;
            n += piece;
        }
        return n;
    }

    @Override
    public boolean waitsWithoutThread() {
        return true;
    }

    @Override
    public void write(byte[] src, int off, int len) {
        bytesWritten += len;
        writes++;
    }

    @Override
    public void shutdownOutput() {
        closed = true;
    }

    @Override
    public void closeGracefully(int lingerMillis, int lingerBytes) {
        closed = true;
    }

    @Override
    public void close() {
        closed = true;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return remote;
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }
}
