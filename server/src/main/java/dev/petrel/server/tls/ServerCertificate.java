package dev.petrel.server.tls;


import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;

/**
 * One certificate the server can present, loaded and checked: its chain, the names it covers,
 * and where it came from. The private key stays inside the package.
 */
public final class ServerCertificate {
    private final String origin;
    private final List<X509Certificate> chain;
    private final PrivateKey privateKey;
    private final List<String> dnsNames;

    ServerCertificate(String origin, List<X509Certificate> chain, PrivateKey privateKey) {
        this.origin = origin;
        this.chain = List.copyOf(chain);
        this.privateKey = privateKey;
        this.dnsNames = HostNames.dnsNames(chain.getFirst());
    }

    /** Where it was read from, e.g. the certificate file, or a PKCS#12 file and alias. */
    public String origin() {
        return origin;
    }

    /** The chain sent to clients: this server's certificate first. */
    public List<X509Certificate> chain() {
        return chain;
    }

    /** This server's certificate. */
    public X509Certificate certificate() {
        return chain.getFirst();
    }

    /** The DNS names it covers, lower case; wildcards as {@code *.example.com}. */
    public List<String> dnsNames() {
        return dnsNames;
    }

    /** When it expires. */
    public Instant notAfter() {
        return certificate().getNotAfter().toInstant();
    }

    /** SHA-256 of the certificate, as {@code AB:CD:...}, the form browsers and keytool show. */
    public String sha256Fingerprint() {
        return sha256Fingerprint(certificate());
    }

    /** True when one of its names covers {@code host} (already normalized); {@code exact} leaves wildcards out. */
    boolean covers(String host, boolean exact) {
        for (String name : dnsNames) {
            if (exact ? name.equals(host) : HostNames.matches(name, host)) return true;
        }
        return false;
    }

    /** The key algorithm as JSSE names key types: RSA, RSASSA-PSS, EC or EdDSA. */
    String keyType() {
        return privateKey.getAlgorithm();
    }

    PrivateKey privateKey() {
        return privateKey;
    }

    /** SHA-256 of a certificate's encoding, colon-separated upper-case hex. */
    static String sha256Fingerprint(X509Certificate certificate) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
            return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
        } catch (NoSuchAlgorithmException | CertificateEncodingException e) {
            throw new IllegalStateException("cannot fingerprint a certificate that was parsed", e);
        }
    }

    /** What an operator sees of it. */
    public dev.petrel.server.CertificateInfo info() {
        return new dev.petrel.server.CertificateInfo(origin, dnsNames, notAfter(), sha256Fingerprint());
    }

    @Override
    public String toString() {
        return origin + " " + dnsNames + " until " + notAfter();
    }
}
