package dev.petrel.tomcat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.catalina.connector.Connector;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Three {@code <SSLHostConfig>}s on one connector, as Tomcat serves them: the default host
 * (localhost, PEM), {@code a.test} (its own PEM certificate, {@code certificateVerification="required"}
 * with a {@code caCertificateFile}) and {@code b.test} (its own PKCS#12 key store, no client
 * certificates). curl names each host by SNI and trusts only the certificate that host should
 * serve, so a request that gets through got that certificate; one trusting another host's fails.
 * On every transport, with the JDK's engine and BoringSSL.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SniHostsConnectorTest {
    @TempDir
    static Path dir;

    @BeforeAll
    static void certificates() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/openssl")), "openssl is missing; install with: apt-get install -y openssl");
        for (String host : List.of("localhost", "a.test", "b.test")) {
            run("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                    "-subj", "/CN=" + host, "-addext", "subjectAltName=DNS:" + host, "-keyout", host + ".key", "-out", host + ".pem");
        }
        run("openssl", "pkcs12", "-export", "-in", "b.test.pem", "-inkey", "b.test.key", "-out", "b.test.p12", "-passout", "pass:b-pass");
        run("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                "-subj", "/CN=Test CA", "-keyout", "ca.key", "-out", "ca.pem",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign");
        run("openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=alice",
                "-keyout", "alice.key", "-out", "alice.csr");
        run("openssl", "x509", "-req", "-in", "alice.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-days", "2", "-out", "alice.pem");
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor()).as(output).isZero();
    }

    private static SSLHostConfig pemHost(String hostName, String file) {
        SSLHostConfig host = new SSLHostConfig();
        host.setHostName(hostName);
        SSLHostConfigCertificate certificate = new SSLHostConfigCertificate(host, SSLHostConfigCertificate.Type.EC);
        certificate.setCertificateFile(dir.resolve(file + ".pem").toString());
        certificate.setCertificateKeyFile(dir.resolve(file + ".key").toString());
        host.addCertificate(certificate);
        return host;
    }

    private static EmbeddedTomcat start(String transport, String engine) throws IOException {
        Connector connector = new Connector(new PetrelHttp11Protocol());
        connector.setProperty("transport", transport);
        connector.setProperty("tlsEngine", engine);
        connector.setProperty("SSLEnabled", "true");
        connector.setScheme("https");
        connector.setSecure(true);
        connector.addSslHostConfig(pemHost("_default_", "localhost"));
        SSLHostConfig a = pemHost("a.test", "a.test");
        a.setCertificateVerification("required");
        a.setCaCertificateFile(dir.resolve("ca.pem").toString());
        connector.addSslHostConfig(a);
        SSLHostConfig b = new SSLHostConfig();
        b.setHostName("b.test");
        SSLHostConfigCertificate store = new SSLHostConfigCertificate(b, SSLHostConfigCertificate.Type.EC);
        store.setCertificateKeystoreFile(dir.resolve("b.test.p12").toString());
        store.setCertificateKeystorePassword("b-pass");
        b.addCertificate(store);
        connector.addSslHostConfig(b);
        return EmbeddedTomcat.create(connector).servlet("/who", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
                X509Certificate[] chain = (X509Certificate[]) req.getAttribute("jakarta.servlet.request.X509Certificate");
                res.getWriter().print(req.getServerName() + " " + (chain == null ? "anonymous" : chain[0].getSubjectX500Principal().getName()));
            }
        }).start();
    }

    /** curl naming {@code host} by SNI, trusting only {@code trusted}'s certificate, with alice's certificate or none: "exit output". */
    private static String curl(int port, String host, String trusted, boolean alice) throws Exception {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "10",
                "--resolve", host + ":" + port + ":127.0.0.1", "--cacert", trusted + ".pem"));
        if (alice) command.addAll(List.of("--cert", "alice.pem", "--key", "alice.key"));
        command.add("https://" + host + ":" + port + "/who");
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        return process.waitFor() + " " + output;
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"blocking,jsse", "virtual,jsse", "nio,jsse", "blocking,native", "virtual,native", "nio,native"})
    void eachHostServesItsCertificateAndAsksForClientCertificatesAsItSays(String transport, String engine) throws Exception {
        try (EmbeddedTomcat tomcat = start(transport, engine)) {
            int port = tomcat.port();
            PetrelHttp11Protocol protocol = (PetrelHttp11Protocol) tomcat.connector().getProtocolHandler();
            assertThat(protocol.getTlsEngineInUse()).startsWith(engine.equals("native") ? "BoringSSL" : "JSSE");

            assertThat(curl(port, "a.test", "a.test", true)).isEqualTo("0 a.test CN=alice");
            assertThat(curl(port, "a.test", "a.test", false)).as("a.test requires a client certificate").doesNotStartWith("0 ");
            // b.test does not ask: curl sends its certificate only when asked
            assertThat(curl(port, "b.test", "b.test", true)).isEqualTo("0 b.test anonymous");
            assertThat(curl(port, "b.test", "a.test", false)).as("b.test is not served a.test's certificate").doesNotStartWith("0 ");
            assertThat(curl(port, "localhost", "localhost", true)).as("the default host").isEqualTo("0 localhost anonymous");
        }
    }
}
