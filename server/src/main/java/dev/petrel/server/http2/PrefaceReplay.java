package dev.petrel.server.http2;

import dev.petrel.server.TlsDetails;
import dev.petrel.server.engine.Endpoint;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Map;

/**
 * A plain connection after {@link PriorKnowledgeStep} looked at its first bytes: the same
 * connection, handing out those bytes first, and naming the protocol they showed ({@code h2c},
 * or none for HTTP/1.1) for the selection chain to open.
 */
final class PrefaceReplay implements Endpoint {
    /** The name the selection chain knows HTTP/2 with prior knowledge by. */
    static final String H2C = "h2c";

    private final Endpoint endpoint;
    private final ByteBuffer seen; // read mode: the bytes read while looking, not handed out yet
    private final String protocol;

    PrefaceReplay(Endpoint endpoint, ByteBuffer seen, boolean http2) {
        this.endpoint = endpoint;
        this.seen = seen;
        this.protocol = http2 ? H2C : endpoint.applicationProtocol();
    }

    @Override
    public int read(ByteBuffer dst, int timeoutMillis) throws IOException {
        return seen.hasRemaining() ? replay(dst) : endpoint.read(dst, timeoutMillis);
    }

    @Override
    public int readAvailable(ByteBuffer dst) throws IOException {
        return seen.hasRemaining() ? replay(dst) : endpoint.readAvailable(dst);
    }

    private int replay(ByteBuffer dst) {
        int n = Math.min(dst.remaining(), seen.remaining());
        int limit = seen.limit();
        seen.limit(seen.position() + n);
        dst.put(seen);
        seen.limit(limit);
        return n;
    }

    /** The bytes seen are here without the socket turning readable again. */
    @Override
    public boolean hasBufferedInput() {
        return seen.hasRemaining() || endpoint.hasBufferedInput();
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
    public boolean wakesOnLoop() {
        return endpoint.wakesOnLoop();
    }

    @Override
    public void wakeOnLoop() {
        endpoint.wakeOnLoop();
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
        return endpoint.remoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return endpoint.localAddress();
    }

    @Override
    public TlsDetails tls() {
        return endpoint.tls();
    }

    @Override
    public String applicationProtocol() {
        return protocol;
    }

    @Override
    public String scheme() {
        return endpoint.scheme();
    }

    @Override
    public Map<String, String> attributes() {
        return endpoint.attributes();
    }
}
