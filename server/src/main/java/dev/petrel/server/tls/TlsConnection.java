package dev.petrel.server.tls;

import dev.petrel.server.engine.Endpoint;
import dev.petrel.server.engine.Protocol;
import dev.petrel.server.engine.ProtocolConnection;
import java.io.IOException;
import java.time.Duration;
import javax.net.ssl.SSLEngine;

/**
 * One connection on a TLS port, as the transport sees it: its first {@link #serve()} runs the
 * handshake on the thread the transport gives it (a worker, never an event loop: the handshake
 * waits for the client), then opens the inner protocol over the {@link TlsEndpoint} and delegates
 * everything to it from then on.
 *
 * <p>A client that sends clear text gets the inner protocol's clear-text answer; a garbage,
 * truncated or timed-out handshake closes the connection after the engine's alert, logged as
 * one line at DEBUG (scanners send such handshakes all day; they are no news for an operator).
 */
final class TlsConnection implements ProtocolConnection {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.tls");

    private final Endpoint raw;
    private final TlsEndpoint tls;
    private final Protocol inner;
    private final int handshakeMillis;
    private volatile ProtocolConnection engine; // the inner protocol's, once the handshake is done
    private volatile boolean stopping;          // drained or aborted before the engine existed
    private final long openedAt = System.nanoTime();

    TlsConnection(Endpoint raw, SSLEngine sslEngine, Protocol inner, Duration handshakeTimeout) {
        this.raw = raw;
        this.tls = new TlsEndpoint(raw, sslEngine);
        this.inner = inner;
        this.handshakeMillis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, handshakeTimeout.toMillis()));
    }

    @Override
    public boolean serve() {
        ProtocolConnection current = engine;
        if (current == null) {
            if (!handshake()) return false;
            current = inner.open(tls);
            engine = current;
            // drain() or abort() that ran during the handshake closed the TLS endpoint: the engine
            // meets a closed connection and ends; draining it too makes that explicit.
            if (stopping) current.drain();
        }
        return current.serve();
    }

    /** Runs the handshake; on failure the connection is answered or closed, and false returned. */
    private boolean handshake() {
        try {
            tls.handshake(handshakeMillis);
            return true;
        } catch (TlsEndpoint.PlainHttpOnTlsPortException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "clear text from " + raw.remoteAddress() + " on a TLS port: answered and closed");
            TlsEndpoint.rejectPlainHttp(raw, inner.clearTextOnTlsPortAnswer());
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "TLS handshake with " + raw.remoteAddress() + " failed: " + e.getMessage());
            tls.close();
        }
        return false;
    }

    /** Before the handshake: true, the handshake is work to do on a worker at once. */
    @Override
    public boolean poll() {
        ProtocolConnection current = engine;
        return current == null || current.poll();
    }

    @Override
    public long wakeDeadline() {
        ProtocolConnection current = engine;
        return current == null ? System.nanoTime() : current.wakeDeadline();
    }

    /** The handshake waits for the client, so it may block; then whatever the inner engine says. */
    @Override
    public boolean mayBlock() {
        ProtocolConnection current = engine;
        return current == null || current.mayBlock();
    }

    @Override
    public boolean hasWork() {
        ProtocolConnection current = engine;
        return current != null && current.hasWork();
    }

    /** During the handshake there is no exchange to finish: close. */
    @Override
    public void drain() {
        stopping = true;
        ProtocolConnection current = engine;
        if (current != null) current.drain();
        else tls.close();
    }

    /** During the handshake the connection waits for its client like one waiting for a head: shed it once it has waited long enough. */
    @Override
    public boolean shed(long waitingSinceBefore) {
        ProtocolConnection current = engine;
        if (current != null) return current.shed(waitingSinceBefore);
        if (openedAt - waitingSinceBefore > 0) return false;
        stopping = true;
        tls.close();
        return true;
    }

    @Override
    public void abort() {
        stopping = true;
        ProtocolConnection current = engine;
        if (current != null) current.abort();
        else tls.close();
    }
}
