package dev.petrel.server;

import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;

/**
 * What a request's client negotiated over TLS: with this server on an HTTPS port, or with the
 * front end that forwarded the request over AJP (then as the front end reported it).
 *
 * @param protocol the protocol version, e.g. {@code TLSv1.3}, or {@code null} when not reported
 * @param cipherSuite the cipher suite, e.g. {@code TLS_AES_128_GCM_SHA256}, or {@code null} when not reported
 * @param keySize the symmetric key size in bits, or -1 when not known
 * @param sessionId the session id as hex, or {@code null} when not reported
 * @param clientCertificates the client's certificate chain, the client's own first; empty when it sent none
 */
public record TlsDetails(String protocol, String cipherSuite, int keySize, String sessionId,
                         List<X509Certificate> clientCertificates) {
    /** Copies the certificate list. */
    public TlsDetails {
        clientCertificates = List.copyOf(Objects.requireNonNull(clientCertificates, "clientCertificates"));
    }

    /**
     * The key size a cipher suite name implies (128 for AES-128, 256 for AES-256 and ChaCha20),
     * or -1 when the name does not say.
     */
    public static int keySizeOf(String cipherSuite) {
        if (cipherSuite == null) return -1;
        if (cipherSuite.contains("AES_128")) return 128;
        if (cipherSuite.contains("AES_256") || cipherSuite.contains("CHACHA20")) return 256;
        return -1;
    }
}
