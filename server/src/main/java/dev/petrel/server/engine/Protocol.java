package dev.petrel.server.engine;

/**
 * A protocol a listener speaks: how to serve an accepted connection, and what to say to one
 * turned away because the server is full.
 */
public interface Protocol {
    /** An engine for one accepted connection; the transport then runs {@link ProtocolConnection#serve()}. */
    ProtocolConnection open(Endpoint endpoint);

    /**
     * The whole answer sent to a connection refused for overload before closing it (for HTTP a
     * {@code 503} with {@code Retry-After}), or an empty array to close without a word.
     */
    byte[] overloadAnswer();

    /** Whether serving a connection may block a thread (see {@link dev.petrel.server.Handler#mayBlock()}). */
    default boolean mayBlock() {
        return true;
    }
}
