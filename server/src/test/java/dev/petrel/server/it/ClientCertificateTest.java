package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.petrel.server.Handler;
import dev.petrel.server.Server;
import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TlsConfig.ClientAuth;
import dev.petrel.server.config.TlsConfig.TrustedCertificates;
import dev.petrel.server.config.TlsConfigException;
import dev.petrel.server.tls.Tools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutual TLS with a real client: curl with and without a certificate signed by the trusted CA,
 * and with one signed by nobody trusted, against a server that requires client certificates and
 * one that only asks; the handler sees the verified chain in {@code Request.tls()}. The trusted
 * certificates come as PEM or as a PKCS#12 trust store.
 */
class ClientCertificateTest {
    @TempDir
    static Path dir;

    /** Answers the subject of the client's certificate, or "none". */
    private static final Handler SUBJECT = (req, res) -> {
        List<X509Certificate> chain = req.tls() == null ? List.of() : req.tls().clientCertificates();
        res.send(chain.isEmpty() ? "none" : chain.get(0).getSubjectX500Principal().getName());
    };

    @BeforeAll
    static void certificates() throws Exception {
        assumeTrue(Tools.hasOpenssl(), "openssl is missing; install with: apt-get install -y openssl");
        Tools.openssl(dir, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                "-subj", "/CN=Petrel Test CA", "-keyout", "ca.key", "-out", "ca.pem",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign");
        Tools.openssl(dir, "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=alice",
                "-keyout", "alice.key", "-out", "alice.csr");
        Tools.openssl(dir, "x509", "-req", "-in", "alice.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-days", "2", "-out", "alice.pem");
        Tools.openssl(dir, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                "-subj", "/CN=mallory", "-keyout", "mallory.key", "-out", "mallory.pem");
        Tools.keytool(dir, "-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-keystore", "trust.p12",
                "-storetype", "PKCS12", "-storepass", "trust-pass");
        Files.writeString(dir.resolve("server.crt"), pem(TestCertificate.get().certificate()));
    }

    private static String pem(X509Certificate certificate) throws Exception {
        return "-----BEGIN CERTIFICATE-----\n"
                + java.util.Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(certificate.getEncoded())
                + "\n-----END CERTIFICATE-----\n";
    }

    private static Server start(Transport kind, ClientAuth mode, TrustedCertificates trusted) throws Exception {
        TlsConfig tls = TestCertificate.get().serverConfig().toBuilder().clientAuth(mode, trusted).build();
        return TestServers.builder(kind, TestServers.config().build(), SUBJECT).https(0, tls).start();
    }

    private static Tools.Result curl(Server server, String client) throws Exception {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "10", "--cacert",
                dir.resolve("server.crt").toString()));
        if (client != null) command.addAll(List.of("--cert", client + ".pem", "--key", client + ".key"));
        command.add("https://localhost:" + server.httpsAddress().getPort() + "/");
        return Tools.runAllowingFailure(dir, command, "");
    }

    private static TrustedCertificates pemCa() {
        return new TrustedCertificates(dir.resolve("ca.pem"), null);
    }

    @HttpsTransportTest
    void requiredLetsInOnlyClientsWithATrustedCertificate(Transport kind) throws Exception {
        try (Server server = start(kind, ClientAuth.REQUIRED, pemCa())) {
            Tools.Result alice = curl(server, "alice");
            assertThat(alice.exitCode()).as(alice.output()).isZero();
            assertThat(alice.output()).isEqualTo("CN=alice");
            Tools.Result anonymous = curl(server, null);
            assertThat(anonymous.exitCode()).as("no certificate: refused in the handshake").isNotZero();
            assertThat(anonymous.output()).doesNotContain("none");
            Tools.Result mallory = curl(server, "mallory");
            assertThat(mallory.exitCode()).as("a certificate nobody trusted signed: refused").isNotZero();
            assertThat(mallory.output()).doesNotContain("mallory");
        }
    }

    @HttpsTransportTest
    void optionalLetsInClientsWithoutOne(Transport kind) throws Exception {
        try (Server server = start(kind, ClientAuth.OPTIONAL, pemCa())) {
            assertThat(curl(server, null).output()).isEqualTo("none");
            assertThat(curl(server, "alice").output()).isEqualTo("CN=alice");
        }
    }

    @HttpsTransportTest
    void aPkcs12TrustStoreWorksAsPemDoes(Transport kind) throws Exception {
        try (Server server = start(kind, ClientAuth.REQUIRED,
                new TrustedCertificates(dir.resolve("trust.p12"), "trust-pass".toCharArray()))) {
            assertThat(curl(server, "alice").output()).isEqualTo("CN=alice");
        }
    }

    @HttpsTransportTest
    void aMissingOrWrongTrustFileFailsAtStartNamingIt(Transport kind) {
        assertThatThrownBy(() -> start(kind, ClientAuth.REQUIRED, new TrustedCertificates(dir.resolve("absent.pem"), null)))
                .hasRootCauseInstanceOf(java.nio.file.NoSuchFileException.class)
                .satisfies(e -> assertThat(causes(e)).anyMatch(c -> c instanceof TlsConfigException
                        && c.getMessage().contains("absent.pem")));
        assertThatThrownBy(() -> start(kind, ClientAuth.REQUIRED,
                new TrustedCertificates(dir.resolve("trust.p12"), "wrong".toCharArray())))
                .satisfies(e -> assertThat(causes(e)).anyMatch(c -> c instanceof TlsConfigException
                        && c.getMessage().contains("trust.p12") && c.getMessage().contains("password")));
    }

    private static List<Throwable> causes(Throwable e) {
        List<Throwable> all = new ArrayList<>();
        for (Throwable t = e; t != null && !all.contains(t); t = t.getCause()) all.add(t);
        return all;
    }
}
