package dev.petrel.tomcat;

import dev.petrel.server.engine.connection.Endpoint;
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
 * <p>One reader fills it: the connection's thread on a transport that serves a connection on one
 * thread, the event loop on one whose connections wait without a thread ({@link UpgradedConnection}
 * says which). Every read of the handler, blocking or not, takes from here. Tomcat's own connectors
 * let the poller signal readiness and the reader read the socket itself; Petrel's endpoints read by
 * waiting, or on the loop, so a single reader that reads only when someone asked for bytes (a
 * registered read interest, or a blocked reader) keeps two threads off one socket and never reads
 * more than the handler wants to hold.
 *
 * <p>On the loop, a connection nobody wants bytes from is not watched at all (the client's bytes
 * wait in the socket); {@link #sleepUnlessWanted()} marks it so, and the first demand after that
 * runs the wake given to the constructor, once.
 */
final class UpgradeInput {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ByteBuffer bytes; // kept in write mode: [0, position) are the bytes not yet taken
    private final Runnable wake;
    private boolean interest;
    private int blockedReaders;
    private boolean ended;
    private boolean closed;
    private boolean sleeping; // the loop does not watch the socket until demand wakes it
    private IOException failure;

    /**
     * @param capacity the most bytes held for the handler
     * @param wake has the reader look again after {@link #sleepUnlessWanted()}; run on the thread
     *     that made the demand, so it must never block (it queues a task for the loop)
     */
    UpgradeInput(int capacity, Runnable wake) {
        this.bytes = ByteBuffer.allocate(capacity);
        this.wake = wake;
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

    /** Whether the reader should read now: someone wants bytes, there is room for them, and more may come. */
    private boolean demand() {
        return wanted() && bytes.hasRemaining() && !closed && !ended && failure == null;
    }

    /**
     * On the loop: reads what the socket has now, straight into the buffer, if someone wants it.
     *
     * @return whether the handler is to be told ({@code OPEN_READ}): bytes or the end came for a
     *     registered read interest, which is used up; a blocked reader is signalled instead
     * @throws IOException the socket failed; readers get it once the bytes before it are taken
     */
    boolean readAvailable(Endpoint endpoint) throws IOException {
        lock.lock();
        try {
            if (!demand()) return false;
            int n;
            try {
                n = endpoint.readAvailable(bytes);
            } catch (IOException e) {
                failure = e;
                changed.signalAll();
                throw e;
            }
            if (n == 0) return false;
            if (n < 0) ended = true;
            changed.signalAll();
            return takeInterest();
        } finally {
            lock.unlock();
        }
    }

    /**
     * On the loop, about to wait: true when nobody wants bytes now, so the socket need not be
     * watched; the next demand runs the wake. False when there is demand: the loop watches for bytes.
     */
    boolean sleepUnlessWanted() {
        lock.lock();
        try {
            sleeping = !demand();
            return sleeping;
        } finally {
            lock.unlock();
        }
    }

    /** Under the lock, after a change that may make demand: whether to run the wake (once the lock is let go). */
    private boolean wakeDue() {
        if (!sleeping || !demand()) return false;
        sleeping = false;
        return true;
    }

    /** The room left for bytes from the socket. */
    int room() {
        lock.lock();
        try {
            return bytes.remaining();
        } finally {
            lock.unlock();
        }
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

    /**
     * Adds what the serving thread read itself, for its own blocking read (see
     * {@link UpgradedConnection}): a registered read interest stays for the next bytes. {@code n}
     * is what the read returned, -1 at the end of stream.
     */
    void putOwnRead(ByteBuffer src, int n) {
        lock.lock();
        try {
            if (n < 0) ended = true;
            else bytes.put(src);
            changed.signalAll();
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
        boolean wakeNow;
        lock.lock();
        try {
            interest = true;
            changed.signalAll();
            wakeNow = wakeDue();
        } finally {
            lock.unlock();
        }
        if (wakeNow) wake.run();
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
        if (!to.hasRemaining()) return 0; // as InputStream.read does for no room, blocking or not
        boolean wakeNow = false;
        lock.lock();
        try {
            if (!awaitBytes(block, timeoutMillis)) return endOrNothing();
            bytes.flip();
            int n = Math.min(bytes.remaining(), to.remaining());
            to.put(to.position(), bytes, bytes.position(), n).position(to.position() + n);
            bytes.position(bytes.position() + n).compact();
            changed.signalAll(); // room for the reader
            wakeNow = wakeDue();
            return n;
        } finally {
            lock.unlock();
            if (wakeNow) wake.run();
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
        if (wakeDue()) wake.run();
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
