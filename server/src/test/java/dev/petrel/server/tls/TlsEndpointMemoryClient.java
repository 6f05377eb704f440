package dev.petrel.server.tls;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLEngineResult.Status;

/**
 * The client side of a {@link TlsEndpointMemoryEndpoint}: a client-mode {@link SSLEngine}
 * driven by hand, written independently of {@link TlsEndpoint} so that the two do not share
 * mistakes. It feeds its records to the server's raw endpoint, optionally cut at random places,
 * and unwraps what the server wrote. Buffers here may grow: only the server's are under test.
 *
 * <p>One thread may {@linkplain #send send} while another {@linkplain #receive receives}: the
 * JDK's engine allows a wrap and an unwrap at the same time.
 */
final class TlsEndpointMemoryClient {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final SSLEngine engine;
    private final TlsEndpointMemoryEndpoint server;
    private final Random cuts;  // null: feed each wrap whole
    private ByteBuffer netIn;   // from the server, not unwrapped yet: position to limit
    private ByteBuffer appIn;   // unwrapped, not taken yet: position to limit
    private boolean closeNotifyReceived;

    TlsEndpointMemoryClient(SSLEngine engine, TlsEndpointMemoryEndpoint server, Random cuts) {
        this.engine = engine;
        this.server = server;
        this.cuts = cuts;
        this.netIn = ByteBuffer.allocate(engine.getSession().getPacketBufferSize()).limit(0);
        this.appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize()).limit(0);
    }

    SSLEngine engine() {
        return engine;
    }

    /** Runs the client's side of the handshake until the client engine is done. */
    void handshake() throws IOException, InterruptedException {
        engine.beginHandshake();
        while (true) {
            switch (engine.getHandshakeStatus()) {
                case NEED_WRAP -> feed(wrapOnce(ByteBuffer.allocate(0)));
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    if (unwrapOnce().getStatus() == Status.BUFFER_UNDERFLOW && !pull()) {
                        throw new EOFException("the server ended the handshake");
                    }
                }
                case NEED_TASK -> {
                    Runnable task;
                    while ((task = engine.getDelegatedTask()) != null) task.run();
                }
                case NOT_HANDSHAKING, FINISHED -> {
                    return;
                }
            }
        }
    }

    /** The records that carry {@code plain}, not sent. */
    byte[] wrap(byte[] plain) throws IOException {
        ByteBuffer src = ByteBuffer.wrap(plain);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        do {
            out.write(wrapOnce(src));
        } while (src.hasRemaining());
        return out.toByteArray();
    }

    /** Wraps what the engine has to send with no data (a KeyUpdate, a ClientHello, close_notify). */
    byte[] wrapHandshake() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (engine.getHandshakeStatus() == HandshakeStatus.NEED_WRAP) {
            byte[] record = wrapOnce(ByteBuffer.allocate(0));
            if (record.length == 0) break;
            out.write(record);
        }
        return out.toByteArray();
    }

    /** Wraps and feeds {@code plain}. */
    void send(byte[] plain) throws IOException {
        feed(wrap(plain));
    }

    /** Sends close_notify. */
    void sendCloseNotify() throws IOException {
        engine.closeOutbound();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (!engine.isOutboundDone()) {
            byte[] record = wrapOnce(ByteBuffer.allocate(0));
            if (record.length == 0) break;
            out.write(record);
        }
        feed(out.toByteArray());
    }

    /** Feeds ciphertext to the server, cut into random pieces when the client cuts. */
    void feed(byte[] ciphertext) {
        if (cuts == null) {
            server.feed(ciphertext);
            return;
        }
        int off = 0;
        while (off < ciphertext.length) {
            int len = Math.min(ciphertext.length - off, 1 + cuts.nextInt(cuts.nextBoolean() ? 64 : 40_000));
            server.feed(ciphertext, off, len);
            off += len;
        }
    }

    /** Receives exactly {@code n} bytes of plaintext. */
    byte[] receive(int n) throws IOException, InterruptedException {
        byte[] out = new byte[n];
        int got = 0;
        while (got < n) {
            if (!appIn.hasRemaining()) {
                if (!fill()) throw new EOFException("end of stream after " + got + " of " + n + " bytes");
                continue;
            }
            int chunk = Math.min(n - got, appIn.remaining());
            appIn.get(out, got, chunk);
            got += chunk;
        }
        return out;
    }

    /**
     * Reads on until the server's output ends.
     *
     * @return true when it ended with close_notify, false when the stream just ended
     */
    boolean awaitEnd() throws IOException, InterruptedException {
        receiveAll();
        return closeNotifyReceived;
    }

    /** Receives plaintext until the server's output ends, with close_notify or not (see {@link #closeNotifyReceived()}). */
    byte[] receiveAll() throws IOException, InterruptedException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (fill()) {
            out.write(appIn.array(), appIn.position(), appIn.remaining());
            appIn.position(appIn.limit());
        }
        return out.toByteArray();
    }

    boolean closeNotifyReceived() {
        return closeNotifyReceived;
    }

    /** Unwraps until some plaintext is there; false at close_notify or the end of the stream. */
    private boolean fill() throws IOException, InterruptedException {
        while (!appIn.hasRemaining()) {
            if (closeNotifyReceived) return false;
            SSLEngineResult result = unwrapOnce();
            switch (result.getStatus()) {
                case CLOSED -> closeNotifyReceived = true;
                case BUFFER_UNDERFLOW -> {
                    if (!pull()) return false;
                }
                case BUFFER_OVERFLOW -> throw new IllegalStateException("client buffer too small");
                case OK -> {
                    Runnable task;
                    while ((task = engine.getDelegatedTask()) != null) task.run();
                }
            }
        }
        return true;
    }

    private SSLEngineResult unwrapOnce() throws IOException {
        appIn.compact();
        try {
            return engine.unwrap(netIn, appIn);
        } finally {
            appIn.flip();
        }
    }

    /** Appends what the server wrote; false when its output ended. */
    private boolean pull() throws IOException, InterruptedException {
        byte[] bytes = server.awaitWritten(WAIT);
        if (bytes.length == 0) return false;
        received(bytes);
        return true;
    }

    /** Ciphertext from the server that the test took from the raw endpoint itself. */
    void received(byte[] bytes) {
        netIn.compact();
        if (netIn.remaining() < bytes.length) {
            ByteBuffer bigger = ByteBuffer.allocate(netIn.position() + bytes.length);
            netIn.flip();
            bigger.put(netIn);
            netIn = bigger;
        }
        netIn.put(bytes).flip();
    }

    private byte[] wrapOnce(ByteBuffer src) throws IOException {
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        SSLEngineResult result = engine.wrap(src, out);
        if (result.getStatus() == Status.BUFFER_OVERFLOW) throw new IllegalStateException("client packet buffer too small");
        return Arrays.copyOf(out.array(), out.position());
    }
}
