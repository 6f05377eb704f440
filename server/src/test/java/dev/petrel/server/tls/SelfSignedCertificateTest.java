package dev.petrel.server.tls;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.config.TlsConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The localhost certificate for {@code serve --https}: made once with keytool, then reused. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SelfSignedCertificateTest {
    @TempDir
    Path home;

    @Test
    void createdOnceThenReused() throws Exception {
        Path dir = home.resolve(".petrel/tls");

        SelfSignedCertificate created = SelfSignedCertificate.obtain(dir);
        SelfSignedCertificate reused = SelfSignedCertificate.obtain(dir);

        assertThat(created.created()).isTrue();
        assertThat(reused.created()).isFalse();
        assertThat(reused.sha256Fingerprint()).isEqualTo(created.sha256Fingerprint()).matches("([0-9A-F]{2}:){31}[0-9A-F]{2}");
        assertThat(created.keyStore()).isEqualTo(dir.resolve("localhost.p12")).isRegularFile();
        assertThat(Files.getPosixFilePermissions(dir)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
        assertThat(dir.resolve("localhost.p12.new")).doesNotExist();
    }

    @Test
    void certificateIsForLocalhostByNameAndAddressForAYear() throws Exception {
        SelfSignedCertificate self = SelfSignedCertificate.obtain(home);
        X509Certificate certificate = self.certificate();

        List<String> altNames = certificate.getSubjectAlternativeNames().stream()
                .map(name -> name.get(0) + ":" + name.get(1)).toList();
        assertThat(altNames).containsExactlyInAnyOrder("2:localhost", "7:127.0.0.1", "7:0:0:0:0:0:0:0:1");
        assertThat(certificate.getPublicKey().getAlgorithm()).isEqualTo("EC");
        assertThat(certificate.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
        assertThat(self.notAfter()).isBetween(Instant.now().plus(Duration.ofDays(364)), Instant.now().plus(Duration.ofDays(366)));
    }

    @Test
    void pemCopyAndKeyStoreServeTheSameCertificate() throws Exception {
        SelfSignedCertificate self = SelfSignedCertificate.obtain(home);

        assertThat(PemFiles.readCertificates(self.certificateFile())).containsExactly(self.certificate());
        TlsContext context = TlsContextFactory.create(TlsConfig.builder().certificate(self.source()).build());
        MemoryHandshake.Result result = MemoryHandshake.run("localhost", context.newEngine());
        assertThat(result.serverCertificate()).isEqualTo(self.certificate());
        assertThat(context.certificates().getFirst().sha256Fingerprint()).isEqualTo(self.sha256Fingerprint());
    }

    @Test
    void certificateWithLessThan30DaysLeftIsReplaced() throws Exception {
        Tools.keytool(home, "-genkeypair", "-alias", "localhost", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=localhost", "-ext", "san=dns:localhost", "-validity", "10", "-storetype", "PKCS12",
                "-keystore", home.resolve("localhost.p12").toString(), "-storepass", SelfSignedCertificate.PASSWORD,
                "-keypass", SelfSignedCertificate.PASSWORD, "-noprompt");
        String old = ServerCertificate.sha256Fingerprint(
                TlsContextFactory.create(TlsConfig.pkcs12(home.resolve("localhost.p12"), SelfSignedCertificate.PASSWORD.toCharArray()))
                        .certificates().getFirst().certificate());

        SelfSignedCertificate renewed = SelfSignedCertificate.obtain(home);

        assertThat(renewed.created()).isTrue();
        assertThat(renewed.sha256Fingerprint()).isNotEqualTo(old);
        assertThat(renewed.notAfter()).isAfter(Instant.now().plus(Duration.ofDays(300)));
    }

    @Test
    void corruptKeyStoreIsReplaced() throws Exception {
        Files.writeString(home.resolve("localhost.p12"), "garbage");

        SelfSignedCertificate self = SelfSignedCertificate.obtain(home);

        assertThat(self.created()).isTrue();
        assertThat(TlsContextFactory.create(TlsConfig.builder().certificate(self.source()).build()).certificates()).hasSize(1);
    }

    @Test
    void unwritableDirectoryIsOneLine() throws Exception {
        Path file = home.resolve("a-file");
        Files.writeString(file, "x");

        PemFilesTest.assertOneLineError(() -> SelfSignedCertificate.obtain(file.resolve("tls")), "self-signed certificate");
    }
}
