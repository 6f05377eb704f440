package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Server;
import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.tls.Fixtures;
import dev.petrel.server.tls.Tools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real TLS clients against the HTTPS port on every transport: curl, and openssl s_client for
 * what curl does not show (versions refused, ALPN without a match, the certificate chosen by
 * SNI). Both trust exactly the test certificate; nothing is verified with {@code -k}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpsClientsTest {
    private static final String REQUEST = "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";

    @TempDir
    static Path dir;
    private static Path trusted; // the test certificate, PEM
    private static Fixtures.Pair other;

    @BeforeAll
    static void certificates() throws Exception {
        trusted = dir.resolve("localhost.crt");
        Files.writeString(trusted, TestCertificate.get().certificatePem());
        other = new Fixtures(dir).selfSigned("other", "ec", "other.test");
    }

    /** HTTPS only, with the localhost certificate as default and other.test's chosen by SNI. */
    private static Server start(Transport kind) throws Exception {
        return start(kind, TestServers.config().build());
    }

    private static Server start(Transport kind, dev.petrel.server.config.ServerConfig config) throws Exception {
        TlsConfig tls = TestCertificate.get().serverConfig().toBuilder().pem(other.certificate(), other.key()).build();
        return TestServers.builder(kind, config, TestApp.handler()).https(0, tls).start();
    }

    /** Whether this run serves TLS with BoringSSL (petrel-tls-native runs this suite so), not the JDK. */
    private static boolean nativeEngine() {
        return TestCertificate.get().serverConfig().engine().equals(TlsConfig.NATIVE);
    }

    private static Tools.Result curl(Server server, String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "10", "--cacert", trusted.toString()));
        command.addAll(List.of(options));
        command.add("https://localhost:" + server.httpsAddress().getPort() + "/");
        return Tools.runAllowingFailure(dir, command, "");
    }

    private static Tools.Result sClient(Server server, String input, String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of("timeout", "20", Tools.OPENSSL.toString(), "s_client",
                "-connect", "127.0.0.1:" + server.httpsAddress().getPort(), "-CAfile", trusted.toString(), "-ign_eof"));
        command.addAll(List.of(options));
        return Tools.runAllowingFailure(dir, command, input);
    }

    @HttpsTransportTest
    void curlGetsTheAnswerOverTls13AndTls12WithTheCertificateVerified(Transport kind) throws Exception {
        try (Server server = start(kind)) {
            Tools.Result tls13 = curl(server, "-w", " %{http_code} %{ssl_verify_result}", "--tlsv1.3");
            assertThat(tls13.output()).isEqualTo("HelloWorld 200 0");
            Tools.Result tls12 = curl(server, "-v", "--tls-max", "1.2");
            assertThat(tls12.exitCode()).as(tls12.output()).isZero();
            // curl offers h2 first, and HTTP/2 is on by default over TLS
            assertThat(tls12.output()).contains("SSL connection using TLSv1.2 / ECDHE-ECDSA-AES128-GCM-SHA256")
                    .contains("ALPN: server accepted h2").endsWith("HelloWorld");
            Tools.Result http11 = curl(server, "-v", "--http1.1");
            assertThat(http11.output()).contains("ALPN: server accepted http/1.1").endsWith("HelloWorld");
        }
    }

    @HttpsTransportTest
    void opensslNegotiatesTls13AndTls12AndIsRefusedTls11(Transport kind) throws Exception {
        try (Server server = start(kind)) {
            Tools.Result tls13 = sClient(server, REQUEST, "-tls1_3");
            // TLS 1.3 suites are all AEAD: the JDK answers in the server's order, BoringSSL takes the
            // client's first (OpenSSL's client offers AES-256 first), as Mozilla's profiles allow
            String tls13Suite = nativeEngine() ? "TLS_AES_256_GCM_SHA384" : "TLS_AES_128_GCM_SHA256";
            assertThat(tls13.output()).contains("New, TLSv1.3, Cipher is " + tls13Suite)
                    .contains("Verify return code: 0 (ok)").contains("\r\n\r\nHelloWorld");
            Tools.Result tls12 = sClient(server, REQUEST, "-tls1_2");
            assertThat(tls12.output()).contains("New, TLSv1.2, Cipher is ECDHE-ECDSA-AES128-GCM-SHA256").contains("HelloWorld");
            Tools.Result tls11 = sClient(server, REQUEST, "-tls1_1");
            assertThat(tls11.exitCode()).isNotZero();
            assertThat(tls11.output()).contains("alert protocol version").doesNotContain("HelloWorld");
            // a 1.2-only suite outside the AEAD list is refused too
            Tools.Result cbc = sClient(server, REQUEST, "-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-SHA");
            assertThat(cbc.exitCode()).isNotZero();
            assertThat(cbc.output()).contains("alert handshake failure");
        }
    }

    @HttpsTransportTest
    void onlyX25519P256AndP384AreOfferedForTheKeyExchange(Transport kind) throws Exception {
        try (Server server = start(kind)) {
            for (String group : List.of("X25519", "P-256", "P-384")) {
                Tools.Result accepted = sClient(server, REQUEST, "-tls1_3", "-groups", group);
                assertThat(accepted.output()).as(group).contains("HelloWorld");
            }
            for (String group : List.of("X448", "P-521", "ffdhe2048")) {
                Tools.Result refused = sClient(server, REQUEST, "-tls1_3", "-groups", group);
                assertThat(refused.exitCode()).as(group).isNotZero();
                assertThat(refused.output()).as(group).doesNotContain("HelloWorld");
            }
            Tools.Result tls12 = sClient(server, REQUEST, "-tls1_2", "-groups", "P-521");
            assertThat(tls12.exitCode()).isNotZero();
        }
    }

    @HttpsTransportTest
    void alpnSelectsH2FirstThenHttp11(Transport kind) throws Exception {
        try (Server server = start(kind)) {
            assertThat(sClient(server, "", "-alpn", "h2,http/1.1").output()).contains("ALPN protocol: h2");
            assertThat(sClient(server, REQUEST, "-alpn", "http/1.1").output()).contains("ALPN protocol: http/1.1").contains("HelloWorld");
        }
    }

    @HttpsTransportTest
    void withoutHttp2AlpnSelectsHttp11AndRefusesAClientOfferingOnlyH2(Transport kind) throws Exception {
        TlsConfig tls = TestCertificate.get().serverConfig().toBuilder().pem(other.certificate(), other.key()).build();
        try (Server server = TestServers.builder(kind, TestServers.config().build(), TestApp.handler())
                .http2(dev.petrel.server.config.Http2Config.DISABLED).https(0, tls).start()) {
            assertThat(sClient(server, REQUEST, "-alpn", "h2,http/1.1").output()).contains("ALPN protocol: http/1.1").contains("HelloWorld");
            Tools.Result h2Only = sClient(server, REQUEST, "-alpn", "h2");
            if (nativeEngine()) {
                // tcnative's ALPN callback cannot send the alert: the client gets no protocol and
                // keeps to HTTP/1.1, which is then what it is answered in
                assertThat(h2Only.output()).contains("No ALPN negotiated").contains("HelloWorld");
            } else {
                assertThat(h2Only.exitCode()).isNotZero();
                assertThat(h2Only.output()).contains("alert no application protocol").doesNotContain("HelloWorld");
            }
        }
    }

    @HttpsTransportTest
    void sniChoosesTheCertificateForTheNameAsked(Transport kind) throws Exception {
        try (Server server = start(kind)) {
            Tools.Result otherName = sClient(server, REQUEST, "-servername", "other.test", "-CAfile", other.certificate().toString());
            assertThat(otherName.output()).contains("subject=CN = other.test").contains("Verify return code: 0 (ok)").contains("HelloWorld");
            Tools.Result localhost = sClient(server, REQUEST, "-servername", "localhost");
            assertThat(localhost.output()).contains("subject=CN = localhost").contains("Verify return code: 0 (ok)");
            Tools.Result unknown = sClient(server, REQUEST, "-servername", "unknown.test");
            assertThat(unknown.output()).as("the default certificate for a name not served").contains("subject=CN = localhost");
        }
    }

    @HttpsTransportTest
    void aClientResumesItsSessionOverTls13AndTls12(Transport kind) throws Exception {
        try (Server server = start(kind)) {
            for (String version : List.of("-tls1_3", "-tls1_2")) {
                Path session = dir.resolve("session" + version + "-" + kind);
                Tools.Result first = sClient(server, REQUEST, version, "-sess_out", session.toString());
                assertThat(first.output()).as(version).contains("New, TLSv1.").contains("HelloWorld");
                Tools.Result again = sClient(server, REQUEST, version, "-sess_in", session.toString());
                assertThat(again.output()).as(version + ": resumed, no full handshake").contains("Reused, TLSv1.").contains("HelloWorld");
            }
        }
    }

    @HttpsTransportTest
    void aTls12RenegotiationIsRefused(Transport kind) throws Exception {
        // the JDK's client renegotiates on demand (s_client only from a terminal): a second handshake on TLS 1.2;
        // the server's timeouts are longer than the client's, so a refusal that never comes fails as a read timeout
        try (Server server = start(kind, TestServers.config().idleTimeout(java.time.Duration.ofSeconds(30))
                        .headerTimeout(java.time.Duration.ofSeconds(30)).build());
             javax.net.ssl.SSLSocket client = (javax.net.ssl.SSLSocket) TestCertificate.get().clientContext().getSocketFactory()
                     .createSocket("127.0.0.1", server.httpsAddress().getPort())) {
            client.setEnabledProtocols(new String[] {"TLSv1.2"});
            client.setSoTimeout(10_000);
            client.getOutputStream().write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            byte[] first = new byte[4096];
            assertThat(new String(first, 0, client.getInputStream().read(first), java.nio.charset.StandardCharsets.US_ASCII))
                    .startsWith("HTTP/1.1 200").endsWith("HelloWorld");
            String after;
            try {
                client.startHandshake(); // on TLS 1.2: a renegotiation
                client.getOutputStream().write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                after = "read " + client.getInputStream().read();
            } catch (java.io.IOException e) {
                after = e.getClass().getSimpleName(); // the JDK's client may report the refusal as an error
            }
            assertThat(after).as("the connection after a renegotiation").isIn("read -1", "SSLHandshakeException", "SSLException",
                    "SocketException", "EOFException");
        }
    }

    @HttpsTransportTest
    void curlSpeakingPlainHttpToTheHttpsPortIsToldToUseHttps(Transport kind) throws Exception {
        try (Server server = start(kind)) {
            Tools.Result plain = Tools.runAllowingFailure(dir, List.of("curl", "-sS", "--max-time", "10", "-w", " %{http_code}",
                    "http://127.0.0.1:" + server.httpsAddress().getPort() + "/"), "");
            assertThat(plain.output()).isEqualTo("This port speaks HTTPS; use https://\n 400");
        }
    }
}
