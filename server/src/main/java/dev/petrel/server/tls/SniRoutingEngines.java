package dev.petrel.server.tls;

import dev.petrel.server.TlsEngineProvider;
import dev.petrel.server.config.SniHost;
import java.util.List;
import javax.net.ssl.SSLEngine;

/**
 * The engines of a listener whose configuration has {@link SniHost}s: the default's, and one set
 * per host, each over its own certificates and client authentication (and so its own session
 * cache and ticket keys: a session made for one host never resumes on another). Each connection
 * gets a {@link SniRoutingEngine}, which turns into the engine of the host its client names.
 */
final class SniRoutingEngines implements TlsEngineProvider.Engines {
    /** A host's name and its engines. */
    record Host(SniHost host, TlsEngineProvider.Engines engines) {}

    private final TlsEngineProvider.Engines defaults;
    private final List<Host> hosts;

    SniRoutingEngines(TlsEngineProvider.Engines defaults, List<Host> hosts) {
        this.defaults = defaults;
        this.hosts = List.copyOf(hosts);
    }

    TlsEngineProvider.Engines defaultEngines() {
        return defaults;
    }

    /** The engines for {@code serverName} (null: none sent): a host naming it exactly, else by wildcard, else the default's. */
    TlsEngineProvider.Engines forServerName(String serverName) {
        if (serverName == null) return defaults;
        for (Host host : hosts) if (host.host().covers(serverName, true)) return host.engines();
        for (Host host : hosts) if (host.host().covers(serverName, false)) return host.engines();
        return defaults;
    }

    @Override
    public SSLEngine newEngine(String peerHost, int peerPort) {
        return new SniRoutingEngine(this, peerHost, peerPort);
    }

    @Override
    public void release(SSLEngine engine) {
        if (engine instanceof SniRoutingEngine routing) routing.owner().release(routing.engine());
    }

    @Override
    public boolean wantsDirectBuffers() {
        return defaults.wantsDirectBuffers(); // one provider made them all
    }

    @Override
    public void close() {
        defaults.close();
        for (Host host : hosts) host.engines().close();
    }

    @Override
    public String description() {
        return defaults.description();
    }
}
