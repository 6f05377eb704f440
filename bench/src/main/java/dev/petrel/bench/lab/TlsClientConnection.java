package dev.petrel.bench.lab;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;

/**
 * The client side of TLS over one non-blocking {@link SocketChannel}, for {@link IdleClient}: it
 * takes the handshake as far as readiness allows, then wraps requests and unwraps responses. One
 * thread drives every connection, so the ciphertext going out and the plaintext coming in pass
 * through buffers the client shares ({@link Shared}); a connection keeps only the ciphertext of a
 * record not yet whole, and what the socket did not take at once (never, on loopback, in practice).
 */
final class TlsClientConnection {
    /** How far {@link #handshake} got. */
    enum Progress {
        /** The handshake is complete. */
        DONE,
        /** It waits for the server's bytes. */
        WANT_READ,
        /** It waits for room in the socket. */
        WANT_WRITE
    }

    /** The buffers every connection of one client uses in turn: one thread, one at a time. */
    static final class Shared {
        private final ByteBuffer netOut;
        private final ByteBuffer plainIn;

        Shared(SSLContext context) {
            SSLEngine probe = context.createSSLEngine();
            probe.setUseClientMode(true);
            this.netOut = ByteBuffer.allocate(probe.getSession().getPacketBufferSize());
            this.plainIn = ByteBuffer.allocate(probe.getSession().getApplicationBufferSize());
        }
    }

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final SSLEngine engine;
    private final Shared shared;
    private final ByteBuffer netIn; // ciphertext read and not unwrapped yet, from position to limit
    private ByteBuffer unsent;      // ciphertext the socket did not take yet, or null
    private boolean handshaken;

    /** A connection to {@code host}:{@code port} (names for the session cache) with {@code context}'s trust. */
    TlsClientConnection(SSLContext context, String host, int port, Shared shared) throws IOException {
        this.engine = context.createSSLEngine(host, port);
        this.engine.setUseClientMode(true);
        this.shared = shared;
        this.netIn = ByteBuffer.allocate(engine.getSession().getPacketBufferSize()).limit(0);
        this.engine.beginHandshake();
    }

    boolean handshaken() {
        return handshaken;
    }

    /** Takes the handshake as far as it goes without waiting. */
    Progress handshake(SocketChannel channel) throws IOException {
        if (!flush(channel)) return Progress.WANT_WRITE;
        while (true) {
            switch (engine.getHandshakeStatus()) {
                case NEED_TASK -> runTasks();
                case NEED_WRAP -> {
                    if (!wrapAndSend(channel, EMPTY)) return Progress.WANT_WRITE;
                }
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    shared.plainIn.clear(); // a handshake message carries no plaintext
                    SSLEngineResult r = engine.unwrap(netIn, shared.plainIn);
                    if (r.getStatus() == SSLEngineResult.Status.CLOSED) throw new EOFException("the server closed during the handshake");
                    if (r.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
                        int n = readMore(channel);
                        if (n < 0) throw new EOFException("the server closed during the handshake");
                        if (n == 0) return Progress.WANT_READ;
                    }
                }
                case FINISHED, NOT_HANDSHAKING -> {
                    handshaken = true;
                    return Progress.DONE;
                }
            }
        }
    }

    /** Wraps {@code plain} and writes it; false when some of it waits for room in the socket ({@link #flush}). */
    boolean send(SocketChannel channel, byte[] plain) throws IOException {
        return wrapAndSend(channel, ByteBuffer.wrap(plain));
    }

    /** Writes what the socket did not take before; whether all of it has gone. */
    boolean flush(SocketChannel channel) throws IOException {
        if (unsent == null) return true;
        channel.write(unsent);
        if (unsent.hasRemaining()) return false;
        unsent = null;
        return true;
    }

    /**
     * Reads what has arrived and unwraps it: the plaintext is in {@code shared}'s buffer, returned
     * ready to read; empty when no whole record has arrived. Post-handshake messages (a session
     * ticket) are taken in on the way.
     *
     * @return the plaintext, or null at the end of the stream (the server's close_notify or FIN)
     */
    ByteBuffer receive(SocketChannel channel) throws IOException {
        ByteBuffer plain = shared.plainIn.clear();
        boolean ended = readMore(channel) < 0;
        while (netIn.hasRemaining() && plain.hasRemaining()) {
            SSLEngineResult r = engine.unwrap(netIn, plain);
            if (r.getHandshakeStatus() == HandshakeStatus.NEED_TASK) runTasks();
            if (engine.getHandshakeStatus() == HandshakeStatus.NEED_WRAP) wrapAndSend(channel, EMPTY); // a KeyUpdate's answer
            if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
                ended = true;
                break;
            }
            if (r.getStatus() != SSLEngineResult.Status.OK) break; // underflow: the rest of a record is still on its way
        }
        plain.flip();
        return plain.hasRemaining() || !ended ? plain : null;
    }

    private boolean wrapAndSend(SocketChannel channel, ByteBuffer plain) throws IOException {
        ByteBuffer out = shared.netOut;
        do {
            out.clear();
            SSLEngineResult r = engine.wrap(plain, out);
            if (r.getStatus() != SSLEngineResult.Status.OK) throw new IOException("cannot wrap: " + r.getStatus());
            if (r.getHandshakeStatus() == HandshakeStatus.NEED_TASK) runTasks();
            out.flip();
            channel.write(out);
            if (out.hasRemaining()) {
                unsent = ByteBuffer.allocate(out.remaining()).put(out).flip(); // kept: the shared buffer is the next one's
                return false;
            }
        } while (plain.hasRemaining());
        return true;
    }

    /** Reads more ciphertext after what {@code netIn} holds; bytes read, 0 when none had arrived, -1 at the end. */
    private int readMore(SocketChannel channel) throws IOException {
        netIn.compact();
        try {
            return channel.read(netIn);
        } finally {
            netIn.flip();
        }
    }

    private void runTasks() {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) task.run();
    }
}
