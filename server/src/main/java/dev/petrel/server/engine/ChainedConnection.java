package dev.petrel.server.engine;

import java.io.IOException;
import java.util.List;

/**
 * One connection behind a selection chain, as the transport sees it: its first {@link #serve()}
 * runs the chain's steps on the thread the transport gives it (a worker, never an event loop: a
 * step waits for the client), then opens the protocol the connection chose over the endpoint the
 * steps made, and delegates everything to it from then on. A step that fails has answered or
 * closed the connection already; it is logged as one line at DEBUG (scanners send broken
 * handshakes and headers all day; they are no news for an operator).
 */
final class ChainedConnection implements ProtocolConnection {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.engine");

    private final Endpoint raw;
    private final List<SelectionStep> steps;
    private final ConnectionChain chain;
    private final long openedAt = System.nanoTime();
    private volatile Endpoint current;           // the endpoint as far as the steps have come
    private volatile ProtocolConnection engine;  // the protocol's, once the steps are done
    private volatile boolean stopping;           // drained, aborted or shed before the protocol opened

    ChainedConnection(Endpoint raw, List<SelectionStep> steps, ConnectionChain chain) {
        this.raw = raw;
        this.current = raw;
        this.steps = steps;
        this.chain = chain;
    }

    @Override
    public boolean serve() {
        ProtocolConnection opened = engine;
        if (opened == null) {
            Endpoint endpoint = runSteps();
            if (endpoint == null) return false;
            opened = chain.select(endpoint).open(endpoint);
            engine = opened;
            // a drain or abort that ran during the steps closed the endpoint: the protocol meets a
            // closed connection and ends; draining it too makes that explicit
            if (stopping) opened.drain();
        }
        return opened.serve();
    }

    /** Runs every step; on a failure the step has answered or closed the connection, and null is returned. */
    private Endpoint runSteps() {
        Endpoint endpoint = raw;
        try {
            for (SelectionStep step : steps) {
                if (stopping) {
                    endpoint.close();
                    return null;
                }
                endpoint = step.apply(endpoint);
                current = endpoint;
            }
            return endpoint;
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "connection from " + raw.remoteAddress() + " closed in its selection chain: "
                    + e.getMessage());
            return null;
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "unexpected failure in the selection chain of the connection from " + raw.remoteAddress(), e);
            endpoint.close();
            raw.close();
            return null;
        }
    }

    /** Before the protocol opens: true, the steps are work to do on a worker at once. */
    @Override
    public boolean poll() {
        ProtocolConnection opened = engine;
        return opened == null || opened.poll();
    }

    @Override
    public long wakeDeadline() {
        ProtocolConnection opened = engine;
        return opened == null ? System.nanoTime() : opened.wakeDeadline();
    }

    /** The steps wait for the client, so they may block; then whatever the protocol says. */
    @Override
    public boolean mayBlock() {
        ProtocolConnection opened = engine;
        return opened == null || opened.mayBlock();
    }

    @Override
    public boolean hasWork() {
        ProtocolConnection opened = engine;
        return opened != null && opened.hasWork();
    }

    /** During the steps there is no exchange to finish: close. */
    @Override
    public void drain() {
        stopping = true;
        ProtocolConnection opened = engine;
        if (opened != null) opened.drain();
        else closeCurrent();
    }

    @Override
    public void abort() {
        stopping = true;
        ProtocolConnection opened = engine;
        if (opened != null) opened.abort();
        else closeCurrent();
    }

    /** During the steps the connection waits for its client like one waiting for a head: shed it once it has waited long enough. */
    @Override
    public boolean shed(long waitingSinceBefore) {
        ProtocolConnection opened = engine;
        if (opened != null) return opened.shed(waitingSinceBefore);
        if (openedAt - waitingSinceBefore > 0) return false;
        stopping = true;
        closeCurrent();
        return true;
    }

    private void closeCurrent() {
        current.close();
        raw.close();
    }
}
