package dev.petrel.server.tls;

import dev.petrel.server.engine.Endpoint;
import dev.petrel.server.engine.Protocol;
import dev.petrel.server.engine.ProtocolConnection;
import java.util.Objects;

/**
 * A protocol spoken over TLS: each accepted connection first completes a TLS handshake with the
 * context current when it was accepted, then the inner protocol serves it through a
 * {@link TlsEndpoint}, never knowing that its bytes were encrypted. A listener given this
 * instead of the plain protocol serves HTTPS on any transport.
 */
public final class TlsProtocol implements Protocol {
    private static final byte[] CLOSE_WITHOUT_A_WORD = new byte[0];

    private final Protocol inner;
    private final ReloadableTlsContext context;

    /**
     * Serves {@code inner} over TLS from {@code context}.
     *
     * @param inner the protocol spoken inside TLS
     * @param context the certificates and parameters; a reload applies to connections accepted after it
     */
    public TlsProtocol(Protocol inner, ReloadableTlsContext context) {
        this.inner = Objects.requireNonNull(inner, "inner");
        this.context = Objects.requireNonNull(context, "context");
    }

    @Override
    public ProtocolConnection open(Endpoint raw) {
        TlsContext current = context.current();
        return new TlsConnection(raw, current.newEngine(), inner, current.handshakeTimeout());
    }

    /**
     * Nothing: a turned-away client expects a TLS handshake, so a clear-text 503 would be noise
     * to it, and a handshake to send it an encrypted one costs the very CPU the server is short
     * of. The client sees the connection close during its handshake.
     */
    @Override
    public byte[] overloadAnswer() {
        return CLOSE_WITHOUT_A_WORD;
    }

    /** The inner protocol's answer; connections are already on the TLS port. */
    @Override
    public byte[] clearTextOnTlsPortAnswer() {
        return inner.clearTextOnTlsPortAnswer();
    }
}
