package dev.petrel.bench.servers;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * The HTTPS half of the {@link Hello} contract: where a server under test listens for HTTPS and
 * the lab certificate it presents there. The lab asks for HTTPS with the system property
 * {@value #PROPERTY}, naming the folder the lab made the certificate in; each server reads
 * whichever form its own API takes (PEM or PKCS#12), so all present the same EC P-256 key.
 *
 * @param port the HTTPS port: the HTTP port plus one
 * @param certificatePem the certificate in PEM
 * @param privateKeyPem the private key in PEM, unencrypted PKCS#8
 * @param pkcs12 key and certificate in PKCS#12, protected by {@link #password()}
 */
record LabTls(int port, Path certificatePem, Path privateKeyPem, Path pkcs12) {
    /** The system property that asks for HTTPS; its value is the lab certificate's folder. */
    static final String PROPERTY = "petrel.bench.tls";
    // the names and password the lab's LabCertificate writes; keep the two in step
    private static final String PKCS12 = "lab.p12";
    private static final String CERT_PEM = "lab-cert.pem";
    private static final String KEY_PEM = "lab-key.pem";
    private static final String PASSWORD = "petrel-lab";
    /** The key's alias in the PKCS#12 file (Helidon asks for it). */
    static final String ALIAS = "lab";

    /** HTTPS for a server whose HTTP port is {@code httpPort}, or {@code null} when the lab did not ask for it. */
    static LabTls fromSystemProperty(int httpPort) {
        String folder = System.getProperty(PROPERTY);
        if (folder == null || folder.isBlank()) return null;
        if (httpPort >= 65535) throw new IllegalArgumentException("no port above " + httpPort + " for HTTPS");
        Path dir = Path.of(folder);
        return new LabTls(httpPort + 1, dir.resolve(CERT_PEM), dir.resolve(KEY_PEM), dir.resolve(PKCS12));
    }

    /** The PKCS#12 password (a new array each time: some APIs clear what they are given). */
    char[] password() {
        return PASSWORD.toCharArray();
    }

    /** The PKCS#12 file loaded. */
    KeyStore keyStore() {
        try (InputStream in = Files.newInputStream(pkcs12)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password());
            return store;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot read " + pkcs12 + ": " + e.getMessage(), e);
        }
    }

    /**
     * A JSSE server context with the JDK's defaults (protocols, cipher suites and their order),
     * for the servers whose API takes an {@link SSLContext}.
     */
    SSLContext sslContext() {
        try {
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(keyStore(), password());
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), null, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make a TLS context from " + pkcs12 + ": " + e.getMessage(), e);
        }
    }
}
