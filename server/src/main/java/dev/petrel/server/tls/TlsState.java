package dev.petrel.server.tls;

import java.net.SocketException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The locks and flags that the parts of one {@link TlsEndpoint} share (its handshake, its record
 * reader and writer, its closing), in one place so that each part holds this rather than the
 * others, and the rules for them are written once.
 *
 * <p>Locks: the read lock keeps the input side (the ciphertext and plaintext in) to one reader,
 * the write lock the output side (the ciphertext out) to one writer, as the {@code SSLEngine}
 * allows {@code unwrap} and {@code wrap} to run at once; whoever holds both takes the read lock
 * first. The handshake holds both.
 */
final class TlsState {
    final ReentrantLock readLock = new ReentrantLock();
    final ReentrantLock writeLock = new ReentrantLock();
    final AtomicBoolean closed = new AtomicBoolean();
    // written under both locks during the handshake, read under either afterwards
    volatile boolean established; // the initial handshake completed
    volatile boolean tls13;

    void ensureReady() throws SocketException {
        if (!established) throw new IllegalStateException("handshake() has not completed");
        ensureOpen();
    }

    void ensureOpen() throws SocketException {
        if (closed.get()) throw new SocketException("connection closed");
    }
}
