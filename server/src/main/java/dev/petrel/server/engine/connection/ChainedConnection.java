package dev.petrel.server.engine.connection;

import java.io.IOException;
import java.util.List;

/**
 * One connection behind a selection chain, as the transport sees it: {@link #serve()} first runs
 * the chain's steps, then opens the protocol the connection chose over the endpoint the steps
 * made, and delegates everything to it from then on. On a worker the steps wait for the client.
 * On an event loop's transport, a step that {@linkplain SelectionStep#runsOnLoop() can} (a TLS
 * handshake) runs on the loop itself, a bit each time the client's bytes arrive, and hands over
 * to a worker only when it asks for one; no thread is spent on a slow client. A step that fails
 * ends the connection; it is logged as one line at DEBUG (scanners
 * send broken handshakes and headers all day; they are no news for an operator).
 */
final class ChainedConnection implements ProtocolConnection {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.engine");

    private final Endpoint raw;
    private final List<SelectionStep> steps;
    private final ConnectionChain chain;
    private final long openedAt = System.nanoTime();
    private volatile Endpoint current;           // the endpoint as far as the steps have come
    private volatile ProtocolConnection engine;  // the protocol's, once the steps are done
    private volatile boolean stopping;           // drained, aborted or shed before the protocol opened
    // the thread serving, and the event loop between serves (the hand-overs order them)
    private int nextStep;                        // the index of the step to run or finish next
    private volatile SelectionStep.OnLoop inProgress; // a step an event loop began, not done yet (closed from any thread)
    private boolean toWorker;                    // the steps go on on a worker
    private boolean awaitingWake;                // the step on the loop waits for work on another thread
    private boolean handOver;                    // the protocol opened on the loop and may block: serve it on a worker

    ChainedConnection(Endpoint raw, List<SelectionStep> steps, ConnectionChain chain) {
        this.raw = raw;
        this.current = raw;
        this.steps = steps;
        this.chain = chain;
    }

    @Override
    public boolean serve() {
        ProtocolConnection opened = engine;
        if (opened == null) {
            awaitingWake = false;
            boolean onLoop = raw.onEventLoop();
            switch (onLoop ? advanceStepsOnLoop() : runSteps()) {
                case FAILED -> {
                    return false;
                }
                case WAITING -> {
                    return true;
                }
                case DONE -> { }
            }
            Endpoint endpoint = current;
            opened = chain.select(endpoint).open(endpoint);
            engine = opened;
            // a drain or abort that ran during the steps closed the endpoint: the protocol meets a
            // closed connection and ends; draining it too makes that explicit
            if (stopping) opened.drain();
            if (onLoop && opened.mayBlock()) {
                handOver = true; // the transport asks mayBlock() again and gives the protocol a worker
                return true;
            }
        }
        handOver = false;
        return opened.serve();
    }

    private enum Steps { DONE, WAITING, FAILED }

    /**
     * On a worker: runs the steps left, finishing first the one an event loop began; on a
     * failure the step has answered or closed the connection.
     */
    private Steps runSteps() {
        Endpoint endpoint = current;
        try {
            if (inProgress != null) {
                endpoint = inProgress.finish();
                stepDone(endpoint);
            }
            while (nextStep < steps.size()) {
                if (stopping) return stopped();
                endpoint = steps.get(nextStep).apply(endpoint);
                stepDone(endpoint);
            }
            return Steps.DONE;
        } catch (IOException | RuntimeException e) {
            return failed(e);
        }
    }

    /**
     * On the event loop: takes the steps as far as the bytes that have arrived allow. WAITING
     * means waiting for the client, for work on another thread when {@link #awaitingWake} is set,
     * or for a worker when {@link #toWorker} is.
     */
    private Steps advanceStepsOnLoop() {
        try {
            while (nextStep < steps.size()) {
                if (stopping) return stopped();
                SelectionStep.OnLoop step = inProgress;
                if (step == null) {
                    SelectionStep next = steps.get(nextStep);
                    if (!next.runsOnLoop()) {
                        toWorker = true;
                        return Steps.WAITING;
                    }
                    step = next.startOnLoop(current);
                    inProgress = step;
                    // a stop that looked for a step in progress just before would miss this one
                    if (stopping) return stopped();
                }
                switch (step.advance()) {
                    case DONE -> stepDone(step.endpoint());
                    case NEEDS_INPUT -> {
                        return Steps.WAITING;
                    }
                    case NEEDS_WAKE -> {
                        awaitingWake = true;
                        return Steps.WAITING;
                    }
                    case NEEDS_WORKER -> {
                        toWorker = true;
                        return Steps.WAITING;
                    }
                }
            }
            return Steps.DONE;
        } catch (IOException | RuntimeException e) {
            return failed(e);
        }
    }

    private void stepDone(Endpoint endpoint) {
        current = endpoint;
        inProgress = null;
        nextStep++;
    }

    private Steps stopped() {
        closeCurrent();
        return Steps.FAILED;
    }

    /**
     * A step failed: the connection ends here. A step that had something to say has said it (a TLS
     * alert, a 400 to a bad PROXY header) and closed; one that met a reset while reading the
     * client's first bytes (the h2c preface check, say) has not, and a transport takes false from
     * {@link #serve()} to mean closed: closing again is harmless, leaving it open kept the socket,
     * its slot and its buffers for good (the soak's burst of connections reset while they waited).
     */
    private Steps failed(Exception e) {
        if (e instanceof IOException) {
            LOG.log(System.Logger.Level.DEBUG, () -> "connection from " + raw.remoteAddress() + " closed in its selection chain: "
                    + e.getMessage());
        } else {
            LOG.log(System.Logger.Level.ERROR, "unexpected failure in the selection chain of the connection from " + raw.remoteAddress(), e);
        }
        closeCurrent();
        return Steps.FAILED;
    }

    /** Before the protocol opens: true, the steps have work (or a deadline to check) at once. */
    @Override
    public boolean poll() {
        ProtocolConnection opened = engine;
        return opened == null || opened.poll();
    }

    /** Before the protocol opens: the step's deadline while it waits on the loop for the client, else now. */
    @Override
    public long wakeDeadline() {
        ProtocolConnection opened = engine;
        if (opened != null) return opened.wakeDeadline();
        SelectionStep.OnLoop step = inProgress;
        return step != null ? step.deadline() : System.nanoTime();
    }

    /**
     * Before the protocol opens: a step that runs on the event loop does not block (it takes
     * what has arrived and hands back); one that waits for the client, or asked for a worker,
     * does. Then whatever the protocol says.
     */
    @Override
    public boolean mayBlock() {
        ProtocolConnection opened = engine;
        if (opened != null) return opened.mayBlock();
        if (toWorker || !raw.waitsWithoutThread() || nextStep >= steps.size()) return true;
        return inProgress == null && !steps.get(nextStep).runsOnLoop();
    }

    /**
     * A step on the loop that waits for work on another thread (a TLS handshake's answer computing
     * off the loop); once the protocol has opened, the protocol's.
     */
    @Override
    public boolean awaitsWake() {
        ProtocolConnection opened = engine;
        if (opened != null) return !handOver && opened.awaitsWake();
        return awaitingWake;
    }

    /** The protocol's, once it has opened: the steps queue no output. */
    @Override
    public boolean awaitsWritable() {
        ProtocolConnection opened = engine;
        return opened != null && !handOver && opened.awaitsWritable();
    }

    /** The protocol's, once it has opened: a step's closed endpoint has nothing to end. */
    @Override
    public boolean servesOnceClosed() {
        ProtocolConnection opened = engine;
        return opened != null && opened.servesOnceClosed();
    }

    /** Work without new input: a step that asked for a worker, or a protocol just opened on the loop that may block. */
    @Override
    public boolean hasWork() {
        ProtocolConnection opened = engine;
        if (opened == null) return toWorker;
        return handOver || opened.hasWork();
    }

    /** During the steps there is no exchange to finish: close. */
    @Override
    public void drain() {
        stopping = true;
        ProtocolConnection opened = engine;
        if (opened != null) opened.drain();
        else closeCurrent();
    }

    @Override
    public void abort() {
        stopping = true;
        ProtocolConnection opened = engine;
        if (opened != null) opened.abort();
        else closeCurrent();
    }

    /** During the steps the connection waits for its client like one waiting for a head: shed it once it has waited long enough. */
    @Override
    public boolean shed(long waitingSinceBefore) {
        ProtocolConnection opened = engine;
        if (opened != null) return opened.shed(waitingSinceBefore);
        if (openedAt - waitingSinceBefore > 0) return false;
        stopping = true;
        closeCurrent();
        return true;
    }

    /** Closes what the steps have made so far, the step in progress on the loop included (it may hold an engine to free). */
    private void closeCurrent() {
        SelectionStep.OnLoop step = inProgress;
        if (step != null) step.abandon();
        current.close();
        raw.close();
    }
}
