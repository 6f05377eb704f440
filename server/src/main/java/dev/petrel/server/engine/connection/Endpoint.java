package dev.petrel.server.engine.connection;

import dev.petrel.server.TlsDetails;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The seam between the protocol engine and a transport: blocking reads with a timeout, writes
 * that complete, and close. A transport implements only this; keep-alive, pipelining, errors and
 * limits live in the engine, once for every transport.
 *
 * <p>Contract: {@link #read} blocks until at least one byte is available, the peer closed (-1),
 * or the timeout passed ({@link java.net.SocketTimeoutException}). {@link #write} returns only
 * when every byte was handed to the network, however many partial writes that took.
 */
public interface Endpoint extends RequestOrigin {
    /**
     * Reads into {@code dst} from its position, at most its remaining bytes.
     *
     * @return the number of bytes read, at least 1, or -1 at end of stream
     * @throws java.net.SocketTimeoutException when nothing arrived within {@code timeoutMillis}
     */
    int read(ByteBuffer dst, int timeoutMillis) throws IOException;

    /**
     * Reads what has arrived, without waiting: used between requests by transports whose idle
     * connections wait without a thread (see {@link #waitsWithoutThread()}).
     *
     * @return the number of bytes read, 0 when none are there now, or -1 at end of stream
     */
    default int readAvailable(ByteBuffer dst) throws IOException {
        throw new UnsupportedOperationException("this endpoint only reads by waiting");
    }

    /**
     * Whether a connection waiting for its next request should be handed back to the transport
     * instead of waiting on a thread: true for event-loop transports, which then watch the socket
     * and call the engine again when bytes arrive or its deadline passes.
     */
    default boolean waitsWithoutThread() {
        return false;
    }

    /**
     * Whether the calling thread is the event loop this endpoint belongs to: code there must never
     * wait (a handler that detaches its response, say). Default: false.
     */
    default boolean onEventLoop() {
        return false;
    }

    /**
     * Whether {@link #wakeOnLoop()} works: true on an event-loop transport whose loop can be
     * asked to look at the connection. Default: false.
     */
    default boolean wakesOnLoop() {
        return false;
    }

    /**
     * Has the event loop look at the connection soon as if bytes had arrived (the engine's
     * {@linkplain ProtocolConnection#poll() poll}, then its serve), for work the connection waits
     * on that another thread has just finished, such as a TLS handshake step computed off the
     * loop. Nothing happens unless the connection is waiting on the loop then. Safe from any thread.
     *
     * @throws UnsupportedOperationException unless {@link #wakesOnLoop()} (the default)
     */
    default void wakeOnLoop() {
        throw new UnsupportedOperationException("this endpoint has no event loop to wake");
    }

    /**
     * Whether this endpoint holds input of its own that a read would return without the socket
     * becoming readable again, such as a TLS record received whole but not yet decrypted. A
     * transport that waits without a thread relies on the socket's readiness, which says nothing
     * of such bytes. Default: false.
     */
    default boolean hasBufferedInput() {
        return false;
    }

    /**
     * Writes all {@code len} bytes of {@code src} from {@code off}.
     *
     * @throws java.net.SocketTimeoutException when the peer took no bytes for the write timeout
     */
    void write(byte[] src, int off, int len) throws IOException;

    /**
     * Writes all of {@code src} from its position to its limit, as {@link #write(byte[], int, int)}
     * does; its position ends at its limit. An endpoint over a channel writes a direct buffer as it
     * is (TLS records in native memory); this default copies one into a byte array first.
     *
     * @throws java.net.SocketTimeoutException when the peer took no bytes for the write timeout
     */
    default void write(ByteBuffer src) throws IOException {
        int len = src.remaining();
        if (src.hasArray()) {
            write(src.array(), src.arrayOffset() + src.position(), len);
            src.position(src.limit());
        } else {
            byte[] copy = new byte[len];
            src.get(copy);
            write(copy, 0, len);
        }
    }

    /**
     * Whether {@link #writeAvailable} works: true for an endpoint over a non-blocking socket whose
     * bytes go out as they are, so that code on an event loop can send without ever waiting, and
     * queue what the socket does not take yet. Default: false.
     */
    default boolean writesWithoutWaiting() {
        return false;
    }

    /**
     * Writes what the socket takes now from {@code src}, without waiting; what it does not take is
     * left between {@code src}'s position and its limit.
     *
     * @throws UnsupportedOperationException unless {@link #writesWithoutWaiting()} (the default)
     */
    default void writeAvailable(ByteBuffer src) throws IOException {
        throw new UnsupportedOperationException("this endpoint only writes by waiting");
    }

    /**
     * Whether the calling thread may wait for this endpoint's socket: false on an event-loop
     * thread, this endpoint's or another's, which serves other connections meanwhile. Default: true.
     */
    default boolean callerMayWait() {
        return true;
    }

    /**
     * Writes {@code count} bytes of {@code file} from {@code position} straight to the socket,
     * without copying them through the heap ({@link FileChannel#transferTo}, {@code sendfile(2)}
     * on Linux), within the same write limits as {@link #write}. Only an endpoint whose bytes go to
     * the socket as they are can: not one that encrypts them (TLS).
     *
     * @return false, having written nothing, when this endpoint cannot (the default): the caller copies
     * @throws java.net.SocketTimeoutException when the peer took no bytes for the write timeout
     * @throws IOException when the file ends before {@code count} bytes, or the write failed
     */
    default boolean transferFile(FileChannel file, long position, long count) throws IOException {
        return false;
    }

    /** Half-closes: the peer sees end of stream while we may still read. */
    void shutdownOutput() throws IOException;

    /**
     * Closes after the response has left: half-closes, reads and discards what the peer still
     * sends for up to {@code lingerMillis} or {@code lingerBytes}, then closes. Closing a socket
     * with unread input makes the kernel send RST, which can destroy the response still in flight
     * to the client; lingering lets the client read it first. The endpoint ends up closed, now or
     * later: the caller must not close it. This default lingers on the calling thread; an
     * event-loop transport lingers on its loop instead.
     */
    default void closeGracefully(int lingerMillis, int lingerBytes) {
        try {
            shutdownOutput();
            long deadline = System.nanoTime() + lingerMillis * 1_000_000L;
            ByteBuffer discard = ByteBuffer.allocate(4096);
            int discarded = 0;
            while (discarded < lingerBytes) {
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (left <= 0) break;
                discard.clear();
                int n = read(discard, (int) left);
                if (n < 0) break;
                discarded += n;
            }
        } catch (IOException e) {
            // the peer is gone already; nothing left to protect
        } finally {
            close();
        }
    }

    /** Closes both directions; idempotent and safe from any thread. */
    void close();

    /**
     * Closes so that the peer sees a failure, not an end: a response that broke off after bytes of
     * it had left must not look whole to the client, and where the end of the connection is the
     * end of the body (an HTTP/1.0 response of unknown length), or over TLS, where a
     * {@code close_notify} says "nothing was cut", only a reset says so. Idempotent and safe from
     * any thread. This default closes as {@link #close()} does.
     */
    default void reset() {
        close();
    }

    /** The peer's address. */
    @Override
    InetSocketAddress remoteAddress();

    /** The local address. */
    @Override
    InetSocketAddress localAddress();

    /** What was negotiated over TLS, or {@code null} on a plain connection. */
    @Override
    default TlsDetails tls() {
        return null;
    }

    /**
     * The application protocol the client chose by ALPN during a TLS handshake (e.g.
     * {@code http/1.1}), or {@code null}: no TLS, or no choice.
     */
    default String applicationProtocol() {
        return null;
    }

    /** {@code http} for plain connections, {@code https} for TLS ones. */
    @Override
    default String scheme() {
        return "http";
    }
}
