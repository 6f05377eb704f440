package dev.petrel.server.tls;

import dev.petrel.server.TlsDetails;
import dev.petrel.server.engine.connection.Endpoint;
import java.io.IOException;
import java.io.Serial;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;

/**
 * Server-side TLS over another {@link Endpoint}, the raw one, which carries the ciphertext: the
 * protocol engine above reads and writes plaintext and never learns that bytes were encrypted.
 * One implementation for every transport, since it only uses the raw endpoint's own contract:
 * {@link #read} waits through {@code raw.read}, {@link #readAvailable} never waits and uses
 * {@code raw.readAvailable} (so it runs on an event loop), and {@link #closeGracefully} leaves
 * the lingering to the raw endpoint (on an event-loop transport, the loop lingers on ciphertext).
 *
 * <p>Use: construct over an accepted connection with a server-mode {@link SSLEngine} the caller
 * has configured (protocols, cipher suites, ALPN), call {@link #handshake} on a thread that may
 * wait, then hand this endpoint to the protocol engine. A plain HTTP request on the TLS port
 * makes {@code handshake} throw {@link PlainHttpOnTlsPortException}; answer it with
 * {@link #rejectPlainHttp} on the raw endpoint.
 *
 * <p>Memory: three record buffers sized once from the engine's session and never grown, about
 * 49 KiB a connection besides the {@code SSLEngine}; with a {@link TlsBufferPool} they come from
 * the pool and, once the handshake is done, go back to it while nothing is buffered in them (see
 * {@link TlsRecordBuffers}).
 *
 * <p>Threads: full duplex. One thread may read while another writes, as the {@code SSLEngine}
 * allows {@code unwrap} and {@code wrap} to run at once: a read lock keeps the input side (the
 * ciphertext and plaintext in) to one reader, a write lock the output side (the ciphertext out) to
 * one writer, and whoever holds both takes the read lock first. A reader that must answer a
 * post-handshake message (a TLS 1.3 KeyUpdate) sends it only when no writer is busy; otherwise the
 * engine keeps it and the writer's next record carries it out first. Any thread may
 * {@link #close}: when a writer is busy it skips close_notify and closes the raw endpoint, which
 * ends every wait.
 *
 * <p>Renegotiation (TLS 1.2) is refused: a handshake message after the initial handshake closes
 * the connection (see {@link #read}). TLS 1.3 post-handshake messages (a client's KeyUpdate) are
 * answered.
 *
 * <p>Parts: this class is the {@link Endpoint} the server sees, and takes the locks around each
 * read and write; the work is its parts': {@link TlsHandshake} (the initial handshake, in each mode),
 * {@link TlsRecordReader} (the input side), {@link TlsRecordWriter} (the output side),
 * {@link TlsRecordBuffers} (where their buffers come from), {@link TlsClosing} (the ending, and
 * freeing the engine), over the locks and flags of a {@link TlsState}.
 */
public final class TlsEndpoint implements Endpoint {
    private static final int PLAIN_HTTP_LINGER_MILLIS = 1000;
    private static final int PLAIN_HTTP_LINGER_BYTES = 64 * 1024;

    private final Endpoint raw;
    private final TlsState state = new TlsState();
    private final ReentrantLock readLock = state.readLock;
    private final ReentrantLock writeLock = state.writeLock;
    private final TlsRecordWriter writer;
    private final TlsRecordReader reader;
    private final TlsClosing closing;
    private final TlsHandshake handshake;

    /**
     * TLS over {@code raw} with {@code engine}, a server-mode engine configured by the caller and
     * not used yet, which holds nothing to free. Nothing is read or written until {@link #handshake}.
     */
    public TlsEndpoint(Endpoint raw, SSLEngine engine) {
        this(raw, engine, unused -> { });
    }

    /**
     * Like {@link #TlsEndpoint(Endpoint, SSLEngine)}, for an engine that must be freed: once this
     * endpoint is closed and no thread is inside it any more, {@code release} gets the engine,
     * exactly once, on whichever thread left last (see {@link TlsClosing#releaseIfIdle}).
     */
    public TlsEndpoint(Endpoint raw, SSLEngine engine, Consumer<SSLEngine> release) {
        this(raw, engine, release, HandshakeLane.shared());
    }

    /**
     * Like {@link #TlsEndpoint(Endpoint, SSLEngine, Consumer)}, computing the first step of the
     * handshake on {@code lane} rather than the process's ({@link HandshakeLane#shared()}) when
     * {@link #handshake} runs on a virtual thread.
     */
    public TlsEndpoint(Endpoint raw, SSLEngine engine, Consumer<SSLEngine> release, HandshakeLane lane) {
        this(raw, engine, release, lane, Buffers.HEAP);
    }

    /**
     * Where an endpoint keeps its records: on the heap, or in native memory for an engine that
     * works on native memory (see {@link dev.petrel.server.TlsEngineProvider.Engines#wantsDirectBuffers}).
     */
    public enum Buffers {
        /** Heap buffers, as the JDK's engine works on byte arrays. */
        HEAP,
        /**
         * Direct buffers, which an engine over OpenSSL or BoringSSL reads and writes in place;
         * given heap buffers it copies every record into native memory of its own and back.
         * The plaintext a caller writes is copied into one first.
         */
        DIRECT;

        ByteBuffer allocate(int capacity) {
            return this == DIRECT ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
        }
    }

    /**
     * Like {@link #TlsEndpoint(Endpoint, SSLEngine, Consumer, HandshakeLane)}, keeping the records in
     * {@code buffers}.
     */
    public TlsEndpoint(Endpoint raw, SSLEngine engine, Consumer<SSLEngine> release, HandshakeLane lane, Buffers buffers) {
        this(raw, engine, release, lane, buffers, null);
    }

    /**
     * Like {@link #TlsEndpoint(Endpoint, SSLEngine, Consumer, HandshakeLane, Buffers)}, taking the
     * record buffers from {@code pool} (null: its own) when they are of its size and kind (see
     * the class comment).
     */
    public TlsEndpoint(Endpoint raw, SSLEngine engine, Consumer<SSLEngine> release, HandshakeLane lane, Buffers buffers,
                       TlsBufferPool pool) {
        this.raw = Objects.requireNonNull(raw, "raw");
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(release, "release");
        Objects.requireNonNull(lane, "lane");
        if (engine.getUseClientMode()) throw new IllegalArgumentException("the SSLEngine must be in server mode");
        TlsRecordBuffers records = new TlsRecordBuffers(engine.getSession(), Objects.requireNonNull(buffers, "buffers"), pool, state);
        // the writer is made first, as the reader answers through it, but takes its buffer after the reader's two
        this.writer = new TlsRecordWriter(engine, raw, state, records);
        this.reader = new TlsRecordReader(engine, raw, state, records, writer);
        writer.holdOutput();
        this.closing = new TlsClosing(engine, raw, state, records, reader, writer, release);
        this.handshake = new TlsHandshake(engine, raw, lane, state, reader, writer, closing);
    }

    /**
     * Thrown by {@link #handshake} when the client's first bytes are clear text (an HTTP method)
     * rather than a TLS record: the caller should answer with {@link #rejectPlainHttp}.
     */
    public static final class PlainHttpOnTlsPortException extends SSLException {
        @Serial
        private static final long serialVersionUID = 1L;

        PlainHttpOnTlsPortException() {
            super("plain HTTP request sent to a TLS port");
        }
    }

    /**
     * Answers a client that spoke clear text to the TLS port (see
     * {@link PlainHttpOnTlsPortException}) with {@code answer}, the protocol's clear-text reply
     * (see {@link dev.petrel.server.engine.connection.Protocol#clearTextOnTlsPortAnswer()}), through
     * {@code raw}, then closes {@code raw} gracefully so that the client reads the answer before
     * the connection goes. Never throws; {@code raw} ends up closed.
     */
    public static void rejectPlainHttp(Endpoint raw, byte[] answer) {
        if (answer.length == 0) {
            raw.close();
            return;
        }
        try {
            raw.write(answer, 0, answer.length);
        } catch (IOException e) {
            raw.close(); // the client is gone; nothing to linger for
            return;
        }
        raw.closeGracefully(PLAIN_HTTP_LINGER_MILLIS, PLAIN_HTTP_LINGER_BYTES);
    }

    // ---- handshake ----

    /**
     * Runs the initial handshake over the raw endpoint, waiting for the client (delegated tasks
     * run on the calling thread), and returns once it is complete and the server's last flight
     * (in TLS 1.3 the session tickets too) is written. Ciphertext the client sent after its last
     * handshake message stays buffered for {@link #read}. On a virtual thread, the costly first
     * step (the answer to the client's hello) computes on the {@link HandshakeLane}. Finishes a
     * handshake that {@link #continueHandshake} began, within the time that call allowed.
     *
     * @param timeoutMillis time allowed for the whole handshake, above 0 (ignored when it began already)
     * @throws PlainHttpOnTlsPortException when the client sent clear text (an HTTP request)
     * @throws SocketTimeoutException when the handshake did not complete in time
     * @throws SSLException when the client sent something that is not a valid handshake, or
     *         closed the connection before it completed (the engine's alert is sent first)
     * @throws IOException when the raw endpoint fails
     */
    public void handshake(int timeoutMillis) throws IOException {
        handshake.run(timeoutMillis, true);
    }

    /** How far {@link #continueHandshake} got. */
    public enum HandshakeProgress {
        /** The handshake is complete: the endpoint is ready for the protocol. */
        DONE,
        /**
         * It needs more of the client's bytes: call again once the raw endpoint is readable, and
         * at the latest at {@link #handshakeDeadline()}, when the call fails it.
         */
        NEEDS_INPUT,
        /**
         * The answer to the client's hello computes on the {@link HandshakeLane}, which calls the
         * raw endpoint's {@link Endpoint#wakeOnLoop()} when it is done: call again then, and at
         * the latest at the deadline (work still in the lane's line then is dropped, and the call
         * fails the handshake). Bytes the client sends meanwhile can wait in the socket.
         */
        COMPUTING,
        /**
         * The engine has delegated tasks, its way of saying that the next step is costly and
         * should run off the caller's thread (the JDK's engine answering the client's hello):
         * finish with {@link #handshake}, on a thread that may wait.
         */
        NEEDS_WORKER
    }

    /**
     * Takes the handshake as far as the bytes that have arrived allow, without waiting for the
     * client: an event loop calls this as the raw endpoint becomes readable, and so spends no
     * thread on a client that is slow to send its next flight. The first call starts the clock of
     * {@code timeoutMillis}; later calls, and a {@link #handshake} that finishes the work, keep
     * it.
     *
     * <p>The costly step, the answer to the client's hello (BoringSSL's unwrap of it, the JDK's
     * delegated tasks), computes on the {@link HandshakeLane} when the raw endpoint
     * {@linkplain Endpoint#wakesOnLoop() can wake its loop} (see
     * {@link HandshakeProgress#COMPUTING}): the loop goes on serving open connections meanwhile,
     * and the operating system shares the processor between the two. Everything else (reading
     * the client's flights, sending the server's, its {@code Finished}) runs on the calling
     * thread, with no hand-over. Over an endpoint that cannot wake its loop, the engine's own
     * computation runs on the calling thread and delegated tasks go to a worker (see
     * {@link HandshakeProgress#NEEDS_WORKER}).
     *
     * @throws PlainHttpOnTlsPortException when the client sent clear text (an HTTP request)
     * @throws SocketTimeoutException when the deadline has passed and the handshake is not complete
     * @throws SSLException as {@link #handshake} does
     * @throws IOException when the raw endpoint fails
     */
    public HandshakeProgress continueHandshake(int timeoutMillis) throws IOException {
        return handshake.run(timeoutMillis, false);
    }

    /**
     * When the handshake must be complete, on {@link System#nanoTime()}'s scale; meaningful once
     * {@link #handshake} or {@link #continueHandshake} has been called.
     */
    public long handshakeDeadline() {
        return handshake.deadline();
    }

    // ---- what was negotiated ----

    /** The negotiated protocol ({@code TLSv1.3}, {@code TLSv1.2}), or null before the handshake. */
    public String protocol() {
        NegotiatedSession session = handshake.negotiated();
        return session == null ? null : session.protocol();
    }

    /** What was negotiated, for requests to report; null before the handshake. */
    @Override
    public TlsDetails tls() {
        NegotiatedSession session = handshake.negotiated();
        return session == null ? null : session.details();
    }

    /** The negotiated cipher suite, or null before the handshake. */
    public String cipherSuite() {
        NegotiatedSession session = handshake.negotiated();
        return session == null ? null : session.cipherSuite();
    }

    /** The protocol chosen by ALPN ({@code http/1.1}), or null when the client offered none or before the handshake. */
    @Override
    public String applicationProtocol() {
        NegotiatedSession session = handshake.negotiated();
        return session == null ? null : session.applicationProtocol();
    }

    /** The host name the client asked for by SNI, or null when it sent none or before the handshake. */
    public String serverName() {
        NegotiatedSession session = handshake.negotiated();
        return session == null ? null : session.serverName();
    }

    // ---- reading ----

    /**
     * Reads plaintext, reading and unwrapping ciphertext from the raw endpoint as needed (a
     * record may arrive in pieces; several may arrive at once, and what one unwrapped beyond
     * {@code dst}'s room is kept for the next read). Sends first what {@link #readAvailable}
     * queued. A TLS 1.2 renegotiation attempt closes the connection and fails the read.
     *
     * @return plaintext bytes read, at least 1, or -1 after the client's close_notify or the raw
     *         endpoint's end of stream
     * @throws SocketTimeoutException when no whole record arrived within {@code timeoutMillis}
     *         (a partial one stays buffered)
     * @throws SSLException on a record that cannot be decrypted, or a renegotiation attempt
     */
    @Override
    public int read(ByteBuffer dst, int timeoutMillis) throws IOException {
        readLock.lock();
        try {
            state.ensureReady();
            return reader.read(dst, timeoutMillis);
        } finally {
            reader.giveBackIfIdle();
            readLock.unlock();
            closing.releaseIfIdle();
        }
    }

    /**
     * Reads the plaintext of the whole records that have arrived, without waiting and without
     * writing (an event loop calls this).
     *
     * <p>A TLS 1.3 KeyUpdate from the client that asks for ours is answered by wrapping it now
     * and queueing the record; the next {@link #write} or {@link #read} sends it first. A second
     * one arriving before then is left inside the engine, which still wants to wrap it then.
     *
     * @return plaintext bytes read; 0 when no whole record's plaintext is there (a partial record
     *         stays buffered), and then nothing is buffered here that a later call could return
     *         without more bytes arriving; -1 at end of stream
     */
    @Override
    public int readAvailable(ByteBuffer dst) throws IOException {
        // Busy only while another thread closes (close_notify, or the engine freed by the last to leave): the
        // connection is ending, and an event loop must not wait for it. Closed, it says so, as a read after the
        // close does: a connection served once more for its close (ProtocolConnection.servesOnceClosed) must
        // not take "nothing yet" for an answer, or it would wait for good, holding its exchange's parts.
        if (!readLock.tryLock()) {
            state.ensureOpen();
            return 0;
        }
        try {
            state.ensureReady();
            return reader.readAvailable(dst);
        } finally {
            reader.giveBackIfIdle();
            readLock.unlock();
            closing.releaseIfIdle();
        }
    }

    // ---- writing ----

    /**
     * Wraps {@code len} bytes into records (the JDK puts at most 16 KiB of plaintext in each)
     * and writes each with the raw endpoint as soon as it is wrapped, so that only one record's
     * ciphertext is buffered. Sends first what {@link #readAvailable} queued.
     *
     * @throws SocketException when the output is closed already (close_notify sent)
     */
    @Override
    public void write(byte[] src, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, src.length);
        writeLock.lock();
        try {
            state.ensureReady();
            writer.write(src, off, len);
        } finally {
            writer.giveBackIfIdle();
            writeLock.unlock();
            closing.releaseIfIdle();
        }
    }

    // ---- closing ----

    /** Sends close_notify (once), then half-closes the raw endpoint. */
    @Override
    public void shutdownOutput() throws IOException {
        closing.shutdownOutput();
    }

    /**
     * Sends close_notify, then lets the raw endpoint linger on the ciphertext the client still
     * sends (its own close_notify among it) and close. The endpoint ends up closed.
     */
    @Override
    public void closeGracefully(int lingerMillis, int lingerBytes) {
        closing.closeGracefully(lingerMillis, lingerBytes);
    }

    /**
     * Closes both directions: sends close_notify first when it was not sent and the engine is
     * free now (no waiting for the client's), then closes the raw endpoint, which also ends a read
     * another thread waits in. Idempotent and safe from any thread.
     */
    @Override
    public void close() {
        closing.close();
    }

    /**
     * Closes without {@code close_notify}, which would tell the client that nothing was cut, and
     * resets the raw endpoint (see {@link Endpoint#reset}).
     */
    @Override
    public void reset() {
        closing.reset();
    }

    /**
     * Ends this endpoint without touching the raw one, which the caller goes on with (to answer a
     * client that spoke clear text, see {@link #rejectPlainHttp}): the engine, which has seen no
     * record, is freed, and nothing is sent.
     */
    void discard() {
        closing.discard();
    }

    // ---- the rest is the raw endpoint's ----

    @Override
    public boolean waitsWithoutThread() {
        return raw.waitsWithoutThread();
    }

    @Override
    public boolean onEventLoop() {
        return raw.onEventLoop();
    }

    @Override
    public boolean wakesOnLoop() {
        return raw.wakesOnLoop();
    }

    @Override
    public void wakeOnLoop() {
        raw.wakeOnLoop();
    }

    /** Ciphertext received but not unwrapped, or plaintext not read yet: a pipelined record the socket will not announce again. */
    @Override
    public boolean hasBufferedInput() {
        return reader.hasBufferedInput();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return raw.remoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return raw.localAddress();
    }

    @Override
    public String scheme() {
        return "https";
    }

    // ---- for tests ----

    int netInCapacity() {
        return reader.netInCapacity();
    }

    int appInCapacity() {
        return reader.appInCapacity();
    }

    int netOutCapacity() {
        return writer.netOutCapacity();
    }
}
