package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.petrel.server.Handler;
import dev.petrel.server.Server;
import dev.petrel.server.config.CertificateSource;
import dev.petrel.server.config.SniHost;
import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TlsConfig.ClientAuth;
import dev.petrel.server.config.TlsConfig.TrustedCertificates;
import dev.petrel.server.tls.Fixtures;
import dev.petrel.server.tls.Tools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hosts with TLS settings of their own on one port, with curl naming each by SNI: a.test serves its
 * certificate and requires a client certificate, b.test serves its own and asks for none, and any
 * other name gets the listener's default. curl checks the certificate against the one file it is
 * told to trust, so a request that succeeds got that host's certificate.
 */
class SniHostsTest {
    @TempDir
    static Path dir;
    static Fixtures.Pair a;
    static Fixtures.Pair b;

    private static final Handler SUBJECT = (req, res) -> {
        List<X509Certificate> chain = req.tls() == null ? List.of() : req.tls().clientCertificates();
        res.send(chain.isEmpty() ? "none" : chain.get(0).getSubjectX500Principal().getName());
    };

    @BeforeAll
    static void certificates() throws Exception {
        assumeTrue(Tools.hasOpenssl(), "openssl is missing; install with: apt-get install -y openssl");
        Fixtures fixtures = new Fixtures(dir);
        a = fixtures.selfSigned("a", "ec", "a.test");
        b = fixtures.selfSigned("b", "ec", "b.test");
        Tools.openssl(dir, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                "-subj", "/CN=Petrel Test CA", "-keyout", "ca.key", "-out", "ca.pem",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign");
        Tools.openssl(dir, "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=alice",
                "-keyout", "alice.key", "-out", "alice.csr");
        Tools.openssl(dir, "x509", "-req", "-in", "alice.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-days", "2", "-out", "alice.pem");
        Files.writeString(dir.resolve("default.crt"), TestCertificate.get().certificatePem());
    }

    private static Server start(Transport kind) throws Exception {
        TlsConfig tls = TestCertificate.get().serverConfig().toBuilder()
                .host(SniHost.of("a.test", new CertificateSource.Pem(a.certificate(), a.key()))
                        .withClientAuth(ClientAuth.REQUIRED, new TrustedCertificates(dir.resolve("ca.pem"), null)))
                .host(SniHost.of("B.TEST", new CertificateSource.Pem(b.certificate(), b.key())))
                .build();
        return TestServers.builder(kind, TestServers.config().build(), SUBJECT).https(0, tls).start();
    }

    /** curl naming {@code host} by SNI, trusting only {@code trusted}, with the client certificate {@code client} (null: none). */
    private static Tools.Result curl(Server server, String host, String trusted, String client) throws Exception {
        int port = server.httpsAddress().getPort();
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "10", "--resolve", host + ":" + port + ":127.0.0.1",
                "--cacert", trusted));
        if (client != null) command.addAll(List.of("--cert", client + ".pem", "--key", client + ".key"));
        command.add("https://" + host + ":" + port + "/");
        return Tools.runAllowingFailure(dir, command, "");
    }

    @HttpsTransportTest
    void eachHostServesItsOwnCertificate(Transport kind) throws Exception {
        try (Server server = start(kind)) {
            assertThat(curl(server, "b.test", "b.crt", null).output()).isEqualTo("none");
            Tools.Result bWithA = curl(server, "b.test", "a.crt", null);
            assertThat(bWithA.exitCode()).as("b.test must not be served a.test's certificate").isNotZero();
            assertThat(curl(server, "a.test", "a.crt", "alice").output()).isEqualTo("CN=alice");
            assertThat(curl(server, "localhost", "default.crt", null).output()).as("no host of that name: the default").isEqualTo("none");
        }
    }

    @HttpsTransportTest
    void clientAuthenticationIsEachHostsOwn(Transport kind) throws Exception {
        try (Server server = start(kind)) {
            Tools.Result anonymousOnA = curl(server, "a.test", "a.crt", null);
            assertThat(anonymousOnA.exitCode()).as("a.test requires a certificate: %s", anonymousOnA.output()).isNotZero();
            assertThat(anonymousOnA.output()).doesNotContain("none");
            // b.test asks for none: curl, which sends its certificate only when asked, sends none
            assertThat(curl(server, "b.test", "b.crt", "alice").output()).isEqualTo("none");
            assertThat(curl(server, "localhost", "default.crt", "alice").output()).isEqualTo("none");
        }
    }
}
