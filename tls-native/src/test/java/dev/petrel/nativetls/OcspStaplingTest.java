package dev.petrel.nativetls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.server.Server;
import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TlsConfigException;
import dev.petrel.server.config.TransportKind;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * OCSP stapling on the native engine, seen by {@code openssl s_client -status}: a response made
 * offline by {@code openssl ocsp} (a CA, a leaf it signed, the CA answering for it) is stapled to
 * the handshakes that serve that leaf, and to no other; bad files and the JDK's engine are refused
 * at start in one line.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OcspStaplingTest {
    @TempDir
    static Path dir;

    @BeforeAll
    static void certificatesAndResponse() throws Exception {
        run("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                "-subj", "/CN=Petrel Test CA", "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign,digitalSignature", "-keyout", "ca.key", "-out", "ca.pem");
        for (String name : List.of("localhost", "other.test")) {
            run("openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=" + name,
                    "-keyout", name + ".key", "-out", name + ".csr");
            Files.writeString(dir.resolve(name + ".ext"), "subjectAltName=DNS:" + name + "\n");
            run("openssl", "x509", "-req", "-in", name + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                    "-days", "2", "-extfile", name + ".ext", "-out", name + ".pem");
        }
        // the CA's database, as openssl ocsp reads it: the leaf is valid (V)
        X509Certificate leaf = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(Files.readAllBytes(dir.resolve("localhost.pem"))));
        String expiry = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'").withZone(ZoneOffset.UTC).format(leaf.getNotAfter().toInstant());
        Files.writeString(dir.resolve("index.txt"), "V\t" + expiry + "\t\t" + leaf.getSerialNumber().toString(16).toUpperCase()
                + "\tunknown\t/CN=localhost\n");
        run("openssl", "ocsp", "-issuer", "ca.pem", "-cert", "localhost.pem", "-no_nonce", "-reqout", "request.der");
        run("openssl", "ocsp", "-index", "index.txt", "-rsigner", "ca.pem", "-rkey", "ca.key", "-CA", "ca.pem",
                "-reqin", "request.der", "-respout", "response.der", "-ndays", "1");
    }

    private static String run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(String.join(" ", command) + "\n" + output).isZero();
        return output;
    }

    private static TlsConfig.Builder config(String engine) {
        return TlsConfig.builder().pem(dir.resolve("localhost.pem"), dir.resolve("localhost.key"))
                .pem(dir.resolve("other.test.pem"), dir.resolve("other.test.key")).engine(engine);
    }

    private static String sClient(Server server, String name) throws Exception {
        List<String> command = new ArrayList<>(List.of("timeout", "20", "openssl", "s_client", "-connect",
                "127.0.0.1:" + server.httpsAddress().getPort(), "-servername", name, "-status", "-CAfile", "ca.pem", "-ign_eof"));
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        process.getOutputStream().write("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor(30, TimeUnit.SECONDS);
        return output;
    }

    @ParameterizedTest
    @EnumSource(TransportKind.class)
    void theResponseIsStapledForItsCertificateOnly(TransportKind transport) throws Exception {
        try (Server server = Server.builder().host("127.0.0.1").port(0).transport(transport).plainHttp(false)
                .https(0, config(TlsConfig.NATIVE).ocspResponse(dir.resolve("response.der")).build())
                .handler((request, response) -> response.send("HelloWorld")).shutdownGrace(Duration.ofSeconds(1)).start()) {
            String stapled = sClient(server, "localhost");
            assertThat(stapled).contains("OCSP Response Status: successful (0x0)").contains("Cert Status: good")
                    .contains("Verify return code: 0 (ok)").contains("HelloWorld");
            String other = sClient(server, "other.test");
            assertThat(other).contains("subject=CN = other.test").contains("OCSP response: no response sent").contains("HelloWorld");
        }
    }

    @Test
    void theJdkEngineRefusesAResponseFileInOneLine() {
        assertThatThrownBy(() -> Server.builder().host("127.0.0.1").port(0).plainHttp(false)
                .https(0, config(TlsConfig.JSSE).ocspResponse(dir.resolve("response.der")).build())
                .handler((request, response) -> response.send("x")).start())
                .isInstanceOf(TlsConfigException.class)
                .hasMessageStartingWith("TLS: the JDK's engine cannot staple an OCSP response from a file: use --tls-engine native")
                .hasMessageContaining("(-Djdk.tls.server.enableStatusRequestExtension=true)") // the JDK's switch for its own stapling
                .hasMessageNotContaining("\n");
    }

    @Test
    void aFileThatIsNoOcspResponseIsRefusedInOneLine() throws Exception {
        Path pem = dir.resolve("localhost.pem"); // a certificate, in PEM: not a response
        assertThatThrownBy(() -> Server.builder().host("127.0.0.1").port(0).plainHttp(false)
                .https(0, config(TlsConfig.NATIVE).ocspResponse(pem).build())
                .handler((request, response) -> response.send("x")).start())
                .isInstanceOf(TlsConfigException.class)
                .hasMessageStartingWith("TLS: OCSP response " + pem + ": not a DER OCSP response")
                .hasMessageNotContaining("\n");
    }
}
