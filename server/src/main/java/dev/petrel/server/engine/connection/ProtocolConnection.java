package dev.petrel.server.engine.connection;

/**
 * A protocol engine bound to one connection, as a transport sees it.
 *
 * <p>On a thread-per-connection transport the transport calls {@link #serve()} once and it
 * returns when the connection has ended. On an event-loop transport (one whose endpoint
 * {@linkplain Endpoint#waitsWithoutThread() waits without a thread}) {@code serve()} also
 * returns when the connection is waiting for its next request; the loop then watches the socket,
 * calls {@link #poll()} when bytes arrive, and calls {@code serve()} again on a worker once
 * {@code poll()} says there is work or {@link #wakeDeadline()} has passed.
 *
 * <p>Every protocol answers {@link #serve()}, {@link #drain()} and {@link #abort()}. The rest have
 * defaults for a connection that keeps the thread it is served on until it ends: only a connection
 * that waits without a thread between requests (HTTP/1.1, AJP, HTTP/2 while no stream is in
 * progress), or decides per request where it runs, answers them itself.
 */
public interface ProtocolConnection {
    /**
     * Serves the connection until it ends (then closes it and returns false) or until it waits
     * for input that has not arrived on an endpoint that waits without a thread (returns true).
     * Never throws.
     */
    boolean serve();

    /**
     * On the transport's event loop, while the connection waits: takes in the bytes that have
     * arrived without blocking and says whether {@link #serve()} now has work (a complete head,
     * a bad one to answer, the peer gone). Never blocks; writes nothing but what output it queued
     * earlier the socket now takes (see {@link #awaitsWritable()}).
     */
    default boolean poll() {
        return true; // a connection that never waits without a thread: serve() has the work
    }

    /**
     * While the connection waits: the {@link System#nanoTime()} at which {@link #serve()} must be
     * called even if nothing arrives, to answer or close on a timeout.
     */
    default long wakeDeadline() {
        return System.nanoTime();
    }

    /**
     * Whether the next {@link #serve()} may block its thread (on a handler that waits, or on the
     * client during a TLS handshake). An event-loop transport runs a serve that never blocks
     * inline on its loop and the others on a worker; asked before each {@code serve()}.
     */
    default boolean mayBlock() {
        return true;
    }

    /**
     * Whether {@link #serve()}, having returned true, has work already without new input: a
     * request it took in but handed back so that the transport runs it elsewhere (see
     * {@link #mayBlock()}). When false the connection waits for the socket to become readable.
     * Default: false.
     */
    default boolean hasWork() {
        return false;
    }

    /**
     * Whether {@link #serve()}, having returned true, waits for work on another thread rather
     * than for the socket: the transport need not watch the socket until the endpoint's
     * {@link Endpoint#wakeOnLoop()} (the deadline still holds). Bytes the client sends meanwhile
     * wait in the socket, where a level-triggered selector would otherwise report them again and
     * again. Default: false.
     */
    default boolean awaitsWake() {
        return false;
    }

    /**
     * Whether {@link #serve()}, having returned true, waits for the socket to take output it
     * queued rather than for input: the transport watches the socket for room, reads nothing
     * meanwhile (so a client that does not read cannot make it queue more), and calls
     * {@link #poll()} when there is room. Asked each time the connection starts to wait, and again
     * when another thread wakes it ({@link Endpoint#wakeOnLoop()}). Default: false.
     */
    default boolean awaitsWritable() {
        return false;
    }

    /**
     * Whether the transport must call {@link #serve()} once more when the endpoint is closed by
     * another thread while the connection waits, so that it ends what it holds (a WebSocket
     * session whose send was cut). Default: false; the endpoint's close ends the connection.
     */
    default boolean servesOnceClosed() {
        return false;
    }

    /**
     * After {@link #serve()} returned false: the protocol that takes the endpoint over (see
     * {@link Upgrade}), or null when the connection has ended and is closed. A connection that
     * has a successor has not closed its endpoint. Default: null.
     */
    default ProtocolConnection successor() {
        return null;
    }

    /** Finishes the current exchange, if any, then closes; closes at once when idle. */
    void drain();

    /** Closes now. */
    void abort();

    /**
     * The server is full and wants room: closes the connection when it has been waiting for a
     * request head since before {@code waitingSinceBefore} ({@link System#nanoTime()}): idle
     * between requests, with a head partly received, or before its TLS handshake is done. Leaves
     * a connection inside an exchange alone. Returns whether it closed. Safe from any thread.
     * Default: never; a protocol whose peers pool their connections on purpose (AJP) keeps them.
     */
    default boolean shed(long waitingSinceBefore) {
        return false;
    }
}
