package dev.petrel.server.http2;

import dev.petrel.http2.Frames;
import dev.petrel.http2.Http2Error;
import dev.petrel.http2.Http2ErrorCode;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The peer's flow-control windows for what the server sends (RFC 9113 section 5.2): one for the
 * connection and one per stream, opened by the peer's {@code WINDOW_UPDATE} and by its
 * {@code SETTINGS_INITIAL_WINDOW_SIZE}. A stream takes what both allow before each {@code DATA}
 * frame and waits, within the write timeout, while either is shut: a peer that never opens its
 * window (or opens it a byte at a time) holds that stream's handler for no longer than a client
 * that does not read holds an HTTP/1.1 response, and never holds the connection's writer.
 */
final class SendWindows {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition opened = lock.newCondition();
    private long connection = Frames.DEFAULT_WINDOW; // guarded by lock
    private int initial = Frames.DEFAULT_WINDOW;     // guarded by lock: the peer's SETTINGS_INITIAL_WINDOW_SIZE
    private boolean closed;                          // guarded by lock

    /** The window a new stream starts with. */
    int initialStreamWindow() {
        lock.lock();
        try {
            return initial;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes up to {@code wanted} bytes of both windows for {@code stream}, waiting up to
     * {@code timeoutNanos} while either is shut.
     *
     * @return the bytes taken, at least 1
     * @throws SocketTimeoutException when the peer kept a window shut for the whole timeout
     * @throws IOException when the stream was reset or the connection ended meanwhile
     */
    int acquire(StreamState stream, int wanted, long timeoutNanos) throws IOException {
        lock.lock();
        try {
            long left = timeoutNanos;
            while (true) {
                if (closed) throw new IOException("the HTTP/2 connection ended");
                if (stream.isReset()) throw new IOException("the stream was reset");
                int n = (int) Math.min(wanted, Math.min(connection, stream.sendWindow));
                if (n > 0) {
                    connection -= n;
                    stream.sendWindow -= n;
                    return n;
                }
                if (left <= 0) throw new SocketTimeoutException("the peer's flow-control window stayed shut");
                left = opened.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the peer's window", e);
        } finally {
            lock.unlock();
        }
    }

    /** Takes up to {@code wanted} bytes of both windows without waiting; 0 when either is shut. */
    int tryAcquire(StreamState stream, int wanted) {
        lock.lock();
        try {
            if (closed || stream.isReset()) return 0;
            int n = (int) Math.min(wanted, Math.min(connection, stream.sendWindow));
            if (n <= 0) return 0;
            connection -= n;
            stream.sendWindow -= n;
            return n;
        } finally {
            lock.unlock();
        }
    }

    /** A {@code WINDOW_UPDATE} for the connection; the error when it overflows (section 6.9.1). */
    Http2Error connectionUpdate(int increment) {
        lock.lock();
        try {
            if (connection + increment > Frames.MAX_WINDOW) {
                return Http2Error.connection(Http2ErrorCode.FLOW_CONTROL_ERROR, "connection window beyond 2^31-1");
            }
            connection += increment;
            opened.signalAll();
            return null;
        } finally {
            lock.unlock();
        }
    }

    /** A {@code WINDOW_UPDATE} for {@code stream}; the stream error when it overflows (section 6.9.1). */
    Http2Error streamUpdate(StreamState stream, int increment) {
        lock.lock();
        try {
            if ((long) stream.sendWindow + increment > Frames.MAX_WINDOW) {
                return Http2Error.stream(Http2ErrorCode.FLOW_CONTROL_ERROR, stream.id, "stream window beyond 2^31-1");
            }
            stream.sendWindow += increment;
            opened.signalAll();
            return null;
        } finally {
            lock.unlock();
        }
    }

    /** Sets a new stream's window to the peer's initial one, under the lock the windows change under. */
    void open(StreamState stream) {
        lock.lock();
        try {
            stream.sendWindow = initial;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The peer changed {@code SETTINGS_INITIAL_WINDOW_SIZE}: every open stream's window moves by
     * the difference, and may go negative (section 6.9.2); a window pushed beyond 2^31-1 is a
     * connection error.
     */
    Http2Error initialWindowChanged(int value, Collection<StreamState> open) {
        lock.lock();
        try {
            Http2Error error = checkInitialWindow(value, open);
            if (error != null) return error;
            int delta = value - initial;
            for (StreamState stream : open) stream.sendWindow += delta;
            initial = value;
            opened.signalAll();
            return null;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The error {@link #initialWindowChanged} would give for {@code value}, without changing
     * anything: so that a {@code SETTINGS} frame can be checked whole, and acknowledged, before
     * its new window lets any stream send.
     */
    Http2Error checkInitialWindow(int value, Collection<StreamState> open) {
        lock.lock();
        try {
            int delta = value - initial;
            for (StreamState stream : open) {
                if ((long) stream.sendWindow + delta > Frames.MAX_WINDOW) {
                    return Http2Error.connection(Http2ErrorCode.FLOW_CONTROL_ERROR, "a stream window beyond 2^31-1");
                }
            }
            return null;
        } finally {
            lock.unlock();
        }
    }

    /** Wakes every waiting stream: one was reset, or the connection ended ({@code closed}). */
    void wake(boolean closed) {
        lock.lock();
        try {
            if (closed) this.closed = true;
            opened.signalAll();
        } finally {
            lock.unlock();
        }
    }

    static long nanos(long millis) {
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }
}
