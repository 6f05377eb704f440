package dev.petrel.server.transport;

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
 * closes the socket under a write that waits too long.
 */
final class SocketEndpoint implements Endpoint {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final InetSocketAddress remote;
    private final InetSocketAddress local;
    private int currentTimeout = -1;
    private volatile long writingSince; // nanoTime the current write began; 0 when not writing

    SocketEndpoint(Socket socket) throws IOException {
        this.socket = socket;
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
        if (n > 0) dst.position(dst.position() + n);
        return n;
    }

    @Override
    public void write(byte[] src, int off, int len) throws IOException {
        long now = System.nanoTime();
        writingSince = now == 0 ? 1 : now;
        try {
            out.write(src, off, len); // the socket stream loops over partial writes itself
        } finally {
            writingSince = 0;
        }
    }

    /** When the write in progress began ({@link System#nanoTime()}), or 0 when none is. */
    long writingSince() {
        return writingSince;
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
