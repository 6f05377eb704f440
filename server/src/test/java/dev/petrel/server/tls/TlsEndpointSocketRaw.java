package dev.petrel.server.tls;

import dev.petrel.server.engine.connection.Endpoint;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;

/**
 * A raw {@link Endpoint} over an accepted blocking {@link Socket}, as the blocking transport's
 * own (package-private there) does it: reads with {@code SO_TIMEOUT}, writes that complete.
 */
final class TlsEndpointSocketRaw implements Endpoint {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private int currentTimeout = -1;

    TlsEndpointSocketRaw(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    @Override
    public int read(ByteBuffer dst, int timeoutMillis) throws IOException {
        if (timeoutMillis != currentTimeout) {
            socket.setSoTimeout(timeoutMillis);
            currentTimeout = timeoutMillis;
        }
        if (!dst.hasArray()) { // records in native memory (TlsEndpoint.Buffers.DIRECT)
            byte[] through = new byte[dst.remaining()];
            int n = in.read(through);
            if (n > 0) dst.put(through, 0, n);
            return n;
        }
        int n = in.read(dst.array(), dst.arrayOffset() + dst.position(), dst.remaining());
        if (n > 0) dst.position(dst.position() + n);
        return n;
    }

    @Override
    public void write(byte[] src, int off, int len) throws IOException {
        out.write(src, off, len);
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
            // closing
        }
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return (InetSocketAddress) socket.getRemoteSocketAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }
}
