package dev.petrel.server.tls;

import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TlsConfigException;
import javax.net.ssl.SSLEngine;

/**
 * The TLS context a listener uses, replaceable while it runs: {@link #reload()} re-reads and
 * re-checks every file and, only if all is well, swaps in the new context. Each new connection
 * takes the context current when it starts ({@link #newEngine()}); connections
 * already open keep the engine, and so the certificate, they began with.
 *
 * <p>The context a reload replaces is retired: engines of its own (BoringSSL's) are freed as the
 * connections that use them close, and then the context itself.
 *
 * <p>Thread-safe: the current context is one volatile field, read without locking on every
 * connection; reloads are serialized so a file-change reload and a SIGHUP reload cannot
 * interleave.
 */
public final class ReloadableTlsContext {
    private final TlsConfig config;
    private volatile TlsContext current;

    private ReloadableTlsContext(TlsConfig config, TlsContext initial) {
        this.config = config;
        this.current = initial;
    }

    /**
     * Loads {@code config} for the first time.
     *
     * @throws TlsConfigException as {@link TlsContextFactory#create} does
     */
    public static ReloadableTlsContext load(TlsConfig config) throws TlsConfigException {
        return new ReloadableTlsContext(config, TlsContextFactory.create(config));
    }

    /** The configuration re-read on each reload. */
    public TlsConfig config() {
        return config;
    }

    /** The context new connections get now. */
    public TlsContext current() {
        return current;
    }

    /** A server-mode engine from the current context, for one new connection. */
    public SSLEngine newEngine() {
        return current.newEngine();
    }

    /**
     * Re-reads every file of the configuration, checks it, and makes it current.
     *
     * @return the new current context
     * @throws TlsConfigException with one line to log when a file is missing, bad, mismatched or
     *         expired; the previous context then stays current
     */
    public synchronized TlsContext reload() throws TlsConfigException {
        TlsContext next = TlsContextFactory.create(config);
        TlsContext previous = current;
        current = next;
        previous.retire();
        return next;
    }

    /** The server stopped: no engine will be made any more; those still open are freed as their connections close. */
    public synchronized void close() {
        current.retire();
    }
}
