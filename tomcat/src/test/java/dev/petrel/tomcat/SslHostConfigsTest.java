package dev.petrel.tomcat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.petrel.server.config.CertificateSource;
import dev.petrel.server.config.TlsConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tomcat's {@code protocols} as Petrel takes them: TLS 1.1 and older, which Tomcat's
 * {@code protocols="all"} names, are left out with a warning, and a list of nothing but those
 * stops the connector with a line that says what to use instead. Hosts other than the default
 * become Petrel's SNI hosts, each with its certificates and client authentication.
 */
class SslHostConfigsTest {
    @TempDir
    static Path dir;

    @BeforeAll
    static void certificate() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/openssl")), "openssl is missing; install with: apt-get install -y openssl");
        Process openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                "-nodes", "-days", "2", "-subj", "/CN=localhost", "-keyout", "key.pem", "-out", "cert.pem")
                .directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(openssl.getInputStream().readAllBytes());
        assertThat(openssl.waitFor()).as(output).isZero();
    }

    private static SSLHostConfig hostWithProtocols(String protocols) {
        SSLHostConfig host = new SSLHostConfig();
        host.setProtocols(protocols);
        SSLHostConfigCertificate certificate = new SSLHostConfigCertificate(host, SSLHostConfigCertificate.Type.UNDEFINED);
        certificate.setCertificateFile(dir.resolve("cert.pem").toString());
        certificate.setCertificateKeyFile(dir.resolve("key.pem").toString());
        host.addCertificate(certificate);
        return host;
    }

    @Test
    void allIsTls13And12() {
        TlsConfig tls = SslHostConfigs.toTlsConfig(List.of(hostWithProtocols("all")), SslHostConfigs.DEFAULT_HOST, "https-test", null);
        assertThat(tls.protocols()).containsExactlyInAnyOrder("TLSv1.3", "TLSv1.2");
    }

    @Test
    void onlyDeprecatedVersionsStopTheConnectorWithTheVersionsToUse() {
        assertThatThrownBy(() -> SslHostConfigs.toTlsConfig(List.of(hostWithProtocols("TLSv1+TLSv1.1")), SslHostConfigs.DEFAULT_HOST, "https-test", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("https-test").hasMessageContaining("use TLSv1.2 and TLSv1.3");
    }

    @Test
    void everyOtherHostIsServedWithItsCertificatesAndClientAuthentication() {
        SSLHostConfig other = hostWithProtocols("TLSv1.2+TLSv1.3");
        other.setHostName("a.test");
        other.setCertificateVerification("required");
        other.setCaCertificateFile(dir.resolve("cert.pem").toString());

        TlsConfig tls = SslHostConfigs.toTlsConfig(List.of(hostWithProtocols("TLSv1.3"), other), SslHostConfigs.DEFAULT_HOST, "https-test", null);

        assertThat(tls.clientAuth()).isEqualTo(TlsConfig.ClientAuth.NONE);
        assertThat(tls.hosts()).singleElement().satisfies(host -> {
            assertThat(host.hostName()).isEqualTo("a.test");
            assertThat(host.clientAuth()).isEqualTo(TlsConfig.ClientAuth.REQUIRED);
            assertThat(host.trustedCertificates().file()).isEqualTo(dir.resolve("cert.pem"));
            assertThat(host.certificates()).containsExactly(new CertificateSource.Pem(dir.resolve("cert.pem"), dir.resolve("key.pem")));
        });
    }

    @Test
    void theConnectorsDefaultHostNameChoosesTheDefault() {
        SSLHostConfig named = hostWithProtocols("TLSv1.3");
        named.setHostName("main.test");

        assertThat(SslHostConfigs.toTlsConfig(List.of(named), "main.test", "https-test", null).hosts()).isEmpty();
        assertThatThrownBy(() -> SslHostConfigs.toTlsConfig(List.of(named), SslHostConfigs.DEFAULT_HOST, "https-test", null))
                .hasMessageContaining("needs an <SSLHostConfig> for the default host (_default_)");
    }
}
