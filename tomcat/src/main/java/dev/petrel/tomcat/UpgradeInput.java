package dev.petrel.tomcat;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bytes an upgraded connection has read and Tomcat's upgrade handler has not taken yet.
 *
 * <p>One thread reads the socket ({@link UpgradedConnection}'s); every read of the handler, blocking
 * or not, takes from here. Tomcat's own connectors let the poller signal readiness and the reader
 * read the socket itself; Petrel's endpoints read by waiting, so a single reader that reads only
 * when someone asked for bytes (a registered read interest, or a blocked reader) keeps two threads
 * off one socket and never reads more than the handler wants to hold.
 */
final class UpgradeInput {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ByteBuffer bytes; // kept in write mode: [0, position) are the bytes not yet taken
    private boolean interest;
    private int blockedReaders;
    private boolean ended;
    private boolean closed;
    private IOException failure;

    UpgradeInput(int capacity) {
        this.bytes = ByteBuffer.allocate(capacity);
    }

    // ---- the socket's reader

    /**
     * Waits until someone wants bytes and there is room for them.
     *
     * @return how many bytes may be read now, at least 1; -1 once the input is closed or has ended
     */
    int awaitDemand() throws InterruptedException {
        lock.lock();
        try {
            while (!closed && !ended && failure == null && !(wanted() && bytes.hasRemaining())) changed.await();
            return closed || ended || failure != null ? -1 : bytes.remaining();
        } finally {
            lock.unlock();
        }
    }

    private boolean wanted() {
        return interest || blockedReaders > 0;
    }

    /**
     * Adds what was read (at most the room {@link #awaitDemand} gave).
     *
     * @return whether a read interest was registered: the handler is to be told ({@code OPEN_READ}); it is used up
     */
    boolean put(ByteBuffer src) {
        lock.lock();
        try {
            bytes.put(src);
            changed.signalAll();
            return takeInterest();
        } finally {
            lock.unlock();
        }
    }

    /** The peer ended its side. Returns, as {@link #put}, whether the handler is to be told. */
    boolean end() {
        lock.lock();
        try {
            ended = true;
            changed.signalAll();
            return takeInterest();
        } finally {
            lock.unlock();
        }
    }

    /** The socket failed: readers get {@code failure} once the bytes before it are taken. */
    void fail(IOException failure) {
        lock.lock();
        try {
            if (this.failure == null) this.failure = failure;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Waits until the connection is closed (by the handler, the server, or {@link #close}). */
    void awaitClosed() throws InterruptedException {
        lock.lock();
        try {
            while (!closed) changed.await();
        } finally {
            lock.unlock();
        }
    }

    /** The connection closed: the reader stops, blocked readers fail. */
    void close() {
        lock.lock();
        try {
            closed = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private boolean takeInterest() {
        boolean was = interest;
        interest = false;
        return was;
    }

    // ---- the handler's side

    /** Tomcat's {@code registerReadInterest}: the handler is told ({@code OPEN_READ}) when bytes arrive. */
    void registerInterest() {
        lock.lock();
        try {
            interest = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Whether a read would return at once: bytes are here, or the end, or a failure. */
    boolean ready() {
        lock.lock();
        try {
            return bytes.position() > 0 || ended || failure != null || closed;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes up to {@code to}'s remaining bytes.
     *
     * @param block whether to wait for at least one byte
     * @param timeoutMillis how long a blocking read waits; 0 or less: without limit
     * @return the bytes taken; 0 when none are here and {@code block} is false; -1 at the end
     */
    int take(ByteBuffer to, boolean block, long timeoutMillis) throws IOException {
        lock.lock();
        try {
            if (!awaitBytes(block, timeoutMillis)) return endOrNothing();
            bytes.flip();
            int n = Math.min(bytes.remaining(), to.remaining());
            to.put(to.position(), bytes, bytes.position(), n).position(to.position() + n);
            bytes.position(bytes.position() + n).compact();
            changed.signalAll(); // room for the reader
            return n;
        } finally {
            lock.unlock();
        }
    }

    /** As {@link #take(ByteBuffer, boolean, long)}, into an array. */
    int take(byte[] b, int off, int len, boolean block, long timeoutMillis) throws IOException {
        return take(ByteBuffer.wrap(b, off, len), block, timeoutMillis);
    }

    /**
     * Waits, when {@code block}, until bytes are here or none will come.
     *
     * @return whether bytes are here
     */
    private boolean awaitBytes(boolean block, long timeoutMillis) throws IOException {
        if (bytes.position() > 0) return true;
        if (!block || ended || failure != null || closed) return false;
        long deadline = timeoutMillis > 0 ? System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis) : 0;
        blockedReaders++;
        changed.signalAll();
        try {
            while (bytes.position() == 0 && !ended && failure == null && !closed) {
                if (deadline == 0) {
                    changed.await();
                } else {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) throw new SocketTimeoutException("no bytes from the client within " + timeoutMillis + " ms");
                    changed.awaitNanos(left);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the client");
        } finally {
            blockedReaders--;
        }
        return bytes.position() > 0;
    }

    /** With no bytes here: -1 at the end, the failure, or 0 (nothing yet). */
    private int endOrNothing() throws IOException {
        if (failure != null) throw failure;
        if (ended) return -1;
        if (closed) throw new EOFException("the connection is closed");
        return 0;
    }
}
