package dev.petrel.server.engine;

/** A protocol engine bound to one connection, as a transport sees it. */
public interface ProtocolConnection {
    /** Serves the connection until it ends and closes it; never throws. */
    void serve();

    /** Finishes the current exchange, if any, then closes; closes at once when idle. */
    void drain();

    /** Closes now. */
    void abort();
}
