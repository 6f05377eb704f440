package dev.petrel.server.engine.connection;

import java.io.IOException;

/**
 * One step of a connection's selection chain, run on its endpoint before a protocol opens it: a
 * PROXY protocol header read, a TLS handshake. Steps compose: each gets the endpoint the step
 * before it made and gives the next (or the protocol) the one it makes, such as the same bytes
 * with the client's address from a PROXY header, or their plaintext inside TLS.
 */
public interface SelectionStep {
    /**
     * Runs the step; it may wait for the client (it runs on a worker; on an event loop, see
     * {@link #startOnLoop}).
     *
     * @return the endpoint the rest of the chain sees
     * @throws IOException to close the connection; the step has answered or closed it already
     *         where it had something to say
     */
    Endpoint apply(Endpoint endpoint) throws IOException;

    /**
     * Whether the step can also run on an event loop, a bit at a time as the client's bytes
     * arrive (see {@link #startOnLoop}). Default: no, it runs only with {@link #apply}.
     */
    default boolean runsOnLoop() {
        return false;
    }

    /**
     * Starts the step for an event loop, on an endpoint that {@linkplain Endpoint#waitsWithoutThread()
     * waits without a thread}; only called when {@link #runsOnLoop()} says yes.
     *
     * @throws UnsupportedOperationException by default
     */
    default OnLoop startOnLoop(Endpoint endpoint) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " runs only on a worker");
    }

    /** A step in progress on an event loop: it never waits for the client, and spends no thread while the client is slow. */
    interface OnLoop {
        /** How far {@link #advance} got. */
        enum Progress {
            /** The step is done: {@link #endpoint()} is what the rest of the chain sees. */
            DONE,
            /** It needs more of the client's bytes: advance again once readable, or at the {@linkplain #deadline() deadline}. */
            NEEDS_INPUT,
            /**
             * It waits for work on another thread, which calls the endpoint's
             * {@link Endpoint#wakeOnLoop()} when done: advance again then, or at the deadline.
             */
            NEEDS_WAKE,
            /** The rest is work for a thread that may wait: {@link #finish()} it on a worker. */
            NEEDS_WORKER
        }

        /**
         * Goes as far as the bytes that have arrived allow, without waiting.
         *
         * @throws IOException as {@link SelectionStep#apply} does, a timeout among them once the deadline has passed
         */
        Progress advance() throws IOException;

        /** When the step must be done, on {@link System#nanoTime()}'s scale: advance then, to fail it. */
        long deadline();

        /** The endpoint the step made, once {@link #advance} said {@link Progress#DONE}. */
        Endpoint endpoint();

        /**
         * Closes what the step has made so far (a TLS engine to free, say) when the connection
         * ends before the step does: the server stops, or sheds the connection. Safe from any
         * thread, also while another thread is inside {@link #advance}; idempotent.
         */
        void abandon();

        /**
         * Finishes the step on a thread that may wait (after {@link Progress#NEEDS_WORKER}, or
         * for any reason the caller has); like {@link SelectionStep#apply}.
         */
        Endpoint finish() throws IOException;
    }

    /**
     * What a connection turned away for overload is told before this step has run: {@code true}
     * when the protocol's clear-text overload answer still makes sense (a PROXY header is no
     * obstacle to it), {@code false} when the peer expects something else first (a TLS handshake).
     */
    default boolean allowsClearTextOverloadAnswer() {
        return true;
    }
}
