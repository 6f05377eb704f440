package dev.petrel.server.engine.connection;

/**
 * A protocol a listener speaks: how to serve an accepted connection, and what to say to one
 * turned away because the server is full, or one that skipped TLS on a TLS port.
 */
public interface Protocol {
    /** An engine for one accepted connection; the transport then runs {@link ProtocolConnection#serve()}. */
    ProtocolConnection open(Endpoint endpoint);

    /**
     * The whole answer sent to a connection refused for overload before closing it (for HTTP a
     * {@code 503} with {@code Retry-After}), or an empty array to close without a word.
     */
    byte[] overloadAnswer();

    /**
     * The whole clear-text answer to a client that spoke this protocol without TLS to a TLS port
     * (for HTTP a {@code 400} saying to use {@code https://}), or an empty array to close
     * without a word.
     */
    default byte[] clearTextOnTlsPortAnswer() {
        return new byte[0];
    }
}
