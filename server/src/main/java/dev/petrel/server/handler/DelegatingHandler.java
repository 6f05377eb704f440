package dev.petrel.server.handler;

import dev.petrel.server.Handler;
import dev.petrel.server.Request;
import java.util.Objects;

/**
 * A handler that wraps another (compression, the access log and counters) and must run where the
 * wrapped one runs: whether it may block is the wrapped handler's answer, for every request, so
 * that a wrapper never moves a non-blocking handler off the event loop or a blocking one onto it.
 */
public abstract class DelegatingHandler implements Handler {
    /** The wrapped handler. */
    protected final Handler handler;

    /** Wraps {@code handler}. */
    protected DelegatingHandler(Handler handler) {
        this.handler = Objects.requireNonNull(handler, "handler");
    }

    @Override
    public final boolean mayBlock() {
        return handler.mayBlock();
    }

    @Override
    public final boolean mayBlock(Request request) {
        return handler.mayBlock(request);
    }
}
