package dev.petrel.server.tls;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * Turns the two traditional OpenSSL key formats into PKCS#8 {@code PrivateKeyInfo}, the only
 * encoding the JDK's {@link java.security.KeyFactory} reads, and names the algorithm of a PKCS#8
 * key. The structures (RFC 5208 §5, RFC 8017 A.1.2, RFC 5915 §3):
 *
 * <pre>
 * PrivateKeyInfo ::= SEQUENCE { version INTEGER (0), algorithm AlgorithmIdentifier, privateKey OCTET STRING }
 * AlgorithmIdentifier ::= SEQUENCE { algorithm OBJECT IDENTIFIER, parameters ANY OPTIONAL }
 * RSAPrivateKey (PKCS#1) ::= SEQUENCE { version, modulus, publicExponent, privateExponent, ... }
 * ECPrivateKey (SEC1) ::= SEQUENCE { version INTEGER (1), privateKey OCTET STRING,
 *                                    parameters [0] ECParameters OPTIONAL, publicKey [1] BIT STRING OPTIONAL }
 * </pre>
 *
 * A PKCS#1 key goes whole into the OCTET STRING under {@code rsaEncryption} with NULL parameters.
 * A SEC1 key goes whole under {@code id-ecPublicKey} with its named-curve OID moved up as the
 * algorithm parameters, which is where PKCS#8 readers look for the curve.
 */
final class Pkcs8 {
    /** 1.2.840.113549.1.1.1 rsaEncryption, content bytes. */
    private static final byte[] RSA = HexFormat.of().parseHex("2a864886f70d010101");
    /** 1.2.840.113549.1.1.10 id-RSASSA-PSS. */
    private static final byte[] RSA_PSS = HexFormat.of().parseHex("2a864886f70d01010a");
    /** 1.2.840.10045.2.1 id-ecPublicKey. */
    private static final byte[] EC = HexFormat.of().parseHex("2a8648ce3d0201");
    /** 1.3.101.112 id-Ed25519. */
    private static final byte[] ED25519 = HexFormat.of().parseHex("2b6570");
    /** 1.3.101.113 id-Ed448. */
    private static final byte[] ED448 = HexFormat.of().parseHex("2b6571");

    private Pkcs8() {}

    /** PKCS#8 for a PKCS#1 {@code RSA PRIVATE KEY}. */
    static byte[] fromPkcs1(byte[] pkcs1) {
        Der.sequence(pkcs1).next(Der.INTEGER); // fails early on anything that is not a SEQUENCE
        byte[] algorithm = Der.sequence(Der.encode(Der.OID, RSA), Der.encode(Der.NULL, new byte[0]));
        return privateKeyInfo(algorithm, pkcs1);
    }

    /**
     * PKCS#8 for a SEC1 {@code EC PRIVATE KEY}.
     *
     * @throws IllegalArgumentException when the key does not name its curve: PKCS#8 needs it, and
     *         explicit curve parameters are refused by TLS anyway (RFC 8422 §5.1.1)
     */
    static byte[] fromSec1(byte[] sec1) {
        Der.Reader fields = Der.sequence(sec1);
        fields.next(Der.INTEGER);
        fields.next(Der.OCTET_STRING);
        byte[] curve = null;
        while (fields.hasMore()) {
            Der.Value field = fields.next();
            if (field.tag() == Der.CONTEXT_0) {
                Der.Value parameters = new Der.Reader(field.content()).next();
                if (parameters.tag() != Der.OID) {
                    throw new IllegalArgumentException("the EC key has explicit curve parameters, not a named curve");
                }
                curve = parameters.content();
            }
        }
        if (curve == null) throw new IllegalArgumentException("the EC key does not name its curve");
        byte[] algorithm = Der.sequence(Der.encode(Der.OID, EC), Der.encode(Der.OID, curve));
        return privateKeyInfo(algorithm, sec1);
    }

    /**
     * The {@link java.security.KeyFactory} algorithm for a PKCS#8 key: RSA, RSASSA-PSS, EC, Ed25519
     * or Ed448.
     *
     * @throws IllegalArgumentException for anything else, naming the OID
     */
    static String algorithm(byte[] pkcs8) {
        Der.Reader fields = Der.sequence(pkcs8);
        fields.next(Der.INTEGER);
        byte[] oid = new Der.Reader(fields.next(Der.SEQUENCE)).next(Der.OID);
        if (Arrays.equals(oid, RSA)) return "RSA";
        if (Arrays.equals(oid, RSA_PSS)) return "RSASSA-PSS";
        if (Arrays.equals(oid, EC)) return "EC";
        if (Arrays.equals(oid, ED25519)) return "Ed25519";
        if (Arrays.equals(oid, ED448)) return "Ed448";
        throw new IllegalArgumentException("unsupported key algorithm " + dotted(oid)
                + " (RSA, EC, Ed25519 and Ed448 are supported)");
    }

    private static byte[] privateKeyInfo(byte[] algorithmIdentifier, byte[] key) {
        return Der.sequence(Der.encode(Der.INTEGER, new byte[] {0}), algorithmIdentifier, Der.encode(Der.OCTET_STRING, key));
    }

    /** An OID's dotted form, for error messages. */
    static String dotted(byte[] oid) {
        if (oid.length == 0) return "(empty OID)";
        StringBuilder out = new StringBuilder();
        int first = oid[0] & 0xFF;
        out.append(Math.min(first / 40, 2)).append('.').append(first - 40 * Math.min(first / 40, 2));
        long arc = 0;
        for (int i = 1; i < oid.length; i++) {
            arc = (arc << 7) | (oid[i] & 0x7F);
            if ((oid[i] & 0x80) == 0) {
                out.append('.').append(arc);
                arc = 0;
            }
        }
        return out.toString();
    }
}
