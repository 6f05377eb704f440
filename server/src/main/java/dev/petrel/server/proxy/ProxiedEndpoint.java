package dev.petrel.server.proxy;

import dev.petrel.server.TlsDetails;
import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.connection.ReplayingEndpoint;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * An endpoint behind a PROXY protocol header: the same bytes, but the client's and the server's
 * addresses (and, where a v2 header says so, the client's TLS) are the ones the proxy reported.
 * Bytes that arrived with the header and follow it are handed out first.
 */
final class ProxiedEndpoint extends ReplayingEndpoint {
    private final InetSocketAddress remote;
    private final InetSocketAddress local;
    private final TlsDetails tls;

    ProxiedEndpoint(Endpoint endpoint, ProxyHeader header, ByteBuffer leftover) {
        super(endpoint, leftover);
        this.remote = header.source() != null ? header.source() : endpoint.remoteAddress();
        this.local = header.destination() != null ? header.destination() : endpoint.localAddress();
        this.tls = header.tls() ? new TlsDetails(header.tlsVersion(), header.tlsCipher(), -1, null, List.of()) : endpoint.tls();
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

    /** {@code https} when the client reached the proxy (or this server) over TLS. */
    @Override
    public String scheme() {
        return tls != null ? "https" : underlying().scheme();
    }
}
