package dev.petrel.server.engine.exchange;

import dev.petrel.server.engine.connection.ConnectionLifecycle;
import java.net.InetSocketAddress;

/**
 * A stream that is a whole connection while its exchange runs (HTTP/1.1, AJP): cutting it cuts
 * the connection, through the connection's {@link ConnectionLifecycle}. Bound to the connection
 * whose request is in flight, so that one stream can serve connection after connection from a pool.
 */
public abstract class ConnectionStream implements ExchangeStream {
    private ConnectionLifecycle lifecycle;

    /** Serves the exchanges that follow on the connection of {@code lifecycle} (null: none, while pooled). */
    protected final void bindLifecycle(ConnectionLifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    /** Resets the connection: the client sees a failure, not an end. */
    @Override
    public final void reset() {
        lifecycle.reset();
    }

    @Override
    public final void abort() {
        lifecycle.abort();
    }

    /** Whether the connection is served on its transport's event loop now. */
    @Override
    public final boolean onEventLoop() {
        return lifecycle.onEventLoop();
    }

    @Override
    public final InetSocketAddress remoteAddress() {
        return lifecycle.remoteAddress();
    }
}
