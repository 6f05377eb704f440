package dev.petrel.server.tls;

import dev.petrel.server.TlsEngineProvider;
import dev.petrel.server.config.TlsConfig;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLEngine;

/**
 * A loaded, checked TLS configuration: its certificates and the engine's
 * {@link TlsEngineProvider.Engines} that serve them. Immutable; a reload builds a new one (see
 * {@link ReloadableTlsContext}) and {@linkplain #retire() retires} this one, whose live engines
 * keep working until their connections close. Made by {@link TlsContextFactory#create}.
 */
public final class TlsContext {
    private final TlsConfig config;
    private final TlsEngineProvider.Engines engines;
    private final List<ServerCertificate> certificates;

    TlsContext(TlsConfig config, TlsEngineProvider.Engines engines, List<ServerCertificate> certificates) {
        this.config = config;
        this.engines = engines;
        this.certificates = List.copyOf(certificates);
    }

    /** The configuration this was built from. */
    public TlsConfig config() {
        return config;
    }

    /** The engine's side: what makes and frees {@link SSLEngine}s. */
    public TlsEngineProvider.Engines engines() {
        return engines;
    }

    /** The certificates served, the default first. */
    public List<ServerCertificate> certificates() {
        return certificates;
    }

    /** Time allowed for a handshake; the transport enforces it. */
    public Duration handshakeTimeout() {
        return config.handshakeTimeout();
    }

    /** A server-mode engine, configured, for one connection; {@link #release} it once that has closed. */
    public SSLEngine newEngine() {
        return engines.newEngine(null, -1);
    }

    /**
     * Like {@link #newEngine()}, with the peer's address as a hint for session caching.
     *
     * @param peerHost the client's address
     * @param peerPort the client's port
     */
    public SSLEngine newEngine(String peerHost, int peerPort) {
        return engines.newEngine(peerHost, peerPort);
    }

    /** Frees what {@code engine}, made here, holds; once, after its connection closed. */
    public void release(SSLEngine engine) {
        engines.release(engine);
    }

    /** No new engines from here: a newer context replaced this one, or the server stopped. */
    void retire() {
        engines.close();
    }
}
