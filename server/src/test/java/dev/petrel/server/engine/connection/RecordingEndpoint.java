package dev.petrel.server.engine.connection;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The writing half of the in-memory endpoints for engine tests: records everything the engine
 * writes, and whether it shut the output down or closed. Subclasses decide how bytes are read.
 */
public abstract class RecordingEndpoint implements Endpoint {
    private final ByteArrayOutputStream written = new ByteArrayOutputStream();
    /** Set by {@link #shutdownOutput()}. */
    protected boolean outputShutdown;
    /** Set by {@link #close()}. */
    protected boolean closed;

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

    /** Everything written so far. */
    public String output() {
        return written.toString(StandardCharsets.ISO_8859_1);
    }

    /** Forgets what was written so far, to look at the next response alone. */
    public String takeOutput() {
        String out = output();
        written.reset();
        return out;
    }

    public boolean closed() {
        return closed;
    }
}
