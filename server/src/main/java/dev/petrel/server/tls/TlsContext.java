package dev.petrel.server.tls;

import dev.petrel.server.TlsConfig;
import dev.petrel.server.tls.TlsContextFactory;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * A loaded, checked TLS configuration: the JSSE {@link SSLContext} (its key manager choosing the
 * certificate by SNI) and the {@link SSLParameters} every server-side engine gets.
 * Immutable; a reload builds a new one (see {@link ReloadableTlsContext}). Made by
 * {@link TlsContextFactory#create}.
 */
public final class TlsContext {
    private final TlsConfig config;
    private final SSLContext sslContext;
    private final SSLParameters parameters;
    private final List<ServerCertificate> certificates;

    TlsContext(TlsConfig config, SSLContext sslContext, SSLParameters parameters, List<ServerCertificate> certificates) {
        this.config = config;
        this.sslContext = sslContext;
        this.parameters = parameters;
        this.certificates = List.copyOf(certificates);
    }

    /** The configuration this was built from. */
    public TlsConfig config() {
        return config;
    }

    /** The JSSE context; engines made from it directly need {@link #parameters()} applied. */
    public SSLContext sslContext() {
        return sslContext;
    }

    /**
     * A fresh copy of the server parameters: protocols, cipher suites in server order, ALPN, no
     * SNI matcher, no client authentication.
     */
    public SSLParameters parameters() {
        return TlsContextFactory.copy(parameters);
    }

    /** The certificates served, the default first. */
    public List<ServerCertificate> certificates() {
        return certificates;
    }

    /** Time allowed for a handshake; the transport enforces it. */
    public Duration handshakeTimeout() {
        return config.handshakeTimeout();
    }

    /** A server-mode engine with the parameters applied, for one connection. */
    public SSLEngine newEngine() {
        SSLEngine engine = sslContext.createSSLEngine();
        engine.setUseClientMode(false);
        engine.setSSLParameters(parameters());
        return engine;
    }

    /**
     * Like {@link #newEngine()}, with the peer's address as a hint for session caching.
     *
     * @param peerHost the client's address
     * @param peerPort the client's port
     */
    public SSLEngine newEngine(String peerHost, int peerPort) {
        SSLEngine engine = sslContext.createSSLEngine(peerHost, peerPort);
        engine.setUseClientMode(false);
        engine.setSSLParameters(parameters());
        return engine;
    }
}
