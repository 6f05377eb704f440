package dev.petrel.server.proxy;

import dev.petrel.server.TlsDetails;
import dev.petrel.server.engine.Endpoint;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.List;

/**
 * An endpoint behind a PROXY protocol header: the same bytes, but the client's and the server's
 * addresses (and, where a v2 header says so, the client's TLS) are the ones the proxy reported.
 * Bytes that arrived with the header and follow it are handed out first.
 */
final class ProxiedEndpoint implements Endpoint {
    private final Endpoint endpoint;
    private final ByteBuffer leftover; // client bytes read together with the header
    private final InetSocketAddress remote;
    private final InetSocketAddress local;
    private final TlsDetails tls;

    ProxiedEndpoint(Endpoint endpoint, ProxyHeader header, ByteBuffer leftover) {
        this.endpoint = endpoint;
        this.leftover = leftover;
        this.remote = header.source() != null ? header.source() : endpoint.remoteAddress();
        this.local = header.destination() != null ? header.destination() : endpoint.localAddress();
        this.tls = header.tls() ? new TlsDetails(header.tlsVersion(), header.tlsCipher(), -1, null, List.of()) : endpoint.tls();
    }

    @Override
    public int read(ByteBuffer dst, int timeoutMillis) throws IOException {
        return leftover.hasRemaining() ? takeLeftover(dst) : endpoint.read(dst, timeoutMillis);
    }

    @Override
    public int readAvailable(ByteBuffer dst) throws IOException {
        return leftover.hasRemaining() ? takeLeftover(dst) : endpoint.readAvailable(dst);
    }

    private int takeLeftover(ByteBuffer dst) {
        int n = Math.min(dst.remaining(), leftover.remaining());
        int limit = leftover.limit();
        leftover.limit(leftover.position() + n);
        dst.put(leftover);
        leftover.limit(limit);
        return n;
    }

    /** Bytes that came with the header are here without the socket turning readable again. */
    @Override
    public boolean hasBufferedInput() {
        return leftover.hasRemaining() || endpoint.hasBufferedInput();
    }

    @Override
    public boolean waitsWithoutThread() {
        return endpoint.waitsWithoutThread();
    }

    @Override
    public boolean onEventLoop() {
        return endpoint.onEventLoop();
    }

    @Override
    public void write(byte[] src, int off, int len) throws IOException {
        endpoint.write(src, off, len);
    }

    @Override
    public void write(ByteBuffer src) throws IOException {
        endpoint.write(src);
    }

    @Override
    public boolean transferFile(FileChannel file, long position, long count) throws IOException {
        return endpoint.transferFile(file, position, count);
    }

    @Override
    public void shutdownOutput() throws IOException {
        endpoint.shutdownOutput();
    }

    @Override
    public void closeGracefully(int lingerMillis, int lingerBytes) {
        endpoint.closeGracefully(lingerMillis, lingerBytes);
    }

    @Override
    public void close() {
        endpoint.close();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return remote;
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }

    @Override
    public TlsDetails tls() {
        return tls;
    }

    @Override
    public String applicationProtocol() {
        return endpoint.applicationProtocol();
    }

    /** {@code https} when the client reached the proxy (or this server) over TLS. */
    @Override
    public String scheme() {
        return tls != null ? "https" : endpoint.scheme();
    }
}
