package dev.petrel.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.tomcat.PetrelHttp11Protocol;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.coyote.ProtocolHandler;
import org.apache.coyote.http11.Http11NioProtocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Spring Boot 4 with {@code petrel-spring-boot} on the class path: the embedded Tomcat serves on
 * Petrel's connector, {@code server.port}, {@code server.address}, {@code server.ssl.*} and
 * graceful shutdown still work, {@code petrel.transport} picks the transport, and
 * {@code petrel.enabled=false} gives Tomcat's own connector back.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PetrelAutoConfigurationTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private static ConfigurableApplicationContext run(String... properties) {
        String[] args = new String[properties.length + 2];
        args[0] = "--server.port=0";
        args[1] = "--server.address=127.0.0.1";
        for (int i = 0; i < properties.length; i++) args[i + 2] = "--" + properties[i];
        return SpringApplication.run(HelloApplication.class, args);
    }

    private static ProtocolHandler protocol(ConfigurableApplicationContext context) {
        return ((TomcatWebServer) ((WebServerApplicationContext) context).getWebServer()).getTomcat().getConnector()
                .getProtocolHandler();
    }

    private static int port(ConfigurableApplicationContext context) {
        return ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    private static HttpResponse<String> get(HttpClient client, String url) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** {@code server.http2.enabled=true}: Boot adds Tomcat's Http2Protocol, which turns on Petrel's h2c (curl, prior knowledge). */
    @Test
    void http2EnabledServesH2cWithPriorKnowledge() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/curl")), "curl is missing");
        try (ConfigurableApplicationContext context = run("server.http2.enabled=true")) {
            assertThat(protocol(context).findUpgradeProtocols()).hasSize(1);
            Process curl = new ProcessBuilder("curl", "-sS", "--max-time", "10", "--http2-prior-knowledge", "-o", "/dev/null",
                    "-w", "%{http_version} %{http_code}", "http://127.0.0.1:" + port(context) + "/").redirectErrorStream(true).start();
            String output = new String(curl.getInputStream().readAllBytes());
            assertThat(curl.waitFor()).as(output).isZero();
            assertThat(output).isEqualTo("2 200");
        }
    }

    @Test
    void servesThroughPetrelOnTheConfiguredAddress() throws Exception {
        try (ConfigurableApplicationContext context = run("petrel.transport=virtual")) {
            assertThat(protocol(context)).isInstanceOf(PetrelHttp11Protocol.class);
            PetrelHttp11Protocol petrel = (PetrelHttp11Protocol) protocol(context);
            assertThat(petrel.getTransport()).isEqualTo("virtual");
            assertThat(petrel.getAddress()).isEqualTo(InetAddress.getByName("127.0.0.1"));
            String base = "http://127.0.0.1:" + port(context);
            assertThat(get(CLIENT, base + "/").body()).isEqualTo("HelloWorld");
            HttpResponse<String> json = get(CLIENT, base + "/json");
            assertThat(json.headers().firstValue("Content-Type")).hasValue("application/json");
            assertThat(json.body()).isEqualTo("{\"message\":\"HelloWorld\",\"secure\":false}");
        }
    }

    @Test
    void switchedOffGivesTomcatsOwnConnector() throws Exception {
        try (ConfigurableApplicationContext context = run("petrel.enabled=false")) {
            assertThat(protocol(context)).isInstanceOf(Http11NioProtocol.class);
            assertThat(get(CLIENT, "http://127.0.0.1:" + port(context) + "/").body()).isEqualTo("HelloWorld");
        }
    }

    @Test
    void serverSslServesHttpsOnEitherTlsEngine(@TempDir Path dir) throws Exception {
        Process openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                "-nodes", "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1",
                "-keyout", "key.pem", "-out", "cert.pem").directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(openssl.getInputStream().readAllBytes());
        assertThat(openssl.waitFor()).as(output).isZero();
        for (String engine : new String[] {"jsse", "native"}) {
            try (ConfigurableApplicationContext context = run("server.ssl.certificate=file:" + dir.resolve("cert.pem"),
                    "server.ssl.certificate-private-key=file:" + dir.resolve("key.pem"), "petrel.transport=nio",
                    "petrel.tls-engine=" + engine)) {
                assertThat(protocol(context)).isInstanceOf(PetrelHttp11Protocol.class);
                assertThat(((PetrelHttp11Protocol) protocol(context)).getTlsEngineInUse())
                        .startsWith(engine.equals("native") ? "BoringSSL" : "JSSE");
                HttpResponse<String> json = get(trusting(dir.resolve("cert.pem")), "https://127.0.0.1:" + port(context) + "/json");
                assertThat(json.statusCode()).isEqualTo(200);
                assertThat(json.body()).isEqualTo("{\"message\":\"HelloWorld\",\"secure\":true}");
            }
        }
    }

    @Test
    void serverSslClientAuthAsksForClientCertificates(@TempDir Path dir) throws Exception {
        openssl(dir, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", "key.pem", "-out", "cert.pem");
        openssl(dir, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                "-subj", "/CN=Test CA", "-keyout", "ca.key", "-out", "ca.pem",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign");
        openssl(dir, "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=alice",
                "-keyout", "alice.key", "-out", "alice.csr");
        openssl(dir, "x509", "-req", "-in", "alice.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-days", "2", "-out", "alice.pem");
        try (ConfigurableApplicationContext context = run("server.ssl.certificate=file:" + dir.resolve("cert.pem"),
                "server.ssl.certificate-private-key=file:" + dir.resolve("key.pem"),
                "server.ssl.trust-certificate=file:" + dir.resolve("ca.pem"), "server.ssl.client-auth=need")) {
            String url = "https://127.0.0.1:" + port(context) + "/who";
            assertThat(curl(dir, "--cert", "alice.pem", "--key", "alice.key", url)).isEqualTo("0 CN=alice");
            assertThat(curl(dir, url)).as("no client certificate: refused").doesNotStartWith("0 ");
        }
    }

    private static void openssl(Path dir, String... args) throws Exception {
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of("openssl"));
        command.addAll(java.util.List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as(output).isZero();
    }

    /** curl's exit code and output, trusting the server's certificate. */
    private static String curl(Path dir, String... args) throws Exception {
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of("curl", "-sS", "--max-time", "10",
                "--cacert", "cert.pem"));
        command.addAll(java.util.List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        return p.waitFor() + " " + output;
    }

    @Test
    void gracefulShutdownLetsRequestsInFlightFinish() throws Exception {
        ConfigurableApplicationContext context = run("server.shutdown=graceful", "petrel.transport=blocking");
        String base = "http://127.0.0.1:" + port(context);
        CompletableFuture<HttpResponse<String>> slow = CLIENT.sendAsync(
                HttpRequest.newBuilder(URI.create(base + "/slow")).build(), HttpResponse.BodyHandlers.ofString());
        Thread.sleep(300); // the request is in the servlet
        long start = System.nanoTime();
        context.close();
        HttpResponse<String> response = slow.get(10, TimeUnit.SECONDS);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("finished");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("close waited for it").isGreaterThan(Duration.ofMillis(500));
    }

    private static HttpClient trusting(Path certificate) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(certificate)) {
            trust.setCertificateEntry("server", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, factory.getTrustManagers(), null);
        return HttpClient.newBuilder().sslContext(tls).version(HttpClient.Version.HTTP_1_1).build();
    }
}
