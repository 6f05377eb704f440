package dev.petrel.server.transport;

import dev.petrel.server.engine.connection.ProtocolConnection;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;

/**
 * One connection of the {@code nio} transport, as its event loop schedules it. It is in one of
 * three states:
 * <ul>
 *   <li><em>waiting</em>: the loop owns the engine, watches the socket for bytes (or for room, while
 *       the engine has output queued: {@link ProtocolConnection#awaitsWritable()}), lets the engine
 *       {@linkplain ProtocolConnection#poll() take them in} and watches its deadline; no thread is
 *       spent on it;
 *   <li><em>running</em>: the engine {@linkplain ProtocolConnection#serve() serves} the
 *       exchange, on a virtual thread when it {@linkplain ProtocolConnection#mayBlock() may
 *       block} (a blocking handler, a TLS handshake), inline on the loop when it never does;
 *       readiness only wakes a worker waiting in the endpoint;
 *   <li><em>lingering</em>: the response has left and the output is shut; the loop discards what
 *       the client still sends until it closes or the linger time ends, then closes.
 * </ul>
 * The hand-over each way goes through the executor or the loop's task queue, which orders the
 * engine's state between the threads.
 */
final class NioConnection {
    private enum State { WAITING, RUNNING, LINGERING }

    private final EventLoop loop;
    private final NioEndpoint endpoint;
    private final ProtocolConnection protocol;
    private final ConnectionExecutor workers;
    private final Runnable serveOnWorker = this::serveOnWorker;
    private final Runnable waitOnLoop = this::waitOnLoop;
    private final Runnable wake = this::onWake;
    private final Runnable closed = this::onClosed;
    private SelectionKey key;
    private State state = State.RUNNING; // loop thread only
    private long lingerDeadline;
    private int lingerBytesLeft;

    NioConnection(EventLoop loop, NioEndpoint endpoint, ProtocolConnection protocol, ConnectionExecutor workers) {
        this.loop = loop;
        this.endpoint = endpoint;
        this.protocol = protocol;
        this.workers = workers;
    }

    /** On the loop, once registered: start waiting for the first request. */
    void start(SelectionKey key) {
        this.key = key;
        endpoint.bind(key, this);
        waitOnLoop();
    }

    /** On the loop: the socket is ready. */
    void onReady(SelectionKey key) {
        switch (state) {
            case WAITING -> {
                if (protocol.poll()) run();
                else if (protocol.awaitsWake()) key.interestOps(0); // it took in what it wants: not watched until woken
            }
            case RUNNING -> endpoint.onReady(key.readyOps());
            case LINGERING -> discardLingering();
        }
    }

    /** The task that looks at this connection as if bytes had arrived (see {@link NioEndpoint#wakeOnLoop()}). */
    Runnable wake() {
        return wake;
    }

    /**
     * On the loop: work another thread did for the engine is done, or it queued output for the
     * loop to send; a waiting connection takes it in, or watches the socket for what it now awaits.
     */
    private void onWake() {
        if (state != State.WAITING || !key.isValid() || endpoint.isClosed()) return;
        if (protocol.poll()) run();
        else waitForInput();
    }

    /** The task that tells a waiting connection its endpoint was closed by another thread (see {@link #onClosed()}). */
    Runnable closed() {
        return closed;
    }

    /**
     * On the loop: the endpoint has closed. A connection waiting on the loop is not looked at
     * again once its key is cancelled, so one whose protocol has a session to end is served once
     * more, and finds the endpoint closed (see {@link ProtocolConnection#servesOnceClosed()}).
     */
    void onClosed() {
        if (state != State.WAITING || !protocol.servesOnceClosed()) return;
        state = State.RUNNING;
        protocol.serve();
    }

    /**
     * On the loop, as a served connection is about to wait: whether another thread closed its
     * endpoint meanwhile. The task that close queued found it running and left it alone, so it is
     * told here instead ({@link #onClosed()}), or what it holds would never be given back.
     */
    private boolean closedWhileServed() {
        if (key.isValid() && !endpoint.isClosed()) return false;
        state = State.WAITING;
        onClosed();
        return true;
    }

    /** On the loop, a few times a second: deadlines of waiting and lingering connections. */
    void onTick(long now) {
        if (state == State.WAITING && now - protocol.wakeDeadline() >= 0) {
            run(); // serve() answers the timeout: 408 inside a head, a quiet close between requests
        } else if (state == State.LINGERING && now - lingerDeadline >= 0) {
            endpoint.close();
        }
    }

    private void run() {
        state = State.RUNNING;
        // Inline, the loop is busy serving and sees no readiness meanwhile: the interest can stay as it is.
        if (!protocol.mayBlock()) { // a handler that never blocks, between TLS handshakes too: inline, no hand-over
            if (protocol.serve()) {
                // serve() has just read the socket dry, so there is nothing to poll: either it handed
                // back a request to run on a worker, or the connection waits for the socket
                if (protocol.hasWork()) run();
                else waitForInput();
            }
            return;
        }
        // The read interest stays as it is: the worker reads, and should the client send more meanwhile (a
        // pipelined request, body bytes the handler has not asked for yet), the first readiness clears it
        // (NioEndpoint.onReady). Clearing it here and setting it again for the next request cost two
        // epoll_ctl calls per request.
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
        if (closedWhileServed()) return;
        // Bytes may already be here (pipelined, or sent while the worker finished): take them in first.
        if (protocol.poll()) {
            run();
            return;
        }
        waitForInput();
    }

    private void waitForInput() {
        if (closedWhileServed()) return;
        state = State.WAITING;
        // waiting for another thread's work: the socket need not be watched until it wakes us; waiting
        // for the client to take queued output: the socket is watched for room alone, and nothing is read
        key.interestOps(protocol.awaitsWake() ? 0 : protocol.awaitsWritable() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
    }

    /** From the engine, output already shut: linger on the loop, then close. Any thread. */
    void linger(int lingerMillis, int lingerBytes) {
        long deadline = System.nanoTime() + lingerMillis * 1_000_000L;
        Runnable start = () -> {
            if (!key.isValid() || endpoint.isClosed()) return;
            state = State.LINGERING;
            lingerDeadline = deadline;
            lingerBytesLeft = lingerBytes;
            key.interestOps(SelectionKey.OP_READ);
        };
        if (loop.inLoop()) start.run();
        else loop.execute(start);
    }

    private void discardLingering() {
        ByteBuffer scratch = loop.scratch();
        try {
            int n;
            while ((n = endpoint.readAvailable(scratch.clear())) > 0) {
                lingerBytesLeft -= n;
                if (lingerBytesLeft <= 0) break;
            }
            if (n < 0 || lingerBytesLeft <= 0) endpoint.close();
        } catch (IOException e) {
            endpoint.close();
        }
    }
}
