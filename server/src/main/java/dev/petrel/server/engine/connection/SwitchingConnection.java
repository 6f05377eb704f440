package dev.petrel.server.engine.connection;

/**
 * A protocol connection that may hand its endpoint to another protocol (see {@link Upgrade}), as
 * the transport sees it: everything goes to the current protocol, and when its
 * {@link ProtocolConnection#serve()} ends with a {@linkplain ProtocolConnection#successor()
 * successor}, the successor is current from then on, without the transport knowing. A drain or an
 * abort that arrives during the hand-over reaches the successor too.
 */
public final class SwitchingConnection implements ProtocolConnection {
    private final Endpoint endpoint;
    private volatile ProtocolConnection current;
    private volatile boolean draining;
    private volatile boolean aborted;
    private boolean handOver; // switched on the event loop to a protocol that may block: serve it on a worker

    /** {@code first} on {@code endpoint}, until it hands over. */
    public SwitchingConnection(Endpoint endpoint, ProtocolConnection first) {
        this.endpoint = endpoint;
        this.current = first;
    }

    @Override
    public boolean serve() {
        handOver = false;
        while (true) {
            ProtocolConnection serving = current;
            if (serving.serve()) return true;
            ProtocolConnection next = serving.successor();
            if (next == null) return false;
            current = next;
            // a stop that read the old protocol just before missed the new one (both fields are volatile)
            if (aborted) next.abort();
            else if (draining) next.drain();
            if (endpoint.onEventLoop() && next.mayBlock()) {
                handOver = true; // the transport asks mayBlock() and hasWork(), and gives the new protocol a worker
                return true;
            }
            if (!endpoint.onEventLoop() && endpoint.waitsWithoutThread() && !next.mayBlock()) {
                // switched on a worker to a protocol that never blocks: back to the loop, which polls
                // it (a protocol with work before any input says so) and serves it inline from then on
                return true;
            }
        }
    }

    @Override
    public boolean poll() {
        return current.poll();
    }

    @Override
    public long wakeDeadline() {
        return current.wakeDeadline();
    }

    @Override
    public boolean mayBlock() {
        return current.mayBlock();
    }

    @Override
    public boolean hasWork() {
        return handOver || current.hasWork();
    }

    @Override
    public boolean awaitsWake() {
        return !handOver && current.awaitsWake();
    }

    @Override
    public boolean awaitsWritable() {
        return !handOver && current.awaitsWritable();
    }

    @Override
    public boolean servesOnceClosed() {
        return current.servesOnceClosed();
    }

    @Override
    public void drain() {
        draining = true;
        current.drain();
    }

    @Override
    public void abort() {
        aborted = true;
        current.abort();
    }

    @Override
    public boolean shed(long waitingSinceBefore) {
        return current.shed(waitingSinceBefore);
    }
}
