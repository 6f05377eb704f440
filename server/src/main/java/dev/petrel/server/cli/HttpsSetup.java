package dev.petrel.server.cli;

import dev.petrel.server.CertificateInfo;
import dev.petrel.server.Server;
import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TlsConfigException;
import dev.petrel.server.tls.SelfSignedCertificate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Turns {@code petrel serve}'s HTTPS options into a {@link TlsConfig} (making the self-signed
 * certificate when none is given, and saying where it is), and reloads on SIGHUP.
 */
final class HttpsSetup {
    /** Environment variable holding the PKCS#12 password when no file is given. */
    static final String PASSWORD_VARIABLE = "PETREL_TLS_PASSWORD";

    private HttpsSetup() {}

    /**
     * The TLS configuration for {@code options}.
     *
     * @throws TlsConfigException one line, when the self-signed certificate cannot be made or the
     *         password file cannot be read; the certificate files themselves are checked at start
     */
    static TlsConfig config(HttpsOptions options, System.Logger log) throws TlsConfigException {
        TlsConfig.Builder config = TlsConfig.builder();
        if (options.selfSigned()) {
            SelfSignedCertificate selfSigned = SelfSignedCertificate.obtain(options.selfSignedDirectory());
            log.log(System.Logger.Level.INFO, "HTTPS uses a self-signed certificate for localhost, {0} {1}: "
                            + "trust it with curl --cacert {1} https://localhost:{2}/ (SHA-256 fingerprint {3}, valid until {4})",
                    selfSigned.created() ? "made now in" : "kept in", selfSigned.certificateFile(),
                    String.valueOf(options.port()), selfSigned.sha256Fingerprint(), selfSigned.notAfter());
            return clientAuth(config.certificate(selfSigned.source()), options).build();
        }
        char[] password = null;
        for (HttpsOptions.CertificateFiles files : options.certificates()) {
            if (files.pkcs12()) {
                if (password == null) password = password(options.passwordFile());
                config.pkcs12(files.certificate(), password);
            } else {
                config.pem(files.certificate(), files.key());
            }
        }
        return clientAuth(config, options).build();
    }

    /** {@code --tls-protocols}, {@code --tls-ciphers}, {@code --tls-handshake-timeout}, {@code --tls-engine}, then client authentication. */
    private static TlsConfig.Builder clientAuth(TlsConfig.Builder config, HttpsOptions options) {
        if (options.protocols() != null) config.protocols(options.protocols().toArray(String[]::new));
        if (options.cipherSuites() != null) config.cipherSuites(options.cipherSuites().toArray(String[]::new));
        if (options.handshakeTimeout() != null) config.handshakeTimeout(options.handshakeTimeout());
        if (options.engine() != null) config.engine(options.engine());
        if (options.ocspResponse() != null) config.ocspResponse(options.ocspResponse());
        return clientAuthOnly(config, options);
    }

    /** {@code --tls-client-auth} and {@code --tls-trust}. */
    private static TlsConfig.Builder clientAuthOnly(TlsConfig.Builder config, HttpsOptions options) {
        if (options.clientAuth() == TlsConfig.ClientAuth.NONE) return config;
        if (options.trust() == null) return config.clientAuth(options.clientAuth());
        String password = System.getenv(HttpsOptions.TRUST_PASSWORD_VARIABLE);
        return config.clientAuth(options.clientAuth(),
                new TlsConfig.TrustedCertificates(options.trust(), password == null ? null : password.toCharArray()));
    }

    /** The PKCS#12 password: the file's first line, else the environment variable, else empty. */
    private static char[] password(Path file) throws TlsConfigException {
        if (file == null) {
            String variable = System.getenv(PASSWORD_VARIABLE);
            return variable != null ? variable.toCharArray() : new char[0];
        }
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return lines.isEmpty() ? new char[0] : lines.getFirst().toCharArray();
        } catch (IOException e) {
            throw new TlsConfigException(file + ": cannot read the password file (" + e.getMessage() + ")", e);
        }
    }

    /** On SIGHUP: reloads the certificates, logging the outcome in one line. */
    static void reload(Server server, System.Logger log) {
        try {
            List<CertificateInfo> certificates = server.reloadCertificates();
            log.log(System.Logger.Level.INFO, "reloaded the TLS certificates on SIGHUP: {0} certificate(s), the default valid until {1}",
                    String.valueOf(certificates.size()), certificates.getFirst().notAfter());
        } catch (TlsConfigException e) {
            log.log(System.Logger.Level.WARNING, "TLS certificates not reloaded on SIGHUP, the current ones stay: " + e.getMessage());
        }
    }
}
