package dev.petrel.server.engine;

import java.io.IOException;

/**
 * One step of a connection's selection chain, run on its endpoint before a protocol opens it: a
 * PROXY protocol header read, a TLS handshake. Steps compose: each gets the endpoint the step
 * before it made and gives the next (or the protocol) the one it makes, such as the same bytes
 * with the client's address from a PROXY header, or their plaintext inside TLS.
 */
public interface SelectionStep {
    /**
     * Runs the step; it may wait for the client (it runs on a worker, never an event loop).
     *
     * @return the endpoint the rest of the chain sees
     * @throws IOException to close the connection; the step has answered or closed it already
     *         where it had something to say
     */
    Endpoint apply(Endpoint endpoint) throws IOException;

    /**
     * What a connection turned away for overload is told before this step has run: {@code true}
     * when the protocol's clear-text overload answer still makes sense (a PROXY header is no
     * obstacle to it), {@code false} when the peer expects something else first (a TLS handshake).
     */
    default boolean allowsClearTextOverloadAnswer() {
        return true;
    }
}
