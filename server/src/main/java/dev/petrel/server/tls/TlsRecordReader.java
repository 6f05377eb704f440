package dev.petrel.server.tls;

import dev.petrel.server.engine.connection.Endpoint;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

/**
 * The input side of a {@link TlsEndpoint}: reads ciphertext from the raw endpoint and unwraps it
 * into plaintext (a record may arrive in pieces; several may arrive at once, and what one unwrapped
 * beyond the caller's room is kept for the next read), and deals with a handshake message that
 * comes after the handshake (a TLS 1.3 KeyUpdate answered through the writer, a TLS 1.2
 * renegotiation refused). Its own class so that the ciphertext and plaintext in, which the read
 * lock guards, live with the only code that touches them: everything here runs under the read
 * lock, and the handshake uses the same unwrap and receive.
 */
final class TlsRecordReader {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.tls");
    private static final ByteBuffer NONE = TlsRecordBuffers.NONE;

    private final SSLEngine engine;
    private final Endpoint raw;
    private final TlsState state;
    private final TlsRecordBuffers buffers;
    private final TlsRecordWriter writer; // answers a post-handshake message

    // guarded by readLock
    private ByteBuffer netIn;         // ciphertext received, not unwrapped yet: from position to limit; or NONE
    private ByteBuffer appIn;         // plaintext unwrapped, not read yet: from position to limit; or NONE
    private boolean inboundDone;      // the peer's close_notify or end of stream was read

    /** The input side over {@code raw}, holding its two buffers from the start. */
    TlsRecordReader(SSLEngine engine, Endpoint raw, TlsState state, TlsRecordBuffers buffers, TlsRecordWriter writer) {
        this.engine = engine;
        this.raw = raw;
        this.state = state;
        this.buffers = buffers;
        this.writer = writer;
        this.netIn = NONE;
        this.appIn = NONE;
        holdInput();
        this.appIn = buffers.take(buffers.appInSize).limit(0);
    }

    /** {@link TlsEndpoint#read}: waits for records until {@code timeoutMillis}, after sending what the output side owes. */
    int read(ByteBuffer dst, int timeoutMillis) throws IOException {
        holdInput();
        writer.sendPostHandshakeUnlessWriting();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, timeoutMillis));
        return fillPlaintext(true, deadline, timeoutMillis) < 0 ? -1 : take(dst);
    }

    /** {@link TlsEndpoint#readAvailable}: the records that have arrived, without waiting and without writing. */
    int readAvailable(ByteBuffer dst) throws IOException {
        holdInput();
        return fillPlaintext(false, 0, 0) < 0 ? -1 : take(dst);
    }

    /**
     * Unwraps until plaintext is buffered in {@link #appIn}, reading ciphertext as needed.
     *
     * @return the plaintext bytes buffered, 0 when none and {@code mayWait} is false, -1 at the end
     */
    private int fillPlaintext(boolean mayWait, long deadline, int timeoutMillis) throws IOException {
        while (!appIn.hasRemaining()) {
            if (inboundDone) return -1;
            if (netIn.hasRemaining()) {
                SSLEngineResult result = unwrap();
                switch (result.getStatus()) {
                    case CLOSED -> {
                        inboundDone = true; // the client's close_notify
                        return -1;
                    }
                    case BUFFER_OVERFLOW -> throw plaintextOverflow();
                    case OK -> {
                        afterUnwrap(result, mayWait);
                        if (result.bytesConsumed() > 0 || result.bytesProduced() > 0) continue; // data, or a record without any
                    }
                    case BUFFER_UNDERFLOW -> { } // a partial record: read more
                }
            }
            int n = mayWait ? receive(readMillis(deadline, timeoutMillis)) : receiveAvailable();
            if (n == 0) return 0;
            if (n < 0) {
                inboundDone = true; // end of stream without close_notify: as final as one, for HTTP frames its own messages
                return -1;
            }
        }
        return appIn.remaining();
    }

    /**
     * Handles a handshake message that arrived after the initial handshake. TLS 1.3 has only
     * post-handshake messages (a client's KeyUpdate), answered here; in TLS 1.2 it is a
     * renegotiation, refused.
     */
    private void afterUnwrap(SSLEngineResult result, boolean mayWrite) throws IOException {
        // Netty's engine over BoringSSL says only in the result that it has something to wrap (its
        // refusal of a renegotiation); its status is back to NOT_HANDSHAKING by then
        HandshakeStatus status = result.getHandshakeStatus() == HandshakeStatus.NEED_WRAP
                ? HandshakeStatus.NEED_WRAP : engine.getHandshakeStatus();
        if (status == HandshakeStatus.NOT_HANDSHAKING) return;
        // once either side has closed, the engine reports it wants the other's close_notify: not a handshake
        if (writer.closeNotifySent() || engine.isOutboundDone() || engine.isInboundDone()) return;
        if (!state.tls13) refuseRenegotiation();
        if (status == HandshakeStatus.NEED_TASK) TlsHandshake.runDelegatedTasks(engine);
        if (engine.getHandshakeStatus() != HandshakeStatus.NEED_WRAP) return;
        // the output side is the writer's: a busy writer's next record carries the answer out first
        writer.answerPostHandshake(mayWrite);
    }

    /**
     * The JDK accepts a client's renegotiation unless the process sets
     * {@code -Djdk.tls.rejectClientInitiatedRenegotiation=true}; with that set the engine itself
     * fails the unwrap with a fatal alert, which ends the connection as well. Without it, refuse
     * here: renegotiation costs the server a full handshake at the client's whim, and is a known
     * source of attacks (CVE-2009-3555, CVE-2011-1473).
     */
    private void refuseRenegotiation() throws SSLException {
        LOG.log(System.Logger.Level.DEBUG, () -> "refused TLS renegotiation from " + raw.remoteAddress());
        state.closed.set(true);
        raw.close();
        throw new SSLHandshakeException("TLS renegotiation refused");
    }

    /** Unwraps what is buffered: records, or (during the handshake) the client's flights. */
    SSLEngineResult unwrap() throws SSLException {
        // taken only now: a thread waiting in a read for the next request holds no plaintext buffer
        if (appIn == NONE) appIn = buffers.take(buffers.appInSize).limit(0);
        appIn.compact();
        try {
            return engine.unwrap(netIn, appIn);
        } finally {
            appIn.flip();
        }
    }

    /** What an unwrap that overflows the plaintext buffer fails with. */
    SSLException plaintextOverflow() {
        return new SSLException("TLS record larger than " + appIn.capacity() + " bytes of plaintext");
    }

    /** Reads ciphertext after what is buffered, waiting up to {@code timeoutMillis} as the raw endpoint does. */
    int receive(int timeoutMillis) throws IOException {
        netIn.compact();
        try {
            ensureRoomForRecord();
            return raw.read(netIn, timeoutMillis);
        } finally {
            netIn.flip();
        }
    }

    /** Reads the ciphertext that has arrived after what is buffered, without waiting. */
    int receiveAvailable() throws IOException {
        netIn.compact();
        try {
            ensureRoomForRecord();
            return raw.readAvailable(netIn);
        } finally {
            netIn.flip();
        }
    }

    /** A partial record filling the whole input buffer is larger than any the session allows. */
    private void ensureRoomForRecord() throws SSLException {
        if (!netIn.hasRemaining()) throw new SSLException("TLS record larger than " + netIn.capacity() + " bytes");
    }

    /** Whether ciphertext is buffered, not unwrapped yet. */
    boolean hasCiphertext() {
        return netIn.hasRemaining();
    }

    /** The first ciphertext byte buffered, not consumed; only when {@link #hasCiphertext}. */
    int firstCiphertextByte() {
        return netIn.get(netIn.position());
    }

    /** Ciphertext received but not unwrapped, or plaintext not read yet. */
    boolean hasBufferedInput() {
        return netIn.hasRemaining() || appIn.hasRemaining();
    }

    private int take(ByteBuffer dst) {
        int n = Math.min(dst.remaining(), appIn.remaining());
        dst.put(dst.position(), appIn, appIn.position(), n);
        dst.position(dst.position() + n);
        appIn.position(appIn.position() + n);
        return n;
    }

    /** The raw read's timeout: what is left until {@code deadline}; a timeout of 0 or less passes through as given. */
    private static int readMillis(long deadline, int timeoutMillis) throws SocketTimeoutException {
        if (timeoutMillis <= 0) return timeoutMillis;
        long left = deadline - System.nanoTime();
        if (left <= 0) throw new SocketTimeoutException("read timed out");
        return millis(left);
    }

    /** {@code nanos} as a raw read's timeout: whole milliseconds, at least 1. */
    static int millis(long nanos) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(nanos)));
    }

    // ---- the input buffers ----

    /** The ciphertext buffer, taken from the pool when not held (the plaintext one: at the first unwrap). */
    void holdInput() {
        if (netIn == NONE) netIn = buffers.take(buffers.packetSize).limit(0);
    }

    /**
     * Gives the plaintext buffer back when it is empty, and the ciphertext one too when it is
     * empty and no thread waits in a read with it (an event loop's endpoint).
     */
    void giveBackIfIdle() {
        if (!buffers.givesBackWhileIdle()) return;
        if (appIn != NONE && !appIn.hasRemaining()) {
            ByteBuffer plaintext = appIn;
            appIn = NONE;
            buffers.giveBack(plaintext);
        }
        if (appIn == NONE && netIn != NONE && !netIn.hasRemaining() && raw.waitsWithoutThread()) {
            ByteBuffer ciphertext = netIn;
            netIn = NONE;
            buffers.giveBack(ciphertext);
        }
    }

    /** Under both locks, once closed and no thread is inside, with a pool: both buffers go back, whatever they hold. */
    void giveBackAll() {
        ByteBuffer ciphertext = netIn;
        ByteBuffer plaintext = appIn;
        netIn = NONE;
        appIn = NONE;
        if (ciphertext != NONE) buffers.giveBack(ciphertext);
        if (plaintext != NONE) buffers.giveBack(plaintext);
    }

    int netInCapacity() {
        return netIn.capacity();
    }

    int appInCapacity() {
        return appIn.capacity();
    }
}
