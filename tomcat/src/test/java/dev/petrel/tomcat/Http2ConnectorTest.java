package dev.petrel.tomcat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.catalina.connector.Connector;
import org.apache.coyote.http2.Http2Protocol;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * HTTP/2 through Petrel's connector, turned on as on Tomcat's by
 * {@code <UpgradeProtocol className="org.apache.coyote.http2.Http2Protocol"/>}: {@code h2} by ALPN
 * over TLS on both engines and {@code h2c} with prior knowledge on a plain port, each stream a
 * Catalina request; the element's attributes mapped to Petrel's settings or named in a warning.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Http2ConnectorTest {
    /** Answers the protocol and scheme Catalina saw, and for a POST the body's length and SHA-256. */
    private static final class Protocol extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
            res.getWriter().print(req.getProtocol() + " " + req.getScheme());
        }

        @Override
        protected void doPost(HttpServletRequest req, HttpServletResponse res) throws IOException {
            byte[] body = req.getInputStream().readAllBytes();
            res.getWriter().print(req.getProtocol() + " " + body.length + " "
                    + ServletApplicationTest.sha256(new java.io.ByteArrayInputStream(body)));
        }
    }

    @TempDir
    static Path dir;
    private static SelfSignedCertificate certificate;

    @BeforeAll
    static void certificate() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/openssl")), "openssl is missing; install with: apt-get install -y openssl");
        certificate = SelfSignedCertificate.create(dir);
    }

    private static EmbeddedTomcat start(String transport, String tlsEngine, Http2Protocol http2) throws IOException {
        Connector connector = new Connector(new PetrelHttp11Protocol());
        connector.setProperty("transport", transport);
        if (tlsEngine != null) certificate.serveOn(connector, tlsEngine);
        if (http2 != null) connector.addUpgradeProtocol(http2);
        return EmbeddedTomcat.create(connector).servlet("/protocol", new Protocol()).start();
    }

    // Under the resource check this now and then left one engine and its record buffers after Tomcat's stop:
    // the stop's close, the h2 reader and the h2 writer left the endpoint at once, each found another's lock
    // taken, and none freed the engine (TlsEndpointMemoryTest.aCloseRacingAReaderAndAWriterFreesTheEngineExactlyOnce).
    @ParameterizedTest
    @CsvSource({"blocking,jsse", "nio,jsse", "blocking,native", "nio,native"})
    void h2ByAlpnOverTls(String transport, String engine) throws Exception {
        try (EmbeddedTomcat tomcat = start(transport, engine, new Http2Protocol())) {
            HttpClient client = HttpClient.newBuilder().sslContext(certificate.clientContext()).version(HttpClient.Version.HTTP_2)
                    .connectTimeout(Duration.ofSeconds(5)).build();
            URI uri = URI.create("https://127.0.0.1:" + tomcat.port() + "/protocol");
            HttpResponse<String> get = client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(get.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(get.body()).isEqualTo("HTTP/2.0 https");
            byte[] body = new byte[300_000];
            new Random(2).nextBytes(body);
            HttpResponse<String> post = client.send(HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(post.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(post.body()).isEqualTo("HTTP/2.0 300000 " + ServletApplicationTest.sha256(new java.io.ByteArrayInputStream(body)));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "virtual", "nio"})
    void h2cWithPriorKnowledgeAndHttp11OnThePlainPort(String transport) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/curl")), "curl is missing; install with: apt-get install -y curl");
        try (EmbeddedTomcat tomcat = start(transport, null, new Http2Protocol())) {
            String url = "http://127.0.0.1:" + tomcat.port() + "/protocol";
            assertThat(curl("--http2-prior-knowledge", url)).isEqualTo("HTTP/2.0 http");
            assertThat(curl("--http1.1", url)).isEqualTo("HTTP/1.1 http");
        }
    }

    @Test
    void withoutTheElementThePlainPortSpeaksOnlyHttp11() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/curl")), "curl is missing; install with: apt-get install -y curl");
        try (EmbeddedTomcat tomcat = start("nio", null, null)) {
            String url = "http://127.0.0.1:" + tomcat.port() + "/protocol";
            assertThat(curl("--http2-prior-knowledge", url)).doesNotContain("HTTP/2.0");
            assertThat(curl("--http1.1", url)).isEqualTo("HTTP/1.1 http");
        }
    }

    @Test
    void theElementsAttributesReachTheWire() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/nghttp")), "nghttp is missing; install with: apt-get install -y nghttp2-client");
        Http2Protocol http2 = new Http2Protocol();
        http2.setMaxConcurrentStreams(7);
        http2.setInitialWindowSize(100_000);
        try (EmbeddedTomcat tomcat = start("nio", null, http2)) {
            Process nghttp = new ProcessBuilder("nghttp", "-v", "-t", "10", "http://127.0.0.1:" + tomcat.port() + "/protocol")
                    .redirectErrorStream(true).start();
            String output = new String(nghttp.getInputStream().readAllBytes());
            assertThat(nghttp.waitFor()).as(output).isZero();
            assertThat(output).contains("SETTINGS_MAX_CONCURRENT_STREAMS(0x03):7", "SETTINGS_INITIAL_WINDOW_SIZE(0x04):100000",
                    "HTTP/2.0 http");
        }
    }

    @Test
    void attributesWithoutCounterpartAreNamed() {
        Http2Protocol http2 = new Http2Protocol();
        assertThat(Http2ProtocolSettings.of(http2, true).ignored()).as("Tomcat's defaults").isEmpty();
        http2.setMaxConcurrentStreams(7);
        http2.setInitialWindowSize(100_000);
        http2.setReadTimeout(1234);
        http2.setMaxHeaderCount(50);
        Http2ProtocolSettings settings = Http2ProtocolSettings.of(http2, false);
        assertThat(settings.config().maxConcurrentStreams()).isEqualTo(7);
        assertThat(settings.config().initialWindowSize()).isEqualTo(100_000);
        assertThat(settings.config().clearText()).as("h2c on a plain port").isTrue();
        assertThat(settings.ignored()).containsExactly("maxHeaderCount=\"50\"", "readTimeout=\"1234\"");
        assertThat(Http2ProtocolSettings.of(http2, true).config().clearText()).as("over TLS: h2 by ALPN only").isFalse();
    }

    private static String curl(String version, String url) throws IOException, InterruptedException {
        Process curl = new ProcessBuilder("curl", "-sS", "--max-time", "10", version, url).redirectErrorStream(true).start();
        String output = new String(curl.getInputStream().readAllBytes());
        curl.waitFor();
        return output;
    }
}
