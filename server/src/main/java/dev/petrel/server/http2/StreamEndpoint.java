package dev.petrel.server.http2;

import dev.petrel.http2.Http2ErrorCode;
import dev.petrel.server.TlsDetails;
import dev.petrel.server.engine.Endpoint;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Map;

/**
 * A stream as the exchange sees its connection: where the request came from is the connection's,
 * and cutting it ({@link #close()}, when a response fails after bytes of it have left) resets the
 * stream alone, not the connection the other streams share. Bytes never move through it: the
 * stream's body and wire do that.
 */
final class StreamEndpoint implements Endpoint {
    private final Endpoint connectionEndpoint;
    private final Http2Connection connection;
    private final Http2Stream stream;

    StreamEndpoint(Endpoint connectionEndpoint, Http2Connection connection, Http2Stream stream) {
        this.connectionEndpoint = connectionEndpoint;
        this.connection = connection;
        this.stream = stream;
    }

    @Override
    public int read(ByteBuffer dst, int timeoutMillis) {
        throw new UnsupportedOperationException("a stream's body is read through its StreamBody");
    }

    @Override
    public void write(byte[] src, int off, int len) {
        throw new UnsupportedOperationException("a stream's response is written through its Http2Wire");
    }

    @Override
    public void shutdownOutput() {
        // a stream ends with END_STREAM, which its wire sends
    }

    /** Resets the stream: the client sees it fail rather than end as if complete. */
    @Override
    public void close() {
        connection.reset(stream, Http2ErrorCode.INTERNAL_ERROR);
    }

    /** The same: a stream's reset is the failure its client sees, and the other streams go on. */
    @Override
    public void reset() {
        close();
    }

    /** True while the handler runs inline on the connection's reader: it must not detach its response. */
    @Override
    public boolean onEventLoop() {
        return stream.isInline();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return connectionEndpoint.remoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return connectionEndpoint.localAddress();
    }

    @Override
    public TlsDetails tls() {
        return connectionEndpoint.tls();
    }

    @Override
    public String scheme() {
        return connectionEndpoint.scheme();
    }

    @Override
    public String applicationProtocol() {
        return connectionEndpoint.applicationProtocol();
    }

    @Override
    public Map<String, String> attributes() {
        return connectionEndpoint.attributes();
    }
}
