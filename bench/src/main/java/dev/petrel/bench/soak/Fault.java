package dev.petrel.bench.soak;

import java.io.IOException;

/**
 * One fault, its sizes already drawn: the connections it opens, what it sends and how it ends
 * them. It opens its sockets with {@link FaultSockets} and notes each step in a {@link Transcript};
 * it keeps to its own time bound (every loop has a deadline or a count), and the injector resets
 * its sockets if it overruns all the same.
 */
interface Fault {
    /**
     * Runs the fault against {@code target}.
     *
     * @throws IOException when the server ends it before its last step; what it did is in {@code transcript}
     */
    void run(Listener target, FaultSockets sockets, Transcript transcript) throws IOException, InterruptedException;
}
