package dev.petrel.tomcat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.catalina.connector.Connector;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;

/**
 * A self-signed EC certificate for 127.0.0.1, made by {@code openssl} in a folder ({@code cert.pem},
 * {@code key.pem}): what a connector serves, and a client context that trusts it.
 */
record SelfSignedCertificate(Path certificate, Path key) {
    static SelfSignedCertificate create(Path dir) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                "-nodes", "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1",
                "-keyout", "key.pem", "-out", "cert.pem").directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor()).as(output).isZero();
        return new SelfSignedCertificate(dir.resolve("cert.pem"), dir.resolve("key.pem"));
    }

    /**
     * Turns on HTTPS on {@code connector} with this certificate, on Petrel's {@code engine} ("jsse" or
     * "native"), or with {@code engine} null on whichever the connector has (Tomcat's own: JSSE).
     */
    void serveOn(Connector connector, String engine) {
        if (engine != null) connector.setProperty("tlsEngine", engine);
        connector.setProperty("SSLEnabled", "true");
        connector.setScheme("https");
        connector.setSecure(true);
        SSLHostConfig host = new SSLHostConfig();
        SSLHostConfigCertificate entry = new SSLHostConfigCertificate(host, SSLHostConfigCertificate.Type.EC);
        entry.setCertificateFile(certificate.toString());
        entry.setCertificateKeyFile(key.toString());
        host.addCertificate(entry);
        connector.addSslHostConfig(host);
    }

    /** A client TLS context that trusts this certificate only. */
    SSLContext clientContext() throws IOException, GeneralSecurityException {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(certificate)) {
            trust.setCertificateEntry("server", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trustManagers.getTrustManagers(), null);
        return context;
    }
}
