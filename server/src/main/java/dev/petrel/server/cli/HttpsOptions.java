package dev.petrel.server.cli;

import dev.petrel.server.config.TlsConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The HTTPS part of {@code petrel serve}'s options, shared by every HTTPS listener.
 *
 * @param port the first HTTPS listener's port, named in the hint logged with a self-signed certificate
 * @param certificates certificate files with their keys, in the order given; empty for the
 *        self-signed localhost certificate
 * @param passwordFile file whose first line is the PKCS#12 password, or null
 * @param selfSignedDirectory where the self-signed certificate is kept
 * @param clientAuth whether clients are asked for a certificate
 * @param trust the certificates client certificates must chain to (PEM, or a PKCS#12 store whose
 *        password is in {@code PETREL_TLS_TRUST_PASSWORD}), or null for the JDK's trust store
 * @param protocols the TLS versions, or null for the default
 * @param cipherSuites the cipher suites, or null for the default
 * @param handshakeTimeout the handshake timeout, or null for the default
 * @param engine the TLS engine ({@code jsse}, {@code native}), or null for the default
 * @param ocspResponse the DER OCSP response to staple, or null for none
 */
record HttpsOptions(int port, List<CertificateFiles> certificates, Path passwordFile, Path selfSignedDirectory,
                    TlsConfig.ClientAuth clientAuth, Path trust, List<String> protocols, List<String> cipherSuites,
                    java.time.Duration handshakeTimeout, String engine, Path ocspResponse) {
    /** The environment variable holding the password of a {@code --tls-trust} store. */
    static final String TRUST_PASSWORD_VARIABLE = "PETREL_TLS_TRUST_PASSWORD";

    /** The HTTPS port when {@code --https} is given without {@code --https-port}. */
    static final int DEFAULT_PORT = 8443;

    HttpsOptions {
        certificates = List.copyOf(certificates);
    }

    /** Whether HTTPS uses the self-signed localhost certificate, made on first use. */
    boolean selfSigned() {
        return certificates.isEmpty();
    }

    /** The default folder of the self-signed certificate: {@code ~/.petrel/tls}. */
    static Path defaultSelfSignedDirectory() {
        return Path.of(System.getProperty("user.home"), ".petrel", "tls");
    }

    /**
     * One {@code --tls-cert} with its {@code --tls-key}: a PEM chain and PEM key, or a PKCS#12
     * file ({@code .p12}, {@code .pfx}) holding both, with no key file.
     *
     * @param certificate the certificate file
     * @param key the key file, or null for PKCS#12
     */
    record CertificateFiles(Path certificate, Path key) {
        /** Whether the certificate file is a PKCS#12 key store, by its name. */
        boolean pkcs12() {
            return isPkcs12(certificate);
        }

        static boolean isPkcs12(Path file) {
            String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
            return name.endsWith(".p12") || name.endsWith(".pfx");
        }
    }
}
