package dev.petrel.server.transport;

import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.observe.ConnectorCounters;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
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
    /** A whole TLS record (16 KiB of plaintext and what protects it), the most a native engine's endpoint moves at once. */
    private static final int THROUGH_BYTES = 17 * 1024;
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final InetSocketAddress remote;
    private final InetSocketAddress local;
    private final WriteLimits writeLimits;
    private final ConnectorCounters counters; // null: not counted
    private int currentTimeout = -1;
    // the arrays direct buffers go through, made at the first use; one per direction, as a reader
    // and a writer may be at work at once
    private byte[] readThrough;
    private byte[] writeThrough;
    private long sliceStart; // when the current slice began, and its bytes: written before writeDeadline, read after it
    private int sliceBytes;
    private volatile long writeDeadline; // nanoTime by which the current slice must be written, send buffer not counted; 0 when not writing
    private volatile boolean writeCut; // the watchdog closed the socket under an overdue write

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
        if (!dst.hasArray()) return readIntoNativeMemory(dst);
        int n = in.read(dst.array(), dst.arrayOffset() + dst.position(), dst.remaining());
        if (n > 0) {
            dst.position(dst.position() + n);
            if (counters != null) counters.received(n);
        }
        return n;
    }

    /** A socket stream reads into arrays only: a direct buffer (TLS records for a native engine) is filled through one. */
    private int readIntoNativeMemory(ByteBuffer dst) throws IOException {
        if (readThrough == null) readThrough = new byte[THROUGH_BYTES];
        int n = in.read(readThrough, 0, Math.min(readThrough.length, dst.remaining()));
        if (n > 0) {
            dst.put(readThrough, 0, n);
            if (counters != null) counters.received(n);
        }
        return n;
    }

    /** Writes a direct buffer (TLS records for a native engine) through an array, as a socket stream takes nothing else. */
    @Override
    public void write(ByteBuffer src) throws IOException {
        if (src.hasArray()) {
            Endpoint.super.write(src);
            return;
        }
        if (writeThrough == null) writeThrough = new byte[THROUGH_BYTES];
        while (src.hasRemaining()) {
            int n = Math.min(writeThrough.length, src.remaining());
            src.get(writeThrough, 0, n);
            write(writeThrough, 0, n);
        }
    }

    @Override
    public void write(byte[] src, int off, int len) throws IOException {
        try {
            while (len > 0) {
                int slice = WriteLimits.slice(len);
                long now = System.nanoTime();
                // the earliest the slice can be due; the watchdog adds the send buffer's share
                // only when that has passed, so a write that does not wait asks the socket nothing
                long deadline = writeLimits.deadline(now, slice, now, 0);
                sliceStart = now;
                sliceBytes = slice;
                writeDeadline = deadline == 0 ? 1 : deadline;
                out.write(src, off, slice); // the socket stream loops over partial writes itself
                if (counters != null) counters.sent(slice);
                off += slice;
                len -= slice;
            }
        } catch (IOException e) {
            // the watchdog's close shows as "Socket closed": say it was the timeout, as the contract says
            if (writeCut) throw (SocketTimeoutException) writeLimits.timedOut().initCause(e);
            throw e;
        } finally {
            writeDeadline = 0;
        }
    }

    /**
     * Whether the write in progress is past its deadline at {@code now}. Past the earliest
     * deadline the slice could have, this asks the socket how large its send buffer has grown and
     * decides by the full limits (see {@link WriteLimits}).
     */
    boolean writeOverdue(long now) {
        long deadline = writeDeadline;
        if (deadline == 0 || now - deadline <= 0) return false;
        long start = sliceStart;
        int bytes = sliceBytes;
        if (writeDeadline != deadline) return false; // the next slice began meanwhile
        long sendBuffer;
        try {
            sendBuffer = socket.getSendBufferSize();
        } catch (SocketException e) {
            return true; // closed under the write: closing again frees what is left
        }
        return now - writeLimits.deadline(start, bytes, start, sendBuffer) > 0;
    }

    /** The watchdog's cut of an overdue write: closes the socket, and has the failing write say it timed out. */
    void cutOverdueWrite() {
        writeCut = true;
        close();
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

    /** A reset (linger 0): what the client reads ends in an error, never in an orderly end of stream. */
    @Override
    public void reset() {
        try {
            if (!socket.isClosed()) socket.setSoLinger(true, 0);
        } catch (IOException ignored) {
            // the socket is gone already: closing it is all that is left
        }
        close();
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
