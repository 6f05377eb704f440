package dev.petrel.server.tls;

import dev.petrel.server.engine.connection.Endpoint;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An in-memory raw {@link Endpoint}, the server's end of a duplex pipe whose other end is the
 * test: the test {@linkplain #feed feeds} ciphertext as if it had arrived, and
 * {@linkplain #awaitWritten takes} what the server wrote.
 *
 * <p>A read never crosses the boundary between two fed chunks, so feeding in pieces splits
 * records where the test likes. {@link Mode#ONE_BYTE} hands over one byte per read at most.
 * {@link Mode#EVENT_LOOP} {@linkplain #waitsWithoutThread() waits without a thread}, as the nio
 * transport's endpoint does: {@link #readAvailable} returns 0 when nothing is there, and blocking
 * reads are counted so that a test can check none happened. {@link Mode#EVENT_LOOP_WAKING} can
 * also be {@linkplain #wakeOnLoop() woken}, and counts the wakes.
 */
final class TlsEndpointMemoryEndpoint implements Endpoint {
    /** How reads hand over bytes. */
    enum Mode {
        /** Up to the rest of the current fed chunk per read. */
        CHUNKS,
        /** One byte per read at most. */
        ONE_BYTE,
        /** Chunks, and the endpoint waits without a thread. */
        EVENT_LOOP,
        /** As {@link #EVENT_LOOP}, and it can be woken (see {@link #awaitWake}). */
        EVENT_LOOP_WAKING
    }

    private final Mode mode;
    private final Semaphore wakes = new Semaphore(0);
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Deque<byte[]> inbound = new ArrayDeque<>();
    private final ByteArrayOutputStream written = new ByteArrayOutputStream();
    private int headOffset;          // bytes of inbound's first chunk already read
    private boolean inboundEnded;
    private boolean outputShutdown;
    private boolean closed;
    private long writtenTotal;
    private int largestWrite;
    private int blockingReads;
    private int waitingReaders;

    TlsEndpointMemoryEndpoint(Mode mode) {
        this.mode = mode;
    }

    // ---- the test's end ----

    /** Bytes that arrive from the client, as one chunk. */
    void feed(byte[] bytes) {
        feed(bytes, 0, bytes.length);
    }

    void feed(byte[] bytes, int off, int len) {
        if (len == 0) return;
        lock.lock();
        try {
            inbound.add(Arrays.copyOfRange(bytes, off, off + len));
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The client closed its side: reads see end of stream once the fed bytes are taken. */
    void feedEnd() {
        lock.lock();
        try {
            inboundEnded = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes what the server wrote, waiting up to {@code timeout} for at least one byte.
     *
     * @return the bytes; empty when the server's output ended (shut down or closed) with nothing left
     * @throws IOException when nothing came in time and the output is still open
     */
    byte[] awaitWritten(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        lock.lock();
        try {
            while (written.size() == 0 && !outputShutdown && !closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) throw new SocketTimeoutException("the server wrote nothing within " + timeout);
                changed.awaitNanos(left);
            }
            byte[] bytes = written.toByteArray();
            written.reset();
            return bytes;
        } finally {
            lock.unlock();
        }
    }

    /** Waits up to {@code timeout} for a {@link #wakeOnLoop()} not waited for yet; false if none came. */
    boolean awaitWake(Duration timeout) throws InterruptedException {
        return wakes.tryAcquire(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Waits up to {@code timeout} until bytes (or the end) wait to be read; false if none came. */
    boolean awaitReadable(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        lock.lock();
        try {
            while (inbound.isEmpty() && !inboundEnded) {
                long left = deadline - System.nanoTime();
                if (left <= 0) return false;
                changed.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until a reader waits for bytes inside {@link #read}. */
    void awaitWaitingReader() throws InterruptedException {
        lock.lock();
        try {
            while (waitingReaders == 0) changed.await();
        } finally {
            lock.unlock();
        }
    }

    long writtenTotal() {
        lock.lock();
        try {
            return writtenTotal;
        } finally {
            lock.unlock();
        }
    }

    int largestWrite() {
        lock.lock();
        try {
            return largestWrite;
        } finally {
            lock.unlock();
        }
    }

    int blockingReads() {
        lock.lock();
        try {
            return blockingReads;
        } finally {
            lock.unlock();
        }
    }

    boolean closed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    boolean outputShutdown() {
        lock.lock();
        try {
            return outputShutdown;
        } finally {
            lock.unlock();
        }
    }

    // ---- the server's end ----

    @Override
    public int read(ByteBuffer dst, int timeoutMillis) throws IOException {
        lock.lock();
        try {
            blockingReads++;
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            waitingReaders++;
            try {
                changed.signalAll();
                while (inbound.isEmpty() && !inboundEnded && !closed) {
                    if (timeoutMillis <= 0) {
                        changed.awaitUninterruptibly(); // 0: no timeout, as a socket's
                        continue;
                    }
                    long left = deadline - System.nanoTime();
                    if (left <= 0) throw new SocketTimeoutException("read timed out");
                    changed.awaitNanos(left);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SocketException("interrupted");
            } finally {
                waitingReaders--;
            }
            if (closed) throw new SocketException("Socket closed");
            return take(dst);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int readAvailable(ByteBuffer dst) throws IOException {
        if (!waitsWithoutThread()) throw new UnsupportedOperationException("this endpoint only reads by waiting");
        lock.lock();
        try {
            if (closed) throw new SocketException("Socket closed");
            if (inbound.isEmpty()) return inboundEnded ? -1 : 0;
            return take(dst);
        } finally {
            lock.unlock();
        }
    }

    private int take(ByteBuffer dst) {
        if (inbound.isEmpty()) return -1; // ended
        byte[] head = inbound.peek();
        int n = Math.min(dst.remaining(), head.length - headOffset);
        if (mode == Mode.ONE_BYTE) n = Math.min(n, 1);
        dst.put(head, headOffset, n);
        headOffset += n;
        if (headOffset == head.length) {
            inbound.poll();
            headOffset = 0;
        }
        return n;
    }

    @Override
    public boolean waitsWithoutThread() {
        return mode == Mode.EVENT_LOOP || mode == Mode.EVENT_LOOP_WAKING;
    }

    @Override
    public boolean wakesOnLoop() {
        return mode == Mode.EVENT_LOOP_WAKING;
    }

    @Override
    public void wakeOnLoop() {
        if (!wakesOnLoop()) throw new UnsupportedOperationException("no loop to wake");
        wakes.release();
    }

    @Override
    public void write(byte[] src, int off, int len) throws IOException {
        lock.lock();
        try {
            if (closed || outputShutdown) throw new SocketException("write after close");
            written.write(src, off, len);
            writtenTotal += len;
            largestWrite = Math.max(largestWrite, len);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void shutdownOutput() {
        lock.lock();
        try {
            outputShutdown = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return new InetSocketAddress("127.0.0.1", 40000);
    }

    @Override
    public InetSocketAddress localAddress() {
        return new InetSocketAddress("127.0.0.1", 8443);
    }
}
