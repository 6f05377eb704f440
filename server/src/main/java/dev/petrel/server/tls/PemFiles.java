package dev.petrel.server.tls;

import dev.petrel.server.config.TlsConfigException;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads the PEM files a TLS server is usually given: a certificate chain and a private key, as
 * written by OpenSSL, certbot, cert-manager or a CA's download page. Certificate and key may be in
 * one file; the reader of each takes the blocks it needs and skips the others.
 *
 * <table>
 *   <caption>Private key formats</caption>
 *   <tr><th>PEM label</th><th>Format</th><th>Handling</th></tr>
 *   <tr><td>{@code PRIVATE KEY}</td><td>PKCS#8: RSA, RSASSA-PSS, EC, Ed25519, Ed448</td><td>read as is</td></tr>
 *   <tr><td>{@code RSA PRIVATE KEY}</td><td>PKCS#1</td><td>wrapped into PKCS#8 ({@link Pkcs8#fromPkcs1})</td></tr>
 *   <tr><td>{@code EC PRIVATE KEY}</td><td>SEC1, named curve</td><td>wrapped into PKCS#8 ({@link Pkcs8#fromSec1})</td></tr>
 *   <tr><td>{@code ENCRYPTED PRIVATE KEY}, or {@code Proc-Type: 4,ENCRYPTED}</td><td>password protected</td><td>refused: a server
 *       restarted unattended has nobody to type the password</td></tr>
 * </table>
 *
 * <p>Not JDK 25's PEM API (JEP 470): it is a preview feature and would need {@code --enable-preview}.
 */
public final class PemFiles {
    private static final String CERTIFICATE = "CERTIFICATE";

    private PemFiles() {}

    /**
     * The certificates of a PEM file, in file order: the server's own certificate first, then the
     * intermediates that issued it.
     *
     * @throws TlsConfigException when the file cannot be read, is not PEM, holds no certificate or
     *         a certificate that does not parse
     */
    public static List<X509Certificate> readCertificates(Path file) throws TlsConfigException {
        String role = "certificate file";
        List<PemBlock> blocks = blocks(file, role);
        List<X509Certificate> chain = new ArrayList<>();
        CertificateFactory factory = certificateFactory();
        for (PemBlock block : blocks) {
            if (!block.label().equals(CERTIFICATE)) continue;
            try {
                chain.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(block.der())));
            } catch (CertificateException e) {
                throw new TlsConfigException(TlsFiles.describe(file, role) + ": certificate #" + (chain.size() + 1)
                        + " does not parse (" + e.getMessage() + ")", e);
            }
        }
        if (chain.isEmpty()) {
            throw new TlsConfigException(TlsFiles.describe(file, role) + ": no certificate in the file (found " + labels(blocks) + ")");
        }
        return List.copyOf(chain);
    }

    /**
     * The first private key of a PEM file.
     *
     * @throws TlsConfigException when the file cannot be read, is not PEM, holds no key, an
     *         encrypted key, or a key that does not parse
     */
    public static PrivateKey readPrivateKey(Path file) throws TlsConfigException {
        String role = "key file";
        List<PemBlock> blocks = blocks(file, role);
        for (PemBlock block : blocks) {
            if (block.label().equals("ENCRYPTED PRIVATE KEY") || (block.label().endsWith("PRIVATE KEY") && block.encrypted())) {
                throw new TlsConfigException(TlsFiles.describe(file, role)
                        + ": the private key is encrypted; give an unencrypted key (openssl pkey -in KEY -out PLAIN_KEY)");
            }
            try {
                byte[] pkcs8 = switch (block.label()) {
                    case "PRIVATE KEY" -> block.der();
                    case "RSA PRIVATE KEY" -> Pkcs8.fromPkcs1(block.der());
                    case "EC PRIVATE KEY" -> Pkcs8.fromSec1(block.der());
                    default -> null;
                };
                if (pkcs8 == null) continue;
                String algorithm = Pkcs8.algorithm(pkcs8);
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
            } catch (IllegalArgumentException | GeneralSecurityException e) {
                throw new TlsConfigException(TlsFiles.describe(file, role) + ": the " + block.label()
                        + " does not parse (" + e.getMessage() + ")", e);
            }
        }
        throw new TlsConfigException(TlsFiles.describe(file, role) + ": no private key in the file (found " + labels(blocks) + ")");
    }

    private static List<PemBlock> blocks(Path file, String role) throws TlsConfigException {
        byte[] bytes = TlsFiles.read(file, role);
        List<PemBlock> blocks;
        try {
            // ISO-8859-1 maps every byte, so a binary file is reported as "not PEM", not as a charset error
            blocks = PemBlock.parseAll(new String(bytes, StandardCharsets.ISO_8859_1));
        } catch (IllegalArgumentException e) {
            throw new TlsConfigException(TlsFiles.describe(file, role) + ": malformed PEM (" + e.getMessage() + ")", e);
        }
        if (blocks.isEmpty()) {
            // 0x30 starts a DER SEQUENCE: a DER certificate or key, or a PKCS#12 store
            String hint = bytes.length > 0 && bytes[0] == 0x30 ? " (binary DER or PKCS#12? convert it to PEM, or give a PKCS#12 file as such)" : "";
            throw new TlsConfigException(TlsFiles.describe(file, role) + ": not a PEM file, no -----BEGIN line" + hint);
        }
        return blocks;
    }

    private static String labels(List<PemBlock> blocks) {
        Set<String> labels = new LinkedHashSet<>();
        for (PemBlock block : blocks) labels.add(block.label());
        return String.join(", ", labels);
    }

    private static CertificateFactory certificateFactory() {
        try {
            return CertificateFactory.getInstance("X.509");
        } catch (CertificateException e) {
            throw new IllegalStateException("every JDK has an X.509 certificate factory", e);
        }
    }
}
