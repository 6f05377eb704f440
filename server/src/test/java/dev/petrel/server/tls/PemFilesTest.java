package dev.petrel.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TlsConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading PEM certificates and keys in every format OpenSSL writes, and the one-line refusals. */
class PemFilesTest {
    @TempDir
    static Path dir;
    static Fixtures fixtures;
    static Fixtures.Pair rsa;
    static Fixtures.Pair ec;

    @BeforeAll
    static void makeFixtures() throws Exception {
        assumeTrue(Tools.hasOpenssl(), "needs /usr/bin/openssl");
        fixtures = new Fixtures(dir);
        rsa = fixtures.selfSigned("rsa", "rsa", "rsa.test");
        ec = fixtures.selfSigned("ec", "ec", "ec.test");
    }

    @Test
    void rsaKeyInPkcs8AndPkcs1IsTheSameKey() throws Exception {
        assertThat(Files.readString(rsa.key())).startsWith("-----BEGIN PRIVATE KEY-----");
        Path pkcs1 = fixtures.traditional(rsa.key(), "rsa-pkcs1.key");
        assertThat(Files.readString(pkcs1)).startsWith("-----BEGIN RSA PRIVATE KEY-----");

        PrivateKey fromPkcs8 = PemFiles.readPrivateKey(rsa.key());
        PrivateKey fromPkcs1 = PemFiles.readPrivateKey(pkcs1);

        assertThat(fromPkcs8.getAlgorithm()).isEqualTo("RSA");
        assertThat(fromPkcs1).isEqualTo(fromPkcs8);
        assertThat(TlsContextFactory.create(TlsConfig.pem(rsa.certificate(), pkcs1)).certificates()).hasSize(1);
    }

    @Test
    void ecKeyInPkcs8AndSec1IsTheSameKey() throws Exception {
        Path sec1 = fixtures.traditional(ec.key(), "ec-sec1.key");
        assertThat(Files.readString(sec1)).startsWith("-----BEGIN EC PRIVATE KEY-----");

        ECPrivateKey fromPkcs8 = (ECPrivateKey) PemFiles.readPrivateKey(ec.key());
        ECPrivateKey fromSec1 = (ECPrivateKey) PemFiles.readPrivateKey(sec1);

        assertThat(fromSec1.getS()).isEqualTo(fromPkcs8.getS());
        assertThat(fromSec1.getParams().getCurve()).isEqualTo(fromPkcs8.getParams().getCurve());
        assertThat(fromSec1.getParams().getOrder()).isEqualTo(fromPkcs8.getParams().getOrder());
        assertThat(TlsContextFactory.create(TlsConfig.pem(ec.certificate(), sec1)).certificates()).hasSize(1);
    }

    @Test
    void ed25519KeyInPkcs8() throws Exception {
        Fixtures.Pair ed = fixtures.selfSigned("ed", "ed25519", "ed.test");

        PrivateKey key = PemFiles.readPrivateKey(ed.key());

        assertThat(key.getAlgorithm()).isEqualTo("EdDSA");
        assertThat(TlsContextFactory.create(ed.config()).certificates().getFirst().dnsNames()).containsExactly("ed.test");
    }

    @Test
    void chainWithIntermediateKeepsFileOrder() throws Exception {
        Fixtures.Pair chain = fixtures.chain("leaf.test");

        List<X509Certificate> certificates = PemFiles.readCertificates(chain.certificate());

        assertThat(certificates).extracting(c -> c.getSubjectX500Principal().getName())
                .containsExactly("CN=leaf.test", "CN=Test Intermediate");
        assertThat(TlsContextFactory.create(chain.config()).certificates().getFirst().chain()).hasSize(2);
    }

    @Test
    void certificateAndKeyMayShareOneFileWithTextAround() throws Exception {
        Path combined = dir.resolve("combined.pem");
        Files.writeString(combined, "Bag Attributes\n    friendlyName: server\n" + Files.readString(ec.key())
                + "subject=CN = ec.test\n" + Files.readString(ec.certificate()));

        TlsContext context = TlsContextFactory.create(TlsConfig.pem(combined, combined));

        assertThat(context.certificates().getFirst().dnsNames()).containsExactly("ec.test");
        assertThat(TlsConfig.pem(combined, combined).files()).containsExactly(combined);
    }

    @Test
    void encryptedPkcs8KeyIsRefused() throws Exception {
        Path encrypted = fixtures.encrypted(ec.key(), "ec-encrypted.key", false);
        assertThat(Files.readString(encrypted)).startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----");

        assertOneLineError(() -> PemFiles.readPrivateKey(encrypted), "key file " + encrypted + ": the private key is encrypted");
    }

    @Test
    void encryptedTraditionalKeyIsRefused() throws Exception {
        Path encrypted = fixtures.encrypted(rsa.key(), "rsa-encrypted.key", true);
        assertThat(Files.readString(encrypted)).contains("Proc-Type: 4,ENCRYPTED");

        assertOneLineError(() -> PemFiles.readPrivateKey(encrypted), "key file " + encrypted + ": the private key is encrypted");
    }

    @Test
    void garbageIsNotPem() throws Exception {
        Path garbage = dir.resolve("garbage.pem");
        Files.writeString(garbage, "this is not a certificate\n");

        assertOneLineError(() -> PemFiles.readCertificates(garbage), "certificate file " + garbage + ": not a PEM file");
        assertOneLineError(() -> PemFiles.readPrivateKey(garbage), "key file " + garbage + ": not a PEM file");
    }

    @Test
    void derCertificateGetsAHint() throws Exception {
        Path der = dir.resolve("ec.der");
        Tools.openssl(dir, "x509", "-in", ec.certificate().toString(), "-outform", "der", "-out", der.toString());

        assertOneLineError(() -> PemFiles.readCertificates(der), "not a PEM file, no -----BEGIN line (binary DER or PKCS#12?");
    }

    @Test
    void missingFile() {
        Path missing = dir.resolve("missing.pem");

        assertOneLineError(() -> PemFiles.readCertificates(missing), "certificate file " + missing + ": no such file");
        assertOneLineError(() -> TlsContextFactory.create(TlsConfig.pem(ec.certificate(), missing)), "key file " + missing + ": no such file");
    }

    @Test
    void unreadableFile() throws Exception {
        Path unreadable = dir.resolve("unreadable.key");
        Files.copy(ec.key(), unreadable);
        assumeTrue(unreadable.toFile().setReadable(false, false) && !Files.isReadable(unreadable), "running as a user who can read anything");

        assertOneLineError(() -> PemFiles.readPrivateKey(unreadable), "key file " + unreadable + ": permission denied");
    }

    @Test
    void keyFileGivenAsCertificateAndTheOtherWayRound() {
        assertOneLineError(() -> PemFiles.readCertificates(ec.key()), "no certificate in the file (found PRIVATE KEY)");
        assertOneLineError(() -> PemFiles.readPrivateKey(ec.certificate()), "no private key in the file (found CERTIFICATE)");
    }

    @Test
    void corruptBlockIsNamed() throws Exception {
        Path corrupt = dir.resolve("corrupt.crt");
        Files.writeString(corrupt, "-----BEGIN CERTIFICATE-----\nMIIBkzCCATmgAwIBAgIU\n-----END CERTIFICATE-----\n");

        assertOneLineError(() -> PemFiles.readCertificates(corrupt), "certificate file " + corrupt + ": certificate #1 does not parse");
    }

    static void assertOneLineError(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String expected) {
        assertThatThrownBy(call).isInstanceOf(TlsConfigException.class)
                .hasMessageContaining(expected)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
