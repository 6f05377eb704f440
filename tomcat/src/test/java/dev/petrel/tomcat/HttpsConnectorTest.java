package dev.petrel.tomcat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.catalina.connector.Connector;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * HTTPS configured the Tomcat way: {@code SSLEnabled="true"} and an {@code <SSLHostConfig>} with
 * a {@code <Certificate>} from PEM files or a PKCS#12 key store (made here by {@code openssl}), on
 * every transport; the servlet sees {@code https}, {@code isSecure()} and the TLS attributes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpsConnectorTest {
    @TempDir
    static Path dir;
    private static HttpClient client;

    @BeforeAll
    static void certificates() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/openssl")), "openssl is missing; install with: apt-get install -y openssl");
        run("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", "key.pem", "-out", "cert.pem");
        run("openssl", "pkcs12", "-export", "-in", "cert.pem", "-inkey", "key.pem", "-out", "store.p12", "-passout", "pass:s3cret");
        // a CA and a client certificate it signed, for certificateVerification
        run("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                "-subj", "/CN=Test CA", "-keyout", "ca.key", "-out", "ca.pem",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign");
        run("openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=alice",
                "-keyout", "alice.key", "-out", "alice.csr");
        run("openssl", "x509", "-req", "-in", "alice.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-days", "2", "-out", "alice.pem");
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(dir.resolve("cert.pem"))) {
            trust.setCertificateEntry("server", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, trustManagers.getTrustManagers(), null);
        client = HttpClient.newBuilder().sslContext(tls).version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor()).as(output).isZero();
    }

    private static EmbeddedTomcat start(String transport, String source) throws IOException {
        return start(transport, source, null);
    }

    private static EmbeddedTomcat start(String transport, String source, String verification) throws IOException {
        return start(transport, source, verification, null);
    }

    /**
     * With {@code verification} ("required", "optional"), client certificates signed by ca.pem are
     * asked for; with {@code sslImplementation}, Tomcat's attribute names the TLS implementation.
     */
    private static EmbeddedTomcat start(String transport, String source, String verification, String sslImplementation)
            throws IOException {
        Connector connector = new Connector(new PetrelHttp11Protocol());
        connector.setProperty("transport", transport);
        if (sslImplementation != null) connector.setProperty("sslImplementationName", sslImplementation);
        connector.setProperty("SSLEnabled", "true");
        connector.setScheme("https");
        connector.setSecure(true);
        SSLHostConfig host = new SSLHostConfig();
        SSLHostConfigCertificate certificate = new SSLHostConfigCertificate(host, SSLHostConfigCertificate.Type.EC);
        if (source.equals("pem")) {
            certificate.setCertificateFile(dir.resolve("cert.pem").toString());
            certificate.setCertificateKeyFile(dir.resolve("key.pem").toString());
        } else {
            certificate.setCertificateKeystoreFile(dir.resolve("store.p12").toString());
            certificate.setCertificateKeystorePassword("s3cret");
        }
        host.addCertificate(certificate);
        if (verification != null) {
            host.setCertificateVerification(verification);
            host.setCaCertificateFile(dir.resolve("ca.pem").toString());
        }
        connector.addSslHostConfig(host);
        return EmbeddedTomcat.create(connector).servlet("/tls", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
                res.getWriter().print(req.getScheme() + " " + req.isSecure() + " "
                        + req.getAttribute("jakarta.servlet.request.cipher_suite") + " "
                        + req.getAttribute("jakarta.servlet.request.key_size") + " "
                        + req.getAttribute("org.apache.tomcat.util.net.secure_protocol_version"));
            }
        }).servlet("/who", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
                java.security.cert.X509Certificate[] chain =
                        (java.security.cert.X509Certificate[]) req.getAttribute("jakarta.servlet.request.X509Certificate");
                res.getWriter().print(chain == null ? "anonymous" : chain[0].getSubjectX500Principal().getName());
            }
        }).start();
    }

    /** curl to /who, with alice's certificate or none. */
    private static Process curl(int port, boolean alice) throws IOException {
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of("curl", "-sS", "--max-time", "10",
                "--cacert", "cert.pem"));
        if (alice) command.addAll(java.util.List.of("--cert", "alice.pem", "--key", "alice.key"));
        command.add("https://127.0.0.1:" + port + "/who");
        return new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    }

    private static String output(Process process) throws Exception {
        String output = new String(process.getInputStream().readAllBytes());
        return process.waitFor() + " " + output;
    }

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "virtual", "nio"})
    void requiredClientCertificateReachesTheServlet(String transport) throws Exception {
        try (EmbeddedTomcat tomcat = start(transport, "pem", "required")) {
            assertThat(output(curl(tomcat.port(), true))).isEqualTo("0 CN=alice");
            assertThat(output(curl(tomcat.port(), false))).as("no certificate: refused").doesNotStartWith("0 ");
        }
        try (EmbeddedTomcat tomcat = start(transport, "pem", "optional")) {
            assertThat(output(curl(tomcat.port(), false))).isEqualTo("0 anonymous");
            assertThat(output(curl(tomcat.port(), true))).isEqualTo("0 CN=alice");
        }
    }

    @ParameterizedTest
    @CsvSource({"blocking,pem", "virtual,pem", "nio,pem", "blocking,pkcs12", "virtual,pkcs12", "nio,pkcs12"})
    void servletSeesTheTlsConnection(String transport, String source) throws Exception {
        try (EmbeddedTomcat tomcat = start(transport, source)) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                    URI.create("https://127.0.0.1:" + tomcat.port() + "/tls")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).matches("https true TLS_\\S+ (128|256) TLSv1\\.[23]");
            HttpResponse<String> jsp = client.send(HttpRequest.newBuilder(
                    URI.create("https://127.0.0.1:" + tomcat.port() + "/date.jsp")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(jsp.body()).contains("via https on port " + tomcat.port());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "virtual", "nio"})
    void tomcatsOpenSslImplementationNameChoosesTheNativeEngine(String transport) throws Exception {
        try (EmbeddedTomcat tomcat = start(transport, "pkcs12", "optional", "org.apache.tomcat.util.net.openssl.OpenSSLImplementation")) {
            PetrelHttp11Protocol protocol = (PetrelHttp11Protocol) tomcat.connector().getProtocolHandler();
            assertThat(protocol.getTlsEngine()).isEqualTo("native");
            assertThat(protocol.getTlsEngineInUse()).startsWith("BoringSSL");
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                    URI.create("https://127.0.0.1:" + tomcat.port() + "/tls")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.body()).matches("https true TLS_\\S+ (128|256) TLSv1\\.[23]");
            assertThat(output(curl(tomcat.port(), true))).isEqualTo("0 CN=alice");
            assertThat(output(curl(tomcat.port(), false))).isEqualTo("0 anonymous");
        }
        try (EmbeddedTomcat tomcat = start(transport, "pem", null, "org.apache.tomcat.util.net.jsse.JSSEImplementation")) {
            PetrelHttp11Protocol protocol = (PetrelHttp11Protocol) tomcat.connector().getProtocolHandler();
            assertThat(protocol.getTlsEngineInUse()).startsWith("JSSE");
        }
    }
}
