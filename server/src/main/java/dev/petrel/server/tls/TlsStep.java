package dev.petrel.server.tls;

import dev.petrel.server.engine.ConnectorCounters;
import dev.petrel.server.engine.Endpoint;
import dev.petrel.server.engine.SelectionStep;
import java.io.IOException;
import java.util.Objects;

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

    @Override
    public Endpoint apply(Endpoint raw) throws IOException {
        TlsContext current = context.current();
        TlsEndpoint tls = new TlsEndpoint(raw, current.newEngine(), current::release);
        try {
            tls.handshake((int) Math.clamp(current.handshakeTimeout().toMillis(), 1, Integer.MAX_VALUE));
            if (counters != null) counters.tlsHandshake(true);
            return tls;
        } catch (TlsEndpoint.PlainHttpOnTlsPortException e) {
            if (counters != null) counters.tlsHandshake(false);
            tls.discard(); // the raw endpoint carries the clear-text answer now; only the engine goes
            TlsEndpoint.rejectPlainHttp(raw, clearTextAnswer);
            throw e;
        } catch (IOException | RuntimeException e) {
            if (counters != null) counters.tlsHandshake(false);
            tls.close();
            throw e;
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
