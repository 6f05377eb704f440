package dev.petrel.server.it;

import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.tls.SelfSignedCertificate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The certificate the integration suite serves HTTPS with: the same self-signed localhost
 * certificate {@code petrel serve --https} makes, made once per test run in a temporary folder,
 * and a client context that trusts exactly it.
 */
final class TestCertificate {
    private static TestCertificate instance;

    private final X509Certificate certificate;
    private final TlsConfig serverConfig;
    private final SSLContext clientContext;

    private TestCertificate(SelfSignedCertificate certificate) throws GeneralSecurityException, IOException {
        this.certificate = certificate.certificate();
        this.serverConfig = TlsConfig.builder().certificate(certificate.source()).build();
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry("petrel-localhost", certificate.certificate());
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        this.clientContext = SSLContext.getInstance("TLS");
        clientContext.init(null, trust.getTrustManagers(), null);
    }

    static synchronized TestCertificate get() {
        if (instance == null) {
            try {
                Path dir = Files.createTempDirectory("petrel-it-tls");
                instance = new TestCertificate(SelfSignedCertificate.obtain(dir));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }
        return instance;
    }

    /** The certificate in PEM, for a command-line client to trust. */
    String certificatePem() throws java.security.cert.CertificateEncodingException {
        return "-----BEGIN CERTIFICATE-----\n"
                + java.util.Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(certificate.getEncoded())
                + "\n-----END CERTIFICATE-----\n";
    }

    /** The certificate itself, to trust. */
    X509Certificate certificate() {
        return certificate;
    }

    /** What the server is built with. */
    TlsConfig serverConfig() {
        return serverConfig;
    }

    /** A client context trusting the certificate. */
    SSLContext clientContext() {
        return clientContext;
    }
}
