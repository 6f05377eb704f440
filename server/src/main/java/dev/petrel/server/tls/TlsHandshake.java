package dev.petrel.server.tls;

import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.tls.TlsEndpoint.HandshakeProgress;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLEngineResult.Status;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

/**
 * The initial handshake of a {@link TlsEndpoint}, in its three modes: waiting for the client
 * ({@link TlsEndpoint#handshake}), as far as the bytes that have arrived allow, for an event loop
 * ({@link TlsEndpoint#continueHandshake}), and, in either, the costly answer to the client's hello
 * computed on the {@link HandshakeLane}. It drives the engine by its handshake status through the
 * record reader and writer, tells TLS from clear text by the first byte, keeps the clock, and
 * allows for where engines over OpenSSL or BoringSSL differ from the JDK's. Its own class so that
 * the reader and writer know nothing of the handshake but the flags it sets when done, and the
 * one loop over the engine's status that the three modes share reads in one place.
 *
 * <p>Runs under both locks, except the look at a computation still on the lane, which holds them.
 */
final class TlsHandshake {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.tls");

    private final SSLEngine engine;
    private final Endpoint raw;
    private final HandshakeLane lane;
    private final TlsState state;
    private final ReentrantLock readLock;
    private final ReentrantLock writeLock;
    private final TlsRecordReader reader;
    private final TlsRecordWriter writer;
    private final TlsClosing closing;

    // written under both locks during the handshake
    private boolean sniffed;          // the first byte was looked at
    private boolean unwrappedSinceWrap; // the handshake took client bytes since the server last wrapped
    private boolean begun;            // the engine's handshake began; the clock below runs
    private int handshakeTimeoutMillis;
    private volatile long handshakeDeadline; // read by an event loop between calls, for its timer
    // the thread driving continueHandshake only (an event loop)
    private HandshakeLane.Pending<SSLEngineResult> hello; // the answer to the client's hello, computing on the lane

    private volatile NegotiatedSession negotiated; // set once at the end of the handshake, read by any thread

    TlsHandshake(SSLEngine engine, Endpoint raw, HandshakeLane lane, TlsState state, TlsRecordReader reader,
                 TlsRecordWriter writer, TlsClosing closing) {
        this.engine = engine;
        this.raw = raw;
        this.lane = lane;
        this.state = state;
        this.readLock = state.readLock;
        this.writeLock = state.writeLock;
        this.reader = reader;
        this.writer = writer;
        this.closing = closing;
    }

    /** {@link TlsEndpoint#handshakeDeadline}. */
    long deadline() {
        return handshakeDeadline;
    }

    /** What the handshake settled; null before it completed. */
    NegotiatedSession negotiated() {
        return negotiated;
    }

    /** The handshake, waiting for the client when {@code mayWait}; else as far as what has arrived allows. */
    HandshakeProgress run(int timeoutMillis, boolean mayWait) throws IOException {
        if (timeoutMillis <= 0) throw new IllegalArgumentException("handshake timeout must be positive: " + timeoutMillis);
        // The lane holds both locks while it computes: look before taking them.
        HandshakeLane.Pending<SSLEngineResult> computing = hello;
        if (computing != null && !computing.isDone()) {
            if (mayWait) {
                computing.await();
            } else if (System.nanoTime() - handshakeDeadline >= 0 && computing.drop()) {
                hello = null;
                throw handshakeTimedOut(handshakeTimeoutMillis); // still in the lane's line at the deadline
            } else {
                return HandshakeProgress.COMPUTING;
            }
        }
        readLock.lock();
        writeLock.lock();
        try {
            if (state.established) throw new IllegalStateException("the handshake is done already");
            state.ensureOpen();
            try {
                if (!begun) {
                    begun = true;
                    handshakeTimeoutMillis = timeoutMillis;
                    handshakeDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
                    engine.beginHandshake();
                }
                HandshakeLane.Pending<SSLEngineResult> computed = hello;
                if (computed != null) {
                    hello = null;
                    SSLEngineResult helloUnwrapped = computed.result(); // or what it threw, handled below as if thrown here
                    if (helloUnwrapped != null && !unwrapped(helloUnwrapped, mayWait)) return stillNeedsInput();
                }
                while (!state.established) {
                    if (!mayWait && !raw.wakesOnLoop() && engine.getHandshakeStatus() == HandshakeStatus.NEED_TASK) {
                        return HandshakeProgress.NEEDS_WORKER;
                    }
                    if (!mayWait && answersOnLane()) {
                        hello = lane.submit(this::answerHello, raw::wakeOnLoop);
                        return HandshakeProgress.COMPUTING;
                    }
                    if (!handshakeStep(mayWait)) return stillNeedsInput();
                }
                return HandshakeProgress.DONE;
            } catch (TlsEndpoint.PlainHttpOnTlsPortException e) {
                throw e; // the engine has seen nothing: no alert to send
            } catch (SSLException e) {
                sendAlertQuietly();
                throw e;
            }
        } finally {
            writer.giveBackIfIdle();
            reader.giveBackIfIdle();
            writeLock.unlock();
            readLock.unlock();
            closing.releaseIfIdle();
        }
    }

    private HandshakeProgress stillNeedsInput() throws SocketTimeoutException {
        if (System.nanoTime() - handshakeDeadline >= 0) throw handshakeTimedOut(handshakeTimeoutMillis);
        return HandshakeProgress.NEEDS_INPUT;
    }

    /**
     * Whether an event loop hands the next step to the {@link HandshakeLane}, so as not to
     * compute it itself: the answer to the client's hello (BoringSSL's unwrap of it, or the JDK's
     * delegated tasks), when the loop can be woken once it is done.
     */
    private boolean answersOnLane() {
        if (writer.answered() || !raw.wakesOnLoop()) return false;
        return switch (engine.getHandshakeStatus()) {
            case NEED_TASK -> true;
            case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> reader.hasCiphertext();
            default -> false;
        };
    }

    /**
     * On the lane, for an event loop: the answer to the client's hello, under both locks, so that
     * a close meanwhile never frees the engine under it (the last to leave frees it).
     *
     * @return the unwrap's result, or null when only delegated tasks were due
     */
    private SSLEngineResult answerHello() throws IOException {
        readLock.lock();
        writeLock.lock();
        try {
            state.ensureOpen();
            SSLEngineResult result = engine.getHandshakeStatus() == HandshakeStatus.NEED_TASK ? null : reader.unwrap();
            if (engine.getHandshakeStatus() == HandshakeStatus.NEED_TASK) {
                runDelegatedTasks(engine); // the JDK's engine answers the client's hello here
                if (engine.getHandshakeStatus() == HandshakeStatus.NEED_WRAP) unwrapAfterTasks();
            }
            return result;
        } finally {
            writeLock.unlock();
            readLock.unlock();
            closing.releaseIfIdle();
        }
    }

    /** One step of the handshake; false when it needs the client's bytes and {@code mayWait} says not to wait for them. */
    private boolean handshakeStep(boolean mayWait) throws IOException {
        long deadline = handshakeDeadline;
        int timeoutMillis = handshakeTimeoutMillis;
        switch (engine.getHandshakeStatus()) {
            case NEED_TASK -> {
                if (onLane()) {
                    lane.call(() -> {
                        runDelegatedTasks(engine); // the JDK's engine answers the client's hello here
                        return null;
                    }, deadline, timeoutMillis);
                } else {
                    runDelegatedTasks(engine);
                }
                if (engine.getHandshakeStatus() == HandshakeStatus.NEED_WRAP) unwrapAfterTasks();
            }
            case NEED_WRAP -> {
                unwrappedSinceWrap = false;
                SSLEngineResult result = writer.sendEngineMessage();
                if (result.getStatus() == Status.CLOSED) throw new SSLHandshakeException("TLS handshake ended by the engine");
                if (result.getHandshakeStatus() == HandshakeStatus.FINISHED) finishHandshake();
            }
            case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                // an engine over BoringSSL answers the client's hello in this unwrap
                SSLEngineResult result = onLane() && reader.hasCiphertext() ? lane.call(reader::unwrap, deadline, timeoutMillis) : reader.unwrap();
                return unwrapped(result, mayWait);
            }
            case NOT_HANDSHAKING, FINISHED -> finishHandshake();
        }
        return true;
    }

    /** Goes on from a handshake unwrap's {@code result}; false as {@link #handshakeStep} says it. */
    private boolean unwrapped(SSLEngineResult result, boolean mayWait) throws IOException {
        switch (result.getStatus()) {
            case OK -> {
                if (result.getHandshakeStatus() == HandshakeStatus.FINISHED) finishHandshake();
                else if (result.bytesConsumed() > 0) unwrappedSinceWrap = true;
            }
            case BUFFER_UNDERFLOW -> {
                if (unwrappedSinceWrap && askedToWrap()) return true;
                return receiveHandshake(mayWait);
            }
            case CLOSED -> throw new SSLHandshakeException("the client closed the connection during the TLS handshake");
            case BUFFER_OVERFLOW -> throw reader.plaintextOverflow();
        }
        return true;
    }

    /**
     * Whether the engine's next call goes to the {@link HandshakeLane}: until the server has
     * answered the client's hello, on a virtual thread. What comes later (the client's
     * {@code Finished}, the session tickets) is cheap, and computes where the handshake runs.
     */
    private boolean onLane() {
        return !writer.answered() && HandshakeLane.needed();
    }

    /**
     * Whether a wrap, asked for before waiting on the client, got the handshake further. An engine
     * over OpenSSL or BoringSSL (netty-tcnative's) learns that the client's last handshake message
     * completed the handshake only on its next call, and still says it needs to unwrap: waiting for
     * the client would then wait for a request it may never send first. A wrap with nothing to send
     * is allowed at any time, and an engine that has nothing to say (the JDK's, which needs the
     * client's next flight) produces nothing.
     */
    private boolean askedToWrap() throws IOException {
        unwrappedSinceWrap = false;
        SSLEngineResult result = writer.sendEngineMessage();
        if (result.getHandshakeStatus() == HandshakeStatus.FINISHED) {
            finishHandshake();
            return true;
        }
        return result.bytesProduced() > 0 || engine.getHandshakeStatus() != HandshakeStatus.NEED_UNWRAP;
    }

    /**
     * Gives the engine an unwrap of what is buffered (often nothing) between its delegated tasks
     * and the wrap they asked for. Netty's engine over BoringSSL learns only in an unwrap that the
     * client's hello failed (no shared cipher, say), and then queues the alert for the wrap; a wrap
     * straight after the tasks throws without sending it, and the client sees the connection
     * drop with no reason. The JDK's engine answers this unwrap with no progress, still wanting
     * to wrap; what the call says is not needed either way, since the loop asks the engine's status.
     */
    private void unwrapAfterTasks() throws SSLException {
        SSLEngineResult result = reader.unwrap();
        if (result.getHandshakeStatus() == HandshakeStatus.FINISHED) finishHandshake();
    }

    /**
     * Reads more of the client's handshake, waiting for it when {@code mayWait}; the first bytes
     * read tell TLS from plain HTTP. Returns whether bytes came.
     */
    private boolean receiveHandshake(boolean mayWait) throws IOException {
        int n;
        if (mayWait) {
            long left = handshakeDeadline - System.nanoTime();
            if (left <= 0) throw handshakeTimedOut(handshakeTimeoutMillis);
            try {
                n = reader.receive(TlsRecordReader.millis(left));
            } catch (SocketTimeoutException e) {
                throw handshakeTimedOut(handshakeTimeoutMillis);
            }
        } else {
            n = reader.receiveAvailable();
            if (n == 0) return false;
        }
        if (n < 0) throw new SSLHandshakeException("the client closed the connection during the TLS handshake");
        if (!sniffed && reader.hasCiphertext()) {
            sniffed = true;
            int first = reader.firstCiphertextByte();
            switch (TlsRecords.opening(first)) {
                case TLS -> { }
                case PLAIN_TEXT -> throw new TlsEndpoint.PlainHttpOnTlsPortException();
                case UNKNOWN -> throw new SSLHandshakeException(
                        String.format("not a TLS handshake (first byte 0x%02x)", first & 0xff));
            }
        }
        return true;
    }

    private static SocketTimeoutException handshakeTimedOut(int timeoutMillis) {
        return new SocketTimeoutException("TLS handshake not completed within " + timeoutMillis + " ms");
    }

    private void finishHandshake() {
        state.established = true;
        NegotiatedSession session = NegotiatedSession.of(engine);
        state.tls13 = session.tls13();
        negotiated = session;
        LOG.log(System.Logger.Level.DEBUG, () -> "TLS handshake with " + raw.remoteAddress() + ": " + session.protocol() + " "
                + session.cipherSuite() + (session.applicationProtocol() != null ? " ALPN " + session.applicationProtocol() : "")
                + (session.serverName() != null ? " SNI " + session.serverName() : ""));
    }

    /** After a failed handshake, the engine has a fatal alert to send: telling the client why helps it report the failure. */
    private void sendAlertQuietly() {
        try {
            if (engine.getHandshakeStatus() == HandshakeStatus.NEED_WRAP) writer.sendEngineMessage();
        } catch (IOException | RuntimeException e) {
            // the connection is failing anyway
        }
    }

    /** Runs {@code engine}'s delegated tasks on the calling thread: in the handshake, or when a read or write finds some due. */
    static void runDelegatedTasks(SSLEngine engine) {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) task.run();
    }
}
