package dev.petrel.server.engine.connection;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A listener's protocols behind its selection chain: the steps run on each accepted connection
 * (PROXY protocol, TLS), then the protocol the connection chose opens it: the one its ALPN
 * name calls for, else the default. A listener with no steps opens the default protocol at once,
 * with nothing in between.
 */
public final class ConnectionChain implements Protocol {
    private final List<SelectionStep> steps;
    private final Map<String, Protocol> byApplicationProtocol;
    private final Protocol fallback;

    /**
     * Runs {@code steps} in order, then opens the protocol named by the connection's ALPN choice in
     * {@code byApplicationProtocol}, else {@code fallback}.
     */
    public ConnectionChain(List<SelectionStep> steps, Map<String, Protocol> byApplicationProtocol, Protocol fallback) {
        this.steps = List.copyOf(steps);
        this.byApplicationProtocol = Map.copyOf(byApplicationProtocol);
        this.fallback = Objects.requireNonNull(fallback, "fallback");
    }

    @Override
    public ProtocolConnection open(Endpoint endpoint) {
        if (steps.isEmpty()) return fallback.open(endpoint);
        return new ChainedConnection(endpoint, steps, this);
    }

    /** The protocol for an endpoint the chain has run on. */
    Protocol select(Endpoint endpoint) {
        String name = endpoint.applicationProtocol();
        if (name != null) {
            Protocol chosen = byApplicationProtocol.get(name);
            if (chosen != null) return chosen;
        }
        return fallback;
    }

    /** The default protocol's, unless a step means the client expects something else first (TLS). */
    @Override
    public byte[] overloadAnswer() {
        for (SelectionStep step : steps) {
            if (!step.allowsClearTextOverloadAnswer()) return new byte[0];
        }
        return fallback.overloadAnswer();
    }

    @Override
    public byte[] clearTextOnTlsPortAnswer() {
        return fallback.clearTextOnTlsPortAnswer();
    }
}
