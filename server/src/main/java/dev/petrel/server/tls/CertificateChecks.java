package dev.petrel.server.tls;

import dev.petrel.server.config.TlsConfigException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAKey;
import java.time.Instant;
import java.util.List;

/**
 * The checks made before a certificate is served, so that a mistake shows at start-up or reload
 * as one clear line instead of as handshake failures in every client: the key belongs to the
 * certificate, and every certificate of the chain is within its validity dates.
 */
final class CertificateChecks {
    private static final byte[] CHALLENGE = "petrel: does this key belong to this certificate?".getBytes(StandardCharsets.US_ASCII);

    private CertificateChecks() {}

    /**
     * Fails unless every certificate of the chain is valid at {@code now}.
     *
     * @param where how messages start, e.g. "certificate file /etc/petrel/cert.pem"
     */
    static void checkValidity(List<X509Certificate> chain, Instant now, String where) throws TlsConfigException {
        for (int i = 0; i < chain.size(); i++) {
            X509Certificate certificate = chain.get(i);
            Instant notBefore = certificate.getNotBefore().toInstant();
            Instant notAfter = certificate.getNotAfter().toInstant();
            String which = (i == 0 ? "the certificate" : "certificate #" + (i + 1)) + " (" + subject(certificate) + ")";
            String dates = " (valid from " + notBefore + " to " + notAfter + ")";
            if (now.isAfter(notAfter)) throw new TlsConfigException(where + ": " + which + " expired on " + notAfter + dates);
            if (now.isBefore(notBefore)) throw new TlsConfigException(where + ": " + which + " is not valid until " + notBefore + dates);
        }
    }

    /**
     * Fails unless {@code key} is the private key of the chain's first certificate; says so when
     * it belongs to a later one, the usual sign of a chain written in the wrong order.
     *
     * @param keyWhere how messages start, e.g. "key file /etc/petrel/key.pem"
     * @param certificateWhere the certificate's place, e.g. "/etc/petrel/cert.pem"
     */
    static void checkKeyMatches(PrivateKey key, List<X509Certificate> chain, String keyWhere, String certificateWhere)
            throws TlsConfigException {
        PublicKey publicKey = chain.getFirst().getPublicKey();
        if (!key.getAlgorithm().equals(publicKey.getAlgorithm())) {
            throw new TlsConfigException(keyWhere + ": the key is " + key.getAlgorithm() + " but the certificate in "
                    + certificateWhere + " (" + subject(chain.getFirst()) + ") has an " + publicKey.getAlgorithm() + " key");
        }
        if (belongTogether(key, publicKey)) return;
        for (int i = 1; i < chain.size(); i++) {
            if (belongTogether(key, chain.get(i).getPublicKey())) {
                throw new TlsConfigException(keyWhere + ": the key belongs to certificate #" + (i + 1) + " ("
                        + subject(chain.get(i)) + ") in " + certificateWhere + "; the server's own certificate must come first");
            }
        }
        throw new TlsConfigException(keyWhere + ": the private key does not match the certificate in " + certificateWhere
                + " (" + subject(chain.getFirst()) + ")");
    }

    /**
     * RSA keys are compared by modulus. For EC and EdDSA the JDK offers no way to derive the
     * public key from the private one, so the key signs a challenge and the certificate's key
     * verifies it.
     */
    private static boolean belongTogether(PrivateKey key, PublicKey publicKey) {
        if (key instanceof RSAKey rsa && publicKey instanceof RSAKey rsaPublic) {
            return rsa.getModulus().equals(rsaPublic.getModulus());
        }
        if (!key.getAlgorithm().equals(publicKey.getAlgorithm())) return false;
        String algorithm = switch (key.getAlgorithm()) {
            case "EC" -> "SHA256withECDSA";
            case "EdDSA", "Ed25519", "Ed448" -> "EdDSA";
            case "DSA" -> "SHA256withDSA";
            default -> null;
        };
        if (algorithm == null) return true; // no way to tell; the handshake will
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(CHALLENGE);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(publicKey);
            verifier.update(CHALLENGE);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            // keys of different curves, or one unusable for signing: they do not belong together
            return false;
        }
    }

    /** The subject, short enough for one line. */
    static String subject(X509Certificate certificate) {
        String subject = certificate.getSubjectX500Principal().getName();
        return subject.length() > 80 ? subject.substring(0, 77) + "..." : subject;
    }
}
