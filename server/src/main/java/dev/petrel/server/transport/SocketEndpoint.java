package dev.petrel.server.transport;

import dev.petrel.server.engine.ConnectorCounters;
import dev.petrel.server.engine.Endpoint;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;

/**
 * An {@link Endpoint} over a blocking {@link Socket}, shared by the {@code blocking} and
 * {@code virtual} transports: on a virtual thread the same blocking calls park the thread
 * instead of holding a carrier. Writes have no timeout of their own; a {@link WriteWatchdog}
 * closes the socket under a write that waits too long. A blocking write shows no progress until it
 * returns, so writes go out in slices of {@link WriteLimits#SLICE_BYTES}, each with its own
 * deadline (see {@link WriteLimits}): a large response to a client that keeps up is never cut for
 * its size.
 */
final class SocketEndpoint implements Endpoint {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final InetSocketAddress remote;
    private final InetSocketAddress local;
    private final WriteLimits writeLimits;
    private final ConnectorCounters counters; // null: not counted
    private int currentTimeout = -1;
    private volatile long writeDeadline; // nanoTime by which the current slice must be written; 0 when not writing

    SocketEndpoint(Socket socket, WriteLimits writeLimits, ConnectorCounters counters) throws IOException {
        this.socket = socket;
        this.writeLimits = writeLimits;
        this.counters = counters;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.remote = (InetSocketAddress) socket.getRemoteSocketAddress();
        this.local = (InetSocketAddress) socket.getLocalSocketAddress();
    }

    @Override
    public int read(ByteBuffer dst, int timeoutMillis) throws IOException {
        if (timeoutMillis != currentTimeout) {
            socket.setSoTimeout(timeoutMillis); // setsockopt only when it changes
            currentTimeout = timeoutMillis;
        }
        int n = in.read(dst.array(), dst.arrayOffset() + dst.position(), dst.remaining());
        if (n > 0) {
            dst.position(dst.position() + n);
            if (counters != null) counters.received(n);
        }
        return n;
    }

    @Override
    public void write(byte[] src, int off, int len) throws IOException {
        try {
            while (len > 0) {
                int slice = WriteLimits.slice(len);
                long now = System.nanoTime();
                long deadline = writeLimits.deadline(now, slice, now);
                writeDeadline = deadline == 0 ? 1 : deadline;
                out.write(src, off, slice); // the socket stream loops over partial writes itself
                if (counters != null) counters.sent(slice);
                off += slice;
                len -= slice;
            }
        } finally {
            writeDeadline = 0;
        }
    }

    /** The {@link System#nanoTime()} by which the write in progress must be done, or 0 when none is. */
    long writeDeadline() {
        return writeDeadline;
    }

    @Override
    public void shutdownOutput() throws IOException {
        if (!socket.isClosed() && !socket.isOutputShutdown()) socket.shutdownOutput();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing: nothing to recover
        }
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
