package dev.petrel.server.tls;

import static dev.petrel.server.tls.PemFilesTest.assertOneLineError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TlsConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checks at load: dates, key against certificate, PKCS#12 password, JDK support; each one line. */
class CertificateChecksTest {
    /** An ISO instant as {@link java.time.Instant#toString()} writes it. */
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z");

    @TempDir
    static Path dir;
    static Fixtures fixtures;
    static Fixtures.Pair a;
    static Fixtures.Pair b;

    @BeforeAll
    static void makeFixtures() throws Exception {
        assumeTrue(Tools.hasOpenssl(), "needs /usr/bin/openssl");
        fixtures = new Fixtures(dir);
        a = fixtures.selfSigned("a", "ec", "a.test");
        b = fixtures.selfSigned("b", "ec", "b.test");
    }

    @Test
    void expiredCertificateNamesFileAndDates() throws Exception {
        Fixtures.Pair expired = fixtures.datedFrom("expired", "-2y");

        assertOneLineError(() -> TlsContextFactory.create(expired.config()),
                "certificate file " + expired.certificate() + ": the certificate (CN=expired) expired on ");
        assertThat(message(expired.config())).containsPattern("valid from " + DATE + " to " + DATE);
    }

    @Test
    void notYetValidCertificate() throws Exception {
        Fixtures.Pair future = fixtures.datedFrom("future", "+1y");

        assertOneLineError(() -> TlsContextFactory.create(future.config()),
                "certificate file " + future.certificate() + ": the certificate (CN=future) is not valid until ");
    }

    @Test
    void keyOfAnotherCertificateIsRefused() {
        assertOneLineError(() -> TlsContextFactory.create(TlsConfig.pem(a.certificate(), b.key())),
                "key file " + b.key() + ": the private key does not match the certificate in " + a.certificate() + " (CN=a.test)");
    }

    @Test
    void rsaKeyWithEcCertificateIsRefused() throws Exception {
        Fixtures.Pair rsa = fixtures.selfSigned("rsa", "rsa", "rsa.test");

        assertOneLineError(() -> TlsContextFactory.create(TlsConfig.pem(a.certificate(), rsa.key())),
                "the key is RSA but the certificate in " + a.certificate() + " (CN=a.test) has an EC key");
    }

    @Test
    void chainInTheWrongOrderIsExplained() throws Exception {
        Path reversed = dir.resolve("reversed.crt");
        Files.writeString(reversed, Files.readString(b.certificate()) + Files.readString(a.certificate()));

        assertOneLineError(() -> TlsContextFactory.create(TlsConfig.pem(reversed, a.key())),
                "the key belongs to certificate #2 (CN=a.test) in " + reversed + "; the server's own certificate must come first");
    }

    @Test
    void pkcs12WithRightPasswordLoads() throws Exception {
        Path store = fixtures.pkcs12(a, "a.p12", "right");

        TlsContext context = TlsContextFactory.create(TlsConfig.pkcs12(store, "right".toCharArray()));

        assertThat(context.certificates()).singleElement().satisfies(c -> {
            assertThat(c.dnsNames()).containsExactly("a.test");
            assertThat(c.origin()).isEqualTo(store + " (alias 'server')");
        });
    }

    @Test
    void pkcs12WithEmptyPasswordLoads() throws Exception {
        Path store = fixtures.pkcs12(a, "a-empty.p12", "");

        TlsContext context = TlsContextFactory.create(TlsConfig.pkcs12(store, new char[0]));

        assertThat(context.certificates().getFirst().dnsNames()).containsExactly("a.test");
    }

    @Test
    void pkcs12WithWrongPassword() throws Exception {
        Path store = fixtures.pkcs12(a, "a-wrong.p12", "right");

        assertOneLineError(() -> TlsContextFactory.create(TlsConfig.pkcs12(store, "wrong".toCharArray())),
                "PKCS#12 file " + store + ": wrong password");
    }

    @Test
    void pemGivenAsPkcs12AndGarbageAsPkcs12() throws Exception {
        Path garbage = dir.resolve("garbage.p12");
        Files.write(garbage, new byte[] {1, 2, 3, 4, 5});

        assertOneLineError(() -> TlsContextFactory.create(TlsConfig.pkcs12(a.certificate(), new char[0])),
                "PKCS#12 file " + a.certificate() + ": is a PEM file, not PKCS#12");
        assertOneLineError(() -> TlsContextFactory.create(TlsConfig.pkcs12(garbage, new char[0])),
                "PKCS#12 file " + garbage + ": not a PKCS#12 file");
    }

    @Test
    void expiredCertificateInPkcs12() throws Exception {
        Fixtures.Pair expired = fixtures.datedFrom("expired12", "-2y");

        assertOneLineError(() -> TlsContextFactory.create(TlsConfig.pkcs12(dir.resolve("expired12.p12"), "changeit".toCharArray())),
                "PKCS#12 file " + dir.resolve("expired12.p12") + " (alias 'expired12'): the certificate (CN=expired12) expired on ");
        assertThat(expired.certificate()).exists();
    }

    @Test
    void aProtocolOtherThanTls13And12IsRefusedNamingOnlyThose() {
        // the JDK knows SSLv3 to TLSv1.1 but has them disabled: a server given them would start and fail every handshake
        for (String protocol : List.of("SSLv3", "TLSv1", "TLSv1.1", "TLSv9")) {
            TlsConfig config = a.config().toBuilder().protocols("TLSv1.3", protocol).build();

            assertOneLineError(() -> TlsContextFactory.create(config), "TLS: protocol " + protocol
                    + " is not one Petrel serves: choose from TLSv1.3, TLSv1.2 (TLS 1.1 and older are deprecated, RFC 8996)");
        }
    }

    @Test
    void cipherSuitesTheJdkLacksAreLeftOutAndNoneLeftIsRefused() throws Exception {
        TlsConfig some = a.config().toBuilder().cipherSuites("TLS_MADE_UP", "TLS_AES_128_GCM_SHA256").build();
        TlsConfig none = a.config().toBuilder().cipherSuites("TLS_MADE_UP").build();

        assertThat(TlsContextFactory.create(some).newEngine().getEnabledCipherSuites()).containsExactly("TLS_AES_128_GCM_SHA256");
        assertOneLineError(() -> TlsContextFactory.create(none), "TLS: none of the cipher suites [TLS_MADE_UP] is supported by this JDK");
    }

    private static String message(TlsConfig config) {
        try {
            TlsContextFactory.create(config);
            throw new AssertionError("expected a TlsConfigException");
        } catch (TlsConfigException e) {
            return e.getMessage();
        }
    }
}
