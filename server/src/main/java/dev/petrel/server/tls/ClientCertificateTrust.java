package dev.petrel.server.tls;

import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TlsConfigException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * The trust managers that check client certificates: the JDK's PKIX checks over the certificates
 * a {@link TlsConfig.TrustedCertificates} names (PEM certificates, or a PKCS#12 or JKS store), or
 * over the JDK's own trust store when none is named.
 */
final class ClientCertificateTrust {
    private ClientCertificateTrust() {}

    static TrustManager[] managers(TlsConfig.TrustedCertificates trusted) throws TlsConfigException {
        KeyStore store = trusted == null ? null : load(trusted);
        try {
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store); // null: the JDK's trust store (javax.net.ssl.trustStore, else cacerts)
            return factory.getTrustManagers();
        } catch (GeneralSecurityException e) {
            throw new TlsConfigException("TLS: cannot check client certificates (" + e.getMessage() + ")", e);
        }
    }

    private static KeyStore load(TlsConfig.TrustedCertificates trusted) throws TlsConfigException {
        String where = "TLS: trusted client certificates " + trusted.file();
        try {
            byte[] bytes = Files.readAllBytes(trusted.file());
            if (new String(bytes, 0, Math.min(bytes.length, 64), StandardCharsets.US_ASCII).contains("-----BEGIN")) {
                return pem(bytes, where);
            }
            // a store: KeyStore finds out whether it is PKCS#12 or JKS
            return KeyStore.getInstance(trusted.file().toFile(), trusted.password());
        } catch (IOException e) {
            throw new TlsConfigException(where + ": cannot be read (" + e.getMessage() + ")", e);
        } catch (GeneralSecurityException e) {
            throw new TlsConfigException(where + ": is neither PEM certificates nor a key store with that password ("
                    + e.getMessage() + ")", e);
        }
    }

    private static KeyStore pem(byte[] bytes, String where) throws GeneralSecurityException, IOException, TlsConfigException {
        Collection<? extends Certificate> certificates;
        try (InputStream in = new java.io.ByteArrayInputStream(bytes)) {
            certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
        }
        if (certificates.isEmpty()) throw new TlsConfigException(where + ": holds no certificate");
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        int i = 0;
        for (Certificate certificate : certificates) store.setCertificateEntry("trusted-" + i++, certificate);
        return store;
    }
}
