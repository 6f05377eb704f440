package dev.petrel.server.http2;

import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.connection.ReplayingEndpoint;
import java.nio.ByteBuffer;

/**
 * A plain connection after {@link PriorKnowledgeStep} looked at its first bytes: the same
 * connection, handing out those bytes first, and naming the protocol they showed ({@code h2c},
 * or none for HTTP/1.1) for the selection chain to open.
 */
final class PrefaceReplay extends ReplayingEndpoint {
    /** The name the selection chain knows HTTP/2 with prior knowledge by. */
    static final String H2C = "h2c";

    private final String protocol;

    PrefaceReplay(Endpoint endpoint, ByteBuffer seen, boolean http2) {
        super(endpoint, seen);
        this.protocol = http2 ? H2C : endpoint.applicationProtocol();
    }

    @Override
    public String applicationProtocol() {
        return protocol;
    }
}
