package dev.petrel.server.tls;

import dev.petrel.server.TlsEngineProvider;
import dev.petrel.server.engine.connection.ResourceCounters;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLEngine;

/**
 * A provider's engines with each engine made and released, and the set itself made and closed,
 * told to {@link ResourceCounters}: with BoringSSL that is every native {@code SSL} and
 * {@code SSL_CTX}, so an engine a connection never released shows after the server stops. Used
 * only while counting is on; otherwise the provider's engines are used as they are.
 */
public final class CountedEngines implements TlsEngineProvider.Engines {
    private final TlsEngineProvider.Engines counted;
    private final AtomicBoolean closed = new AtomicBoolean();

    private CountedEngines(TlsEngineProvider.Engines counted) {
        this.counted = counted;
        ResourceCounters.take(ResourceCounters.Resource.TLS_CONTEXTS);
    }

    /** {@code engines}, counted when counting is on. */
    static TlsEngineProvider.Engines of(TlsEngineProvider.Engines engines) {
        return ResourceCounters.ON ? new CountedEngines(engines) : engines;
    }

    /** The provider's own engines under {@code engines}, for tests that look at them. */
    public static TlsEngineProvider.Engines unwrap(TlsEngineProvider.Engines engines) {
        return engines instanceof CountedEngines counting ? counting.counted : engines;
    }

    @Override
    public SSLEngine newEngine(String peerHost, int peerPort) {
        SSLEngine engine = counted.newEngine(peerHost, peerPort);
        ResourceCounters.take(ResourceCounters.Resource.TLS_ENGINES);
        return engine;
    }

    @Override
    public void release(SSLEngine engine) {
        ResourceCounters.giveBack(ResourceCounters.Resource.TLS_ENGINES);
        counted.release(engine);
    }

    @Override
    public boolean wantsDirectBuffers() {
        return counted.wantsDirectBuffers();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) ResourceCounters.giveBack(ResourceCounters.Resource.TLS_CONTEXTS);
        counted.close();
    }

    @Override
    public String description() {
        return counted.description();
    }
}
