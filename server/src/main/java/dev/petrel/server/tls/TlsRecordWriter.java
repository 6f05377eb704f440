package dev.petrel.server.tls;

import dev.petrel.server.engine.connection.Endpoint;
import java.io.IOException;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLEngineResult.Status;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

/**
 * The output side of a {@link TlsEndpoint}: wraps the caller's plaintext, and what the engine has
 * to send of its own (handshake flights, alerts, a KeyUpdate, close_notify), into records, and
 * writes each with the raw endpoint as soon as it is wrapped, so that only one record's ciphertext
 * is buffered. Its own class so that the ciphertext out, which the write lock guards, lives with
 * the only code that touches it: everything here runs under the write lock, and what the reading
 * side asks of it takes that lock without waiting.
 */
final class TlsRecordWriter {
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);
    private static final ByteBuffer NONE = TlsRecordBuffers.NONE;

    private final SSLEngine engine;
    private final Endpoint raw;
    private final TlsState state;
    private final ReentrantLock writeLock;
    private final TlsRecordBuffers buffers;
    private final boolean direct; // records in native memory: a write copies its plaintext there first

    // guarded by writeLock
    private ByteBuffer netOut;        // ciphertext wrapped, not written yet: from 0 to position; or NONE
    private ByteBuffer ownAppOut;     // native memory without a pool: plaintext copied in for the engine to wrap; made at the first write
    private boolean closeNotifySent;  // also read by the reader, which must not take for a handshake what the close set off
    private boolean answered;         // the server has written its first handshake flight

    /** The output side over {@code raw}; it holds no buffer until {@link #holdOutput}. */
    TlsRecordWriter(SSLEngine engine, Endpoint raw, TlsState state, TlsRecordBuffers buffers) {
        this.engine = engine;
        this.raw = raw;
        this.state = state;
        this.writeLock = state.writeLock;
        this.buffers = buffers;
        this.direct = buffers.direct();
        this.netOut = NONE;
    }

    /** Wraps and sends {@code len} bytes of {@code src} (see {@link TlsEndpoint#write}), after what the reading side queued. */
    void write(byte[] src, int off, int len) throws IOException {
        sendPostHandshake();
        if (direct) {
            writeThroughNativeMemory(src, off, len);
        } else {
            wrapAll(ByteBuffer.wrap(src, off, len));
        }
    }

    /** Wraps and sends all of {@code plain}. */
    private void wrapAll(ByteBuffer plain) throws IOException {
        while (plain.hasRemaining()) {
            SSLEngineResult result = wrapAndSend(plain);
            if (result.getStatus() == Status.CLOSED) throw new SocketException("TLS output is closed");
            if (result.bytesConsumed() == 0 && result.bytesProduced() == 0) {
                if (engine.getHandshakeStatus() != HandshakeStatus.NEED_TASK) throw new SSLException("TLS engine made no progress");
                TlsHandshake.runDelegatedTasks(engine);
            }
        }
    }

    /**
     * Copies the plaintext into native memory a record's worth at a time, and wraps it from there.
     * With a pool, that native buffer is a pooled packet-sized one, held for this write only: kept
     * by the connection it was 16 KiB of native memory per idle TLS connection, which the heap's
     * figures never showed. Nothing keeps it after the wrap: the engine copies what it encrypts.
     */
    private void writeThroughNativeMemory(byte[] src, int off, int len) throws IOException {
        ByteBuffer plain = buffers.pooling() ? buffers.take(buffers.packetSize) : ownAppOut();
        try {
            int perRecord = Math.min(plain.capacity(), buffers.plaintextPerRecord);
            int end = off + len;
            while (off < end) {
                int n = Math.min(perRecord, end - off);
                plain.clear().put(src, off, n).flip();
                wrapAll(plain);
                off += n;
            }
        } finally {
            buffers.giveBack(plain);
        }
    }

    private ByteBuffer ownAppOut() {
        if (ownAppOut == null) ownAppOut = buffers.allocate(buffers.packetSize);
        return ownAppOut;
    }

    /** Writes queued records, then whatever post-handshake message (a KeyUpdate) the engine still has to send. */
    void sendPostHandshake() throws IOException {
        sendQueued();
        while (state.tls13 && !engine.isOutboundDone() && engine.getHandshakeStatus() == HandshakeStatus.NEED_WRAP) {
            if (wrapAndSend(EMPTY).bytesProduced() == 0) break;
        }
    }

    /** On the reading side: sends what the output side owes the peer, unless a writer is busy (it sends it then). */
    void sendPostHandshakeUnlessWriting() throws IOException {
        if (!writeLock.tryLock()) return;
        try {
            sendPostHandshake();
        } finally {
            giveBackIfIdle();
            writeLock.unlock();
        }
    }

    /**
     * On the reading side, once the engine wants to wrap its answer to a post-handshake message:
     * sends it when {@code mayWrite}, else wraps it and queues the record for the next write or
     * read. Nothing when a writer is busy: its next record carries the answer out first.
     */
    void answerPostHandshake(boolean mayWrite) throws IOException {
        if (!writeLock.tryLock()) return;
        try {
            if (mayWrite) {
                sendPostHandshake();
            } else if (netOut.position() == 0) {
                holdOutput();
                engine.wrap(EMPTY, netOut); // queued: sent by the next write or read
            }
        } finally {
            giveBackIfIdle();
            writeLock.unlock();
        }
    }

    /** Wraps and sends what the engine has to say of its own (a handshake message, an alert): a wrap of no plaintext. */
    SSLEngineResult sendEngineMessage() throws IOException {
        return wrapAndSend(EMPTY);
    }

    /** Wraps one record (data, a handshake message or an alert) and writes it; the engine wants a whole packet's room, so what was queued goes first. */
    private SSLEngineResult wrapAndSend(ByteBuffer src) throws IOException {
        sendQueued();
        holdOutput();
        SSLEngineResult result = engine.wrap(src, netOut);
        if (result.getStatus() == Status.BUFFER_OVERFLOW) {
            throw new SSLException("TLS record larger than " + netOut.capacity() + " bytes");
        }
        sendQueued();
        return result;
    }

    private void sendQueued() throws IOException {
        if (netOut.position() == 0) return;
        answered = true;
        try {
            raw.write(netOut.flip());
        } finally {
            netOut.clear(); // written, or the connection is broken
        }
    }

    /** Sends close_notify, once, and only after the handshake. */
    void sendCloseNotify() throws IOException {
        if (!state.established || closeNotifySent) return;
        closeNotifySent = true;
        engine.closeOutbound();
        while (!engine.isOutboundDone()) {
            if (wrapAndSend(EMPTY).bytesProduced() == 0) break;
        }
    }

    /** Whether close_notify went (or began to go) out. */
    boolean closeNotifySent() {
        return closeNotifySent;
    }

    /** Whether the server has written its first handshake flight: the answer to the client's hello. */
    boolean answered() {
        return answered;
    }

    // ---- the output buffer ----

    /** The output buffer, taken from the pool when none is held. */
    void holdOutput() {
        if (netOut == NONE) netOut = buffers.take(buffers.packetSize);
    }

    /** Gives the output buffer back when nothing waits in it. */
    void giveBackIfIdle() {
        if (!buffers.givesBackWhileIdle() || netOut == NONE || netOut.position() != 0) return;
        ByteBuffer ciphertext = netOut;
        netOut = NONE;
        buffers.giveBack(ciphertext);
    }

    /** Under both locks, once closed and no thread is inside, with a pool: the buffer goes back, whatever it holds. */
    void giveBackAll() {
        ByteBuffer held = netOut;
        netOut = NONE;
        if (held != NONE) buffers.giveBack(held);
    }

    int netOutCapacity() {
        return netOut.capacity();
    }
}
