package dev.petrel.tomcat;

import dev.petrel.server.TlsDetails;
import java.security.cert.X509Certificate;
import org.apache.tomcat.util.net.SSLSupport;

/**
 * What Catalina reads of a TLS connection ({@code jakarta.servlet.request.cipher_suite},
 * {@code key_size}, {@code ssl_session_id}, {@code X509Certificate}), from Petrel's handshake.
 */
record TlsDetailsSupport(TlsDetails tls) implements SSLSupport {
    @Override
    public String getCipherSuite() {
        return tls.cipherSuite();
    }

    @Override
    public X509Certificate[] getPeerCertificateChain() {
        return tls.clientCertificates().isEmpty() ? null : tls.clientCertificates().toArray(X509Certificate[]::new);
    }

    @Override
    public Integer getKeySize() {
        return tls.keySize() < 0 ? null : tls.keySize();
    }

    @Override
    public String getSessionId() {
        return tls.sessionId();
    }

    @Override
    public String getProtocol() {
        return tls.protocol();
    }

    /** Not kept by Petrel's handshake; Catalina leaves the attribute unset. */
    @Override
    public String getRequestedProtocols() {
        return null;
    }

    /** Not kept by Petrel's handshake; Catalina leaves the attribute unset. */
    @Override
    public String getRequestedCiphers() {
        return null;
    }
}
