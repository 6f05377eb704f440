package dev.petrel.server.tls;

import dev.petrel.server.engine.connection.Endpoint;
import java.io.IOException;
import java.net.SocketException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import javax.net.ssl.SSLEngine;

/**
 * How a {@link TlsEndpoint} ends: close_notify when the engine is free to send it, the raw
 * endpoint's half-close, graceful close, close or reset, and then the engine freed and the record
 * buffers given back by the last thread to leave. Its own class because any thread may close while
 * others read and write, and getting that order right (close the raw endpoint first, which ends
 * every wait; free the engine only under both locks, and once) is the whole of its job.
 */
final class TlsClosing {
    private final SSLEngine engine;
    private final Endpoint raw;
    private final TlsState state;
    private final ReentrantLock readLock;
    private final ReentrantLock writeLock;
    private final TlsRecordBuffers buffers;
    private final TlsRecordReader reader;
    private final TlsRecordWriter writer;
    private final Consumer<SSLEngine> release;
    private final AtomicBoolean released = new AtomicBoolean();
    private final AtomicInteger releaseAttempts = new AtomicInteger(); // threads in releaseIfIdle (see there)

    TlsClosing(SSLEngine engine, Endpoint raw, TlsState state, TlsRecordBuffers buffers, TlsRecordReader reader,
               TlsRecordWriter writer, Consumer<SSLEngine> release) {
        this.engine = engine;
        this.raw = raw;
        this.state = state;
        this.readLock = state.readLock;
        this.writeLock = state.writeLock;
        this.buffers = buffers;
        this.reader = reader;
        this.writer = writer;
        this.release = release;
    }

    /**
     * {@link TlsEndpoint#shutdownOutput}: close_notify (once), then the raw endpoint's half-close.
     * Like every thread that held a lock, it looks on its way out whether it was the last inside a
     * closed endpoint: a close on another thread meanwhile found the write lock taken and left the
     * engine to it.
     */
    void shutdownOutput() throws IOException {
        writeLock.lock();
        try {
            sendCloseNotifyUnlessReleased();
        } finally {
            writeLock.unlock();
            releaseIfIdle();
        }
        raw.shutdownOutput();
    }

    /** {@link TlsEndpoint#closeGracefully}: close_notify, then the raw endpoint lingers and closes. */
    void closeGracefully(int lingerMillis, int lingerBytes) {
        boolean notified;
        writeLock.lock();
        try {
            sendCloseNotifyUnlessReleased();
            notified = true;
        } catch (IOException | RuntimeException e) {
            notified = false; // the client is gone: nothing to linger for
        } finally {
            writeLock.unlock();
        }
        state.closed.set(true);
        if (notified) raw.closeGracefully(lingerMillis, lingerBytes);
        else raw.close();
        releaseIfIdle();
    }

    /** {@link TlsEndpoint#close}: close_notify only if no writer is busy (no waiting for it), then the raw endpoint closes. */
    void close() {
        if (state.closed.compareAndSet(false, true) && writeLock.tryLock()) {
            try {
                sendCloseNotifyUnlessReleased();
            } catch (IOException | RuntimeException e) {
                // best effort: the client may be gone
            } finally {
                writeLock.unlock();
            }
        }
        raw.close();
        releaseIfIdle();
    }

    /**
     * Under the write lock: close_notify, unless the last thread to leave freed the engine and gave
     * the buffers back already (another thread closed the endpoint meanwhile). Wrapping then would
     * use a freed engine and take a buffer from the pool that nobody gives back.
     */
    private void sendCloseNotifyUnlessReleased() throws IOException {
        if (released.get()) throw new SocketException("the TLS connection is closed");
        writer.sendCloseNotify();
    }

    /** {@link TlsEndpoint#reset}: no close_notify, which would tell the client that nothing was cut. */
    void reset() {
        state.closed.set(true);
        raw.reset();
        releaseIfIdle();
    }

    /** {@link TlsEndpoint#discard}: closed without a word and without touching the raw endpoint. */
    void discard() {
        state.closed.set(true);
        releaseIfIdle();
    }

    /**
     * Hands the engine to {@code release} once the endpoint is closed and no thread is inside
     * it: called as each reader, writer and closer leaves. The last to leave a closed endpoint
     * takes both locks, so the engine is never freed under a thread still unwrapping or wrapping
     * with it (closing the raw endpoint first ends any thread's wait), and never twice.
     *
     * <p>Two threads leaving at once may each find the other's lock still taken, and both would
     * give up, leaving the engine and the buffers for good. So one thread tries at a time, and
     * one that arrives while another tries only counts itself in: the thread trying goes round
     * again for it, after it has let go of its lock.
     */
    void releaseIfIdle() {
        if (!state.closed.get() || released.get()) return;
        // the thread is still inside (a close from within a read): its own way out releases
        if (readLock.isHeldByCurrentThread() || writeLock.isHeldByCurrentThread()) return;
        if (releaseAttempts.getAndIncrement() != 0) return; // the thread trying now goes round again for this one
        do {
            tryRelease();
        } while (releaseAttempts.decrementAndGet() != 0);
    }

    private void tryRelease() {
        if (released.get() || !readLock.tryLock()) return;
        try {
            if (!writeLock.tryLock()) return;
            try {
                if (released.compareAndSet(false, true)) {
                    release.accept(engine);
                    giveBackAll();
                }
            } finally {
                writeLock.unlock();
            }
        } finally {
            readLock.unlock();
        }
    }

    /** Under both locks, once closed and no thread is inside: every buffer goes back, whatever it holds. */
    private void giveBackAll() {
        if (!buffers.pooling()) return; // its own buffers: left as they are, to the collector
        reader.giveBackAll();
        writer.giveBackAll();
    }
}
