package dev.petrel.server.engine;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * An in-memory {@link Endpoint} for engine tests: it hands the engine the scripted input at most
 * {@code bytesPerRead} bytes per read (1 exercises every split), then ends with EOF or with a
 * read timeout, and records everything written.
 */
final class ScriptedEndpoint implements Endpoint {
    enum End { EOF, TIMEOUT }

    private final byte[] input;
    private final int bytesPerRead;
    private final End end;
    private final ByteArrayOutputStream written = new ByteArrayOutputStream();
    private int position;
    private boolean outputShutdown;
    private boolean closed;

    ScriptedEndpoint(String input, int bytesPerRead, End end) {
        this.input = input.getBytes(StandardCharsets.ISO_8859_1);
        this.bytesPerRead = bytesPerRead;
        this.end = end;
    }

    @Override
    public int read(ByteBuffer dst, int timeoutMillis) throws SocketTimeoutException {
        if (closed) return -1;
        if (position == input.length) {
            if (end == End.TIMEOUT && !outputShutdown) throw new SocketTimeoutException("scripted timeout");
            return -1;
        }
        int n = Math.min(Math.min(bytesPerRead, dst.remaining()), input.length - position);
        dst.put(input, position, n);
        position += n;
        return n;
    }

    @Override
    public void write(byte[] src, int off, int len) {
        if (outputShutdown || closed) throw new IllegalStateException("write after close");
        written.write(src, off, len);
    }

    @Override
    public void shutdownOutput() {
        outputShutdown = true;
    }

    @Override
    public void close() {
        closed = true;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return new InetSocketAddress("127.0.0.1", 40000);
    }

    @Override
    public InetSocketAddress localAddress() {
        return new InetSocketAddress("127.0.0.1", 8080);
    }

    String output() {
        return written.toString(StandardCharsets.ISO_8859_1);
    }

    boolean closed() {
        return closed;
    }

    int unread() {
        return input.length - position;
    }
}
