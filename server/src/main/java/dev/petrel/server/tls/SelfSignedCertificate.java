package dev.petrel.server.tls;

import dev.petrel.server.config.CertificateSource;
import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TlsConfigException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for {@code localhost}, so that {@code petrel serve --https} works
 * without certificate files. Made on first use in a directory the caller chooses, reused while it
 * has at least 30 days left, then replaced.
 *
 * <table>
 *   <caption>What is made</caption>
 *   <tr><th>File</th><th>Contents</th></tr>
 *   <tr><td>{@code localhost.p12}</td><td>EC P-256 key and certificate, password {@value #PASSWORD}: the
 *       file is only as secret as its directory, so the password protects nothing and is fixed</td></tr>
 *   <tr><td>{@code localhost.crt}</td><td>the certificate in PEM, for a client to trust
 *       ({@code curl --cacert}, a browser's or the OS's trust store)</td></tr>
 * </table>
 *
 * Subject {@code CN=localhost}; SubjectAltNames DNS {@code localhost}, IP {@code 127.0.0.1} and
 * {@code ::1}; extended key usage serverAuth; valid one year.
 *
 * <p>The JDK has no public API to issue a certificate ({@code sun.security.x509} is internal and
 * closed by the module system), and writing the X.509 encoder by hand would be far more code to
 * get right than the PKCS#8 wrapping in {@link Pkcs8}. The JDK's own {@code keytool} does it in
 * one command, and it ships with every JDK that runs Petrel, so it is run as a subprocess.
 */
public final class SelfSignedCertificate {
    /** The PKCS#12 password; see the class comment for why it is fixed. */
    static final String PASSWORD = "petrel-localhost";
    static final String KEY_STORE_NAME = "localhost.p12";
    static final String CERTIFICATE_NAME = "localhost.crt";
    /** A certificate with less left than this is replaced, so that it never expires while in use. */
    static final Duration MIN_REMAINING = Duration.ofDays(30);
    private static final int VALIDITY_DAYS = 365;
    private static final Duration KEYTOOL_TIMEOUT = Duration.ofSeconds(60);
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.tls");

    private final Path keyStore;
    private final Path certificateFile;
    private final X509Certificate certificate;
    private final boolean created;

    private SelfSignedCertificate(Path keyStore, Path certificateFile, X509Certificate certificate, boolean created) {
        this.keyStore = keyStore;
        this.certificateFile = certificateFile;
        this.certificate = certificate;
        this.created = created;
    }

    /**
     * The localhost certificate in {@code directory}: the one there if it has 30 days or more
     * left, else a new one (the directory is created, owner-only where POSIX permissions exist).
     *
     * @param directory e.g. {@code ~/.petrel/tls}
     * @throws TlsConfigException one line, when the directory cannot be written or keytool fails
     */
    public static SelfSignedCertificate obtain(Path directory) throws TlsConfigException {
        Path keyStore = directory.resolve(KEY_STORE_NAME);
        Path certificateFile = directory.resolve(CERTIFICATE_NAME);
        X509Certificate existing = reusable(keyStore);
        if (existing != null) {
            if (!Files.isRegularFile(certificateFile)) writePem(existing, certificateFile);
            return new SelfSignedCertificate(keyStore, certificateFile, existing, false);
        }
        createDirectory(directory);
        Path temporary = directory.resolve(KEY_STORE_NAME + ".new");
        try {
            Files.deleteIfExists(temporary);
            runKeytool(temporary);
            X509Certificate certificate = read(temporary);
            // renamed into place only when complete, so a crash never leaves half a key store
            Files.move(temporary, keyStore, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            writePem(certificate, certificateFile);
            LOG.log(System.Logger.Level.INFO, () -> "created a self-signed certificate for localhost in " + keyStore);
            return new SelfSignedCertificate(keyStore, certificateFile, certificate, true);
        } catch (IOException | GeneralSecurityException e) {
            throw new TlsConfigException("self-signed certificate in " + directory + ": " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException e) {
                LOG.log(System.Logger.Level.DEBUG, "cannot delete " + temporary, e);
            }
        }
    }

    /** The PKCS#12 store holding key and certificate. */
    public Path keyStore() {
        return keyStore;
    }

    /** The certificate alone in PEM, for clients to trust. */
    public Path certificateFile() {
        return certificateFile;
    }

    /** The key store's password. */
    public char[] password() {
        return PASSWORD.toCharArray();
    }

    /** The certificate. */
    public X509Certificate certificate() {
        return certificate;
    }

    /** SHA-256 of the certificate as {@code AB:CD:...}, to compare with what a browser shows. */
    public String sha256Fingerprint() {
        return ServerCertificate.sha256Fingerprint(certificate);
    }

    /** When it expires. */
    public Instant notAfter() {
        return certificate.getNotAfter().toInstant();
    }

    /** True when this call made it, false when an existing one was reused. */
    public boolean created() {
        return created;
    }

    /** The key store as a certificate source for a {@link TlsConfig}. */
    public CertificateSource source() {
        return new CertificateSource.Pkcs12(keyStore, password());
    }

    /** The certificate in {@code keyStore} if it exists, reads, names localhost and has time left; else null. */
    private static X509Certificate reusable(Path keyStore) {
        if (!Files.isRegularFile(keyStore)) return null;
        try {
            X509Certificate certificate = read(keyStore);
            boolean fresh = certificate.getNotAfter().toInstant().isAfter(Instant.now().plus(MIN_REMAINING));
            boolean forLocalhost = HostNames.dnsNames(certificate).contains("localhost");
            if (fresh && forLocalhost) return certificate;
            LOG.log(System.Logger.Level.INFO, () -> "replacing the self-signed certificate in " + keyStore
                    + (fresh ? ": it is not for localhost" : ": it expires on " + certificate.getNotAfter().toInstant()));
        } catch (IOException | GeneralSecurityException e) {
            LOG.log(System.Logger.Level.WARNING, "replacing the unreadable self-signed certificate " + keyStore + ": " + e.getMessage());
        }
        return null;
    }

    private static X509Certificate read(Path keyStore) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStore)) {
            store.load(in, PASSWORD.toCharArray());
        }
        if (!(store.getCertificate("localhost") instanceof X509Certificate certificate) || !store.isKeyEntry("localhost")) {
            throw new GeneralSecurityException("no 'localhost' key entry in " + keyStore);
        }
        return certificate;
    }

    private static void createDirectory(Path directory) throws TlsConfigException {
        try {
            if (Files.isDirectory(directory)) return;
            if (directory.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                Path parent = directory.toAbsolutePath().getParent();
                if (parent != null) Files.createDirectories(parent);
                Files.createDirectory(directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectories(directory);
            }
        } catch (FileAlreadyExistsException e) {
            // made by another process meanwhile, or a file in the way: keytool will tell
        } catch (IOException e) {
            throw new TlsConfigException("self-signed certificate: cannot create the directory " + directory + " (" + e + ")", e);
        }
    }

    private static void runKeytool(Path keyStore) throws IOException, TlsConfigException {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", isWindows() ? "keytool.exe" : "keytool");
        if (!Files.isExecutable(keytool)) {
            throw new TlsConfigException("self-signed certificate: no keytool at " + keytool + " (a JRE without tools?)");
        }
        List<String> command = List.of(keytool.toString(), "-genkeypair",
                "-alias", "localhost",
                "-keyalg", "EC", "-groupname", "secp256r1", "-sigalg", "SHA256withECDSA",
                "-dname", "CN=localhost",
                "-ext", "san=dns:localhost,ip:127.0.0.1,ip:0:0:0:0:0:0:0:1",
                "-ext", "eku=serverAuth",
                "-validity", Integer.toString(VALIDITY_DAYS),
                "-storetype", "PKCS12", "-keystore", keyStore.toString(),
                "-storepass", PASSWORD, "-keypass", PASSWORD,
                "-noprompt");
        // output goes to a file, not a pipe: a pipe nobody reads while waiting could fill and stall keytool
        Path log = Files.createTempFile("petrel-keytool", ".log");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            process.getOutputStream().close(); // -noprompt: keytool asks nothing, and reads end of input if it tries
            try {
                if (!process.waitFor(KEYTOOL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                    throw new TlsConfigException("self-signed certificate: keytool did not finish in " + KEYTOOL_TIMEOUT.toSeconds() + " s");
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new TlsConfigException("self-signed certificate: interrupted while keytool ran", e);
            }
            if (process.exitValue() != 0 || !Files.isRegularFile(keyStore)) {
                String output = Files.readString(log, StandardCharsets.UTF_8).strip();
                String firstLine = output.isEmpty() ? "no output" : output.lines().findFirst().orElse("");
                throw new TlsConfigException("self-signed certificate: keytool failed with exit code " + process.exitValue() + ": " + firstLine);
            }
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static void writePem(X509Certificate certificate, Path file) throws TlsConfigException {
        try {
            String pem = "-----BEGIN CERTIFICATE-----\n"
                    + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(certificate.getEncoded())
                    + "\n-----END CERTIFICATE-----\n";
            Path temporary = file.resolveSibling(file.getFileName() + ".new");
            Files.writeString(temporary, pem, StandardCharsets.US_ASCII);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | GeneralSecurityException e) {
            throw new TlsConfigException("self-signed certificate: cannot write " + file + " (" + e.getMessage() + ")", e);
        }
    }

    private static boolean isWindows() {
        return System.getProperty("os.name", "").startsWith("Windows");
    }
}
