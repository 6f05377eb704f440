package dev.petrel.server.transport;

import dev.petrel.server.engine.ProtocolConnection;
import java.nio.channels.SelectionKey;

/**
 * One connection of the {@code nio} transport, as its event loop schedules it. It is in one of
 * two states. <em>Waiting</em>: the loop owns the engine, watches the socket for bytes, lets the
 * engine {@linkplain ProtocolConnection#poll() take them in} and watches its deadline; no thread
 * is spent on it. <em>Running</em>: a worker runs {@link ProtocolConnection#serve()} (the
 * handler may block), and readiness only wakes that worker. The hand-over each way goes through
 * the executor or the loop's task queue, which orders the engine's state between the threads.
 */
final class NioConnection {
    private final EventLoop loop;
    private final NioEndpoint endpoint;
    private final ProtocolConnection protocol;
    private final ConnectionExecutor workers;
    private final Runnable serveOnWorker = this::serveOnWorker;
    private final Runnable waitOnLoop = this::waitOnLoop;
    private SelectionKey key;
    private boolean waiting; // loop thread only

    NioConnection(EventLoop loop, NioEndpoint endpoint, ProtocolConnection protocol, ConnectionExecutor workers) {
        this.loop = loop;
        this.endpoint = endpoint;
        this.protocol = protocol;
        this.workers = workers;
    }

    /** On the loop, once registered: start waiting for the first request. */
    void start(SelectionKey key) {
        this.key = key;
        endpoint.bind(key);
        waitOnLoop();
    }

    /** On the loop: the socket is ready. */
    void onReady(SelectionKey key) {
        int ready = key.readyOps();
        if (!waiting) {
            endpoint.onReady(ready);
        } else if (protocol.poll()) {
            run();
        }
    }

    /** On the loop, a few times a second: a waiting connection whose deadline passed is served to time out. */
    void onTick(long now) {
        if (waiting && now - protocol.wakeDeadline() >= 0) run();
    }

    private void run() {
        waiting = false;
        if (key.isValid()) key.interestOps(0);
        try {
            workers.execute(serveOnWorker);
        } catch (RuntimeException | OutOfMemoryError e) {
            endpoint.close();
        }
    }

    private void serveOnWorker() {
        if (protocol.serve()) loop.execute(waitOnLoop); // waiting for the next request: back to the loop
    }

    private void waitOnLoop() {
        if (!key.isValid() || endpoint.isClosed()) return;
        // Bytes may already be here (pipelined, or sent while the worker finished): take them in first.
        if (protocol.poll()) {
            run();
            return;
        }
        waiting = true;
        key.interestOps(SelectionKey.OP_READ);
    }
}
