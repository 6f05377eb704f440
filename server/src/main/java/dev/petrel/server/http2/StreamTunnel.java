package dev.petrel.server.http2;

import dev.petrel.http2.Http2ErrorCode;
import dev.petrel.server.TlsDetails;
import dev.petrel.server.engine.connection.Endpoint;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One stream opened by an extended CONNECT (RFC 8441), after its {@code 200}, as the endpoint of
 * the protocol it carries (a WebSocket session): the same seam a socket offers, so that the
 * session runs over either unchanged. Reads take the client's {@code DATA} and give the bytes
 * back to its windows as they are read, so flow control paces the client; writes leave as
 * {@code DATA} within the peer's windows; the half close is {@code END_STREAM}, the client's
 * {@code END_STREAM} the end of input, and a reset by either side a failure of both directions
 * (RFC 9113 section 8.5). Closing resets the stream unless the server's side has ended it.
 */
final class StreamTunnel implements Endpoint {
    private static final byte[] NO_BYTES = new byte[0];

    private final StreamState stream;
    private final Http2Connection connection;
    private final Http2Stream frames;
    private final AtomicBoolean outputShut = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();

    StreamTunnel(StreamState stream, Http2Connection connection, Http2Stream frames) {
        this.stream = stream;
        this.connection = connection;
        this.frames = frames;
    }

    @Override
    public int read(ByteBuffer dst, int timeoutMillis) throws IOException {
        byte[] b = dst.hasArray() ? dst.array() : new byte[dst.remaining()];
        int off = dst.hasArray() ? dst.arrayOffset() + dst.position() : 0;
        while (true) {
            if (closed.get()) throw new SocketException("the stream is closed");
            int n = stream.take(b, off, dst.remaining());
            if (n > 0) {
                if (dst.hasArray()) dst.position(dst.position() + n);
                else dst.put(b, 0, n);
                connection.consumed(stream, n);
                return n;
            }
            if (n == -1) return -1; // the client's END_STREAM
            if (n == -2) throw new IOException("the stream was reset (" + stream.resetCode() + ")");
            try {
                stream.await(timeoutMillis); // throws SocketTimeoutException when nothing came
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for DATA");
            }
        }
    }

    @Override
    public void write(byte[] src, int off, int len) throws IOException {
        if (closed.get() || outputShut.get()) throw new SocketException("the stream's output is closed");
        if (stream.isReset()) throw new IOException("the stream was reset (" + stream.resetCode() + ")");
        frames.sendData(src, off, len, false);
    }

    /** Ends the server's side with an empty {@code DATA} frame with END_STREAM. */
    @Override
    public void shutdownOutput() throws IOException {
        if (!outputShut.compareAndSet(false, true) || stream.isReset()) return;
        frames.sendData(NO_BYTES, 0, 0, true);
    }

    /**
     * Resets the stream unless both sides ended it: with {@code CANCEL} while the server's side is
     * open (the client must not take what it got for all there was), with {@code NO_ERROR} once
     * only the client's is, which tells it to stop sending (section 8.1). A read waiting on another
     * thread then ends.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) return;
        if (!stream.isResponseEnded()) {
            connection.reset(stream, Http2ErrorCode.CANCEL);
        } else if (!stream.remoteClosed()) {
            connection.reset(stream, Http2ErrorCode.NO_ERROR);
        }
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return connection.endpoint().remoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return connection.endpoint().localAddress();
    }

    @Override
    public TlsDetails tls() {
        return connection.endpoint().tls();
    }

    @Override
    public String scheme() {
        return connection.endpoint().scheme();
    }
}
