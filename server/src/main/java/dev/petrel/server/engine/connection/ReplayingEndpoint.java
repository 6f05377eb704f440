package dev.petrel.server.engine.connection;

import dev.petrel.server.TlsDetails;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Map;

/**
 * The endpoint a selection step hands on after reading the first bytes of a connection to decide
 * what it is (a PROXY protocol header, the HTTP/2 preface): the same connection, whose reads
 * return the bytes read already first. Everything else goes to the endpoint underneath; a step
 * that learnt more about the connection (the client's real address, the protocol) overrides what
 * it learnt.
 */
public class ReplayingEndpoint implements Endpoint {
    private final Endpoint endpoint;
    private final ByteBuffer unread; // read mode: read from the connection, not handed out yet

    /**
     * @param endpoint the connection
     * @param unread bytes read from it that the next reader must see first, in read mode
     */
    public ReplayingEndpoint(Endpoint endpoint, ByteBuffer unread) {
        this.endpoint = endpoint;
        this.unread = unread;
    }

    /** The connection underneath. */
    protected final Endpoint underlying() {
        return endpoint;
    }

    @Override
    public int read(ByteBuffer dst, int timeoutMillis) throws IOException {
        return unread.hasRemaining() ? replay(dst) : endpoint.read(dst, timeoutMillis);
    }

    @Override
    public int readAvailable(ByteBuffer dst) throws IOException {
        return unread.hasRemaining() ? replay(dst) : endpoint.readAvailable(dst);
    }

    private int replay(ByteBuffer dst) {
        int n = Math.min(dst.remaining(), unread.remaining());
        int limit = unread.limit();
        unread.limit(unread.position() + n);
        dst.put(unread);
        unread.limit(limit);
        return n;
    }

    /** The bytes read already are here without the socket turning readable again. */
    @Override
    public boolean hasBufferedInput() {
        return unread.hasRemaining() || endpoint.hasBufferedInput();
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
    public void reset() {
        endpoint.reset();
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
        return endpoint.applicationProtocol();
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
