package dev.petrel.bench.lab;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The one certificate every server under test presents over HTTPS, so that the comparison is
 * fair: a self-signed EC P-256 certificate (SHA256withECDSA) for {@code localhost} and
 * {@code 127.0.0.1}, in the three forms the servers read. It is made with the lab JDK's
 * {@code keytool}, which every JDK ships (no openssl needed), in {@code bench/target/lab-tls/}, and
 * reused by later runs while it has more than a day left.
 *
 * <table>
 *   <caption>The files, as {@code servers/Hello} expects them (keep the two in step)</caption>
 *   <tr><th>File</th><th>Contents</th></tr>
 *   <tr><td>{@value #PKCS12}</td><td>key and certificate, password {@value #PASSWORD}</td></tr>
 *   <tr><td>{@value #CERT_PEM}</td><td>the certificate in PEM</td></tr>
 *   <tr><td>{@value #KEY_PEM}</td><td>the private key in PEM, unencrypted PKCS#8</td></tr>
 * </table>
 *
 * @param directory the folder holding the three files
 * @param certificate the certificate, for clients to trust
 */
record LabCertificate(Path directory, X509Certificate certificate) {
    static final String PKCS12 = "lab.p12";
    static final String CERT_PEM = "lab-cert.pem";
    static final String KEY_PEM = "lab-key.pem";
    /** Fixed: the files are a lab fixture on loopback, and every server must be able to open them. */
    static final String PASSWORD = "petrel-lab";
    static final String ALIAS = "lab";
    private static final int VALIDITY_DAYS = 30;
    private static final Duration MIN_REMAINING = Duration.ofDays(1);

    /** The lab certificate in {@code directory}: the one there if still good, else a new one. */
    static LabCertificate obtain(Path directory, Path keytool) throws IOException, InterruptedException {
        LabCertificate existing = reusable(directory);
        if (existing != null) return existing;
        Files.createDirectories(directory);
        for (String name : List.of(PKCS12, CERT_PEM, KEY_PEM)) Files.deleteIfExists(directory.resolve(name));
        List<String> command = List.of(keytool.toString(), "-genkeypair", "-alias", ALIAS,
                "-keyalg", "EC", "-groupname", "secp256r1", "-sigalg", "SHA256withECDSA",
                "-dname", "CN=localhost", "-ext", "san=dns:localhost,ip:127.0.0.1", "-ext", "eku=serverAuth",
                "-validity", Integer.toString(VALIDITY_DAYS),
                "-storetype", "PKCS12", "-keystore", directory.resolve(PKCS12).toString(),
                "-storepass", PASSWORD, "-keypass", PASSWORD, "-noprompt");
        CommandResult result = Commands.run(command, Duration.ofSeconds(60), directory.resolve("keytool.log"));
        if (!result.ok()) {
            throw new IOException("keytool could not make the lab certificate (see " + directory.resolve("keytool.log") + ")");
        }
        try {
            KeyStore store = load(directory.resolve(PKCS12));
            X509Certificate certificate = (X509Certificate) store.getCertificate(ALIAS);
            Key key = store.getKey(ALIAS, PASSWORD.toCharArray());
            // the JDK encodes a private key as PKCS#8, the PEM form every server here reads
            Files.writeString(directory.resolve(KEY_PEM), pem("PRIVATE KEY", ((PrivateKey) key).getEncoded()),
                    StandardCharsets.US_ASCII);
            Files.writeString(directory.resolve(CERT_PEM), pem("CERTIFICATE", certificate.getEncoded()),
                    StandardCharsets.US_ASCII);
            return new LabCertificate(directory, certificate);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot read the lab certificate keytool made: " + e.getMessage(), e);
        }
    }

    /** The certificate already in {@code directory}, or {@code null} when a file is missing, unreadable or nearly expired. */
    private static LabCertificate reusable(Path directory) {
        if (!Files.isRegularFile(directory.resolve(CERT_PEM)) || !Files.isRegularFile(directory.resolve(KEY_PEM))) return null;
        try {
            X509Certificate certificate = (X509Certificate) load(directory.resolve(PKCS12)).getCertificate(ALIAS);
            if (certificate == null) return null;
            if (certificate.getNotAfter().toInstant().isBefore(Instant.now().plus(MIN_REMAINING))) return null;
            return new LabCertificate(directory, certificate);
        } catch (IOException | GeneralSecurityException e) {
            return null; // made again
        }
    }

    private static KeyStore load(Path file) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, PASSWORD.toCharArray());
        }
        return store;
    }

    static String pem(String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
    }

    Path pkcs12() {
        return directory.resolve(PKCS12);
    }

    Path certificatePem() {
        return directory.resolve(CERT_PEM);
    }

    Path privateKeyPem() {
        return directory.resolve(KEY_PEM);
    }

    /** A client context that trusts this certificate only: the lab's own HTTPS readiness check uses it. */
    SSLContext clientContext() throws IOException {
        try {
            KeyStore trusted = KeyStore.getInstance("PKCS12");
            trusted.load(null, null);
            trusted.setCertificateEntry(ALIAS, certificate);
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot make a client TLS context for the lab certificate: " + e.getMessage(), e);
        }
    }
}
