package dev.petrel.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The DER wrapping, checked against keys the JDK itself makes. */
class Pkcs8Test {

    @Test
    void pkcs1WrappedIsTheJdksOwnPkcs8() throws Exception {
        var generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(1024);
        RSAPrivateCrtKey key = (RSAPrivateCrtKey) generator.generateKeyPair().getPrivate();
        byte[] pkcs8 = key.getEncoded();
        // the PKCS#1 key is the content of the PKCS#8 OCTET STRING, the last field
        Der.Reader fields = Der.sequence(pkcs8);
        fields.next(Der.INTEGER);
        fields.next(Der.SEQUENCE);
        byte[] pkcs1 = fields.next(Der.OCTET_STRING);

        byte[] wrapped = Pkcs8.fromPkcs1(pkcs1);

        assertThat(wrapped).isEqualTo(pkcs8);
        assertThat(Pkcs8.algorithm(wrapped)).isEqualTo("RSA");
        assertThat(KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(wrapped))).isEqualTo(key);
    }

    @Test
    void sec1WithoutCurveIsRefused() {
        // SEQUENCE { INTEGER 1, OCTET STRING 01 } : no [0] parameters
        byte[] sec1 = HexFormat.of().parseHex("3006020101040101");

        assertThatThrownBy(() -> Pkcs8.fromSec1(sec1)).hasMessage("the EC key does not name its curve");
    }

    @Test
    void unknownAlgorithmIsNamedByOid() {
        // PrivateKeyInfo with algorithm 1.3.101.110 (X25519, a key-agreement key)
        byte[] info = HexFormat.of().parseHex("302e020100300506032b656e04220420" + "00".repeat(32));

        assertThatThrownBy(() -> Pkcs8.algorithm(info)).hasMessageStartingWith("unsupported key algorithm 1.3.101.110");
    }

    @Test
    void longLengthsRoundTrip() {
        byte[] content = new byte[300];
        Arrays.fill(content, (byte) 7);

        byte[] encoded = Der.encode(Der.OCTET_STRING, content);

        assertThat(encoded).startsWith(0x04, 0x82, 0x01, 0x2c);
        assertThat(new Der.Reader(encoded).next(Der.OCTET_STRING)).isEqualTo(content);
        assertThat(Pkcs8.dotted(HexFormat.of().parseHex("2a864886f70d010101"))).isEqualTo("1.2.840.113549.1.1.1");
    }
}
