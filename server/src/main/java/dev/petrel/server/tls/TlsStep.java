package dev.petrel.server.tls;

import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.connection.SelectionStep;
import dev.petrel.server.engine.connection.SlotPool;
import dev.petrel.server.observe.ConnectorCounters;
import java.io.IOException;
import java.util.Objects;
import javax.net.ssl.SSLEngine;

/**
 * The TLS step of a selection chain: a handshake with the certificates current when the
 * connection was accepted, after which the rest of the chain and the protocol see the plaintext
 * through a {@link TlsEndpoint}, never knowing that it was encrypted, and the protocol the client
 * chose by ALPN. A client that speaks clear text to the port gets the protocol's clear-text answer
 * (for HTTP a {@code 400} saying to use {@code https://}).
 */
public final class TlsStep implements SelectionStep {
    private final ReloadableTlsContext context;
    private final byte[] clearTextAnswer;
    private final ConnectorCounters counters; // null: not counted
    // the record buffers of this listener's connections: made for the first connection's engine, and
    // made anew should a reload bring an engine with other sizes or kind
    private volatile TlsBufferPool recordBuffers;

    /**
     * TLS from {@code context} (a reload applies to connections accepted after it), answering
     * clear text with {@code clearTextAnswer} (empty: close without a word), counting handshakes in
     * {@code counters} (null: not counted).
     */
    public TlsStep(ReloadableTlsContext context, byte[] clearTextAnswer, ConnectorCounters counters) {
        this.context = Objects.requireNonNull(context, "context");
        this.clearTextAnswer = clearTextAnswer.clone();
        this.counters = counters;
    }

    /** The pool for record buffers of {@code size} bytes and {@code kind}; any race makes two pools, which is harmless. */
    private TlsBufferPool recordBuffers(int size, TlsEndpoint.Buffers kind) {
        TlsBufferPool pool = recordBuffers;
        if (pool == null || pool.bufferSize() != size || pool.kind() != kind) {
            pool = new TlsBufferPool(size, kind, SlotPool.capacityForProcessors());
            recordBuffers = pool;
        }
        return pool;
    }

    @Override
    public Endpoint apply(Endpoint raw) throws IOException {
        return new Handshake(raw).finish();
    }

    /** Yes: the handshake goes on as the client's flights arrive (see {@link TlsEndpoint#continueHandshake}). */
    @Override
    public boolean runsOnLoop() {
        return true;
    }

    @Override
    public OnLoop startOnLoop(Endpoint raw) {
        return new Handshake(raw);
    }

    /**
     * One connection's handshake, with the certificates current when it began. On an event loop
     * it goes as far as each flight allows, and the answer to the client's hello computes on the
     * {@link HandshakeLane} (see {@link TlsEndpoint#continueHandshake}): no thread waits for the
     * client, and the only hand-over is to the lane and back.
     */
    private final class Handshake implements OnLoop {
        private final Endpoint raw;
        private final TlsEndpoint tls;
        private final int timeoutMillis;

        Handshake(Endpoint raw) {
            this.raw = raw;
            TlsContext current = context.current();
            TlsEndpoint.Buffers buffers = current.engines().wantsDirectBuffers() ? TlsEndpoint.Buffers.DIRECT : TlsEndpoint.Buffers.HEAP;
            SSLEngine engine = current.newEngine();
            try {
                this.tls = new TlsEndpoint(raw, engine, current::release, HandshakeLane.shared(), buffers,
                        recordBuffers(engine.getSession().getPacketBufferSize(), buffers));
            } catch (OutOfMemoryError noRoomForRecords) { // native memory at -XX:MaxDirectMemorySize: the engine's own is freed now
                current.release(engine);
                throw noRoomForRecords;
            }
            this.timeoutMillis = (int) Math.clamp(current.handshakeTimeout().toMillis(), 1, Integer.MAX_VALUE);
        }

        @Override
        public Progress advance() throws IOException {
            try {
                return switch (tls.continueHandshake(timeoutMillis)) {
                    case DONE -> {
                        succeeded();
                        yield Progress.DONE;
                    }
                    case NEEDS_INPUT -> Progress.NEEDS_INPUT;
                    case COMPUTING -> Progress.NEEDS_WAKE;
                    case NEEDS_WORKER -> Progress.NEEDS_WORKER;
                };
            } catch (IOException | RuntimeException e) {
                failed(e);
                throw e;
            }
        }

        @Override
        public long deadline() {
            return tls.handshakeDeadline();
        }

        @Override
        public Endpoint endpoint() {
            return tls;
        }

        /** Closes the TLS endpoint, which frees the engine once no thread is inside it. */
        @Override
        public void abandon() {
            tls.close();
        }

        @Override
        public Endpoint finish() throws IOException {
            try {
                tls.handshake(timeoutMillis);
            } catch (IOException | RuntimeException e) {
                failed(e);
                throw e;
            }
            succeeded();
            return tls;
        }

        private void succeeded() {
            if (counters != null) counters.tlsHandshake(true);
        }

        /** Counts the failure, then answers or closes the connection. */
        private void failed(Exception e) {
            if (counters != null) counters.tlsHandshake(false);
            if (e instanceof TlsEndpoint.PlainHttpOnTlsPortException) {
                tls.discard(); // the raw endpoint carries the clear-text answer now; only the engine goes
                TlsEndpoint.rejectPlainHttp(raw, clearTextAnswer);
            } else {
                tls.close();
            }
        }
    }

    /**
     * No: a turned-away client expects a TLS handshake, so a clear-text 503 would be noise to it,
     * and a handshake to send it an encrypted one costs the very CPU the server is short of. The
     * client sees the connection close during its handshake.
     */
    @Override
    public boolean allowsClearTextOverloadAnswer() {
        return false;
    }
}
