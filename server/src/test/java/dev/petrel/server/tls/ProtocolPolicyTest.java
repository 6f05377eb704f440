package dev.petrel.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.petrel.server.config.TlsConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What the server offers and refuses: protocols, cipher suites, ALPN; in memory and against openssl s_client. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProtocolPolicyTest {
    @TempDir
    static Path dir;
    static Fixtures.Pair a;
    static TlsContext context;

    @BeforeAll
    static void makeFixtures() throws Exception {
        assumeTrue(Tools.hasOpenssl(), "needs /usr/bin/openssl");
        a = new Fixtures(dir).selfSigned("a", "ec", "a.test");
        context = TlsContextFactory.create(a.config());
    }

    /** The JSSE side of the context: these tests look at the JDK's own parameters. */
    private static JsseEngines jsse() {
        return (JsseEngines) CountedEngines.unwrap(context.engines());
    }

    @Test
    void engineHasTheDefaults() {
        SSLEngine engine = context.newEngine();

        assertThat(engine.getUseClientMode()).isFalse();
        assertThat(engine.getEnabledProtocols()).containsExactly("TLSv1.3", "TLSv1.2");
        assertThat(engine.getEnabledCipherSuites()).containsExactlyElementsOf(TlsConfig.DEFAULT_CIPHER_SUITES);
        SSLParameters parameters = engine.getSSLParameters();
        assertThat(parameters.getUseCipherSuitesOrder()).isTrue();
        assertThat(parameters.getApplicationProtocols()).containsExactly("http/1.1");
        assertThat(parameters.getSNIMatchers()).isEmpty();
        assertThat(parameters.getNeedClientAuth()).isFalse();
        assertThat(parameters.getNamedGroups()).containsExactly("x25519", "secp256r1", "secp384r1");
        assertThat(context.handshakeTimeout()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void parametersAreACopyEachTime() {
        SSLParameters first = jsse().parameters();
        first.setProtocols(new String[] {"TLSv1.2"});

        assertThat(jsse().parameters().getProtocols()).containsExactly("TLSv1.3", "TLSv1.2");
        assertThat(context.newEngine().getEnabledProtocols()).containsExactly("TLSv1.3", "TLSv1.2");
    }

    @Test
    void tls13NegotiatesHttp11() throws Exception {
        MemoryHandshake.Result result = MemoryHandshake.run("a.test", context.newEngine());

        assertThat(result.clientSession().getProtocol()).isEqualTo("TLSv1.3");
        assertThat(result.applicationProtocol()).isEqualTo("http/1.1");
    }

    @Test
    void tls12UsesTheServersFirstSuite() throws Exception {
        SSLEngine client = MemoryHandshake.client("a.test", "TLSv1.2");
        SSLParameters parameters = client.getSSLParameters();
        // the client prefers ChaCha20; the server's order puts AES-128-GCM first
        parameters.setCipherSuites(new String[] {"TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"});
        client.setSSLParameters(parameters);

        MemoryHandshake.Result result = MemoryHandshake.run(client, context.newEngine());

        assertThat(result.clientSession().getProtocol()).isEqualTo("TLSv1.2");
        assertThat(result.clientSession().getCipherSuite()).isEqualTo("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256");
        assertThat(result.applicationProtocol()).isEqualTo("http/1.1");
    }

    @Test
    void tls12WithOnlyCbcSuitesIsRefused() throws Exception {
        SSLEngine client = MemoryHandshake.client("a.test", "TLSv1.2");
        SSLParameters parameters = client.getSSLParameters();
        parameters.setCipherSuites(new String[] {"TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256"});
        client.setSSLParameters(parameters);

        assertThatThrownBy(() -> MemoryHandshake.run(client, context.newEngine())).isInstanceOf(SSLException.class);
    }

    @Test
    void tls11AndTls10AreRefused() throws Exception {
        // the JDK client refuses these by itself too (jdk.tls.disabledAlgorithms), so this shows
        // the handshake cannot happen in memory; the s_client test shows the server refusing
        for (String protocol : List.of("TLSv1.1", "TLSv1")) {
            SSLEngine client = MemoryHandshake.client("a.test", protocol);
            assertThatThrownBy(() -> MemoryHandshake.run(client, context.newEngine())).isInstanceOf(SSLException.class);
        }
        assertThat(context.newEngine().getEnabledProtocols()).doesNotContain("TLSv1.1", "TLSv1", "SSLv3");
    }

    @Test
    void alpnIsReadyForH2() throws Exception {
        TlsContext h2 = TlsContextFactory.create(a.config().toBuilder().applicationProtocols("h2", "http/1.1").build());

        // a client offering only http/1.1 still gets it
        assertThat(MemoryHandshake.run("a.test", h2.newEngine()).applicationProtocol()).isEqualTo("http/1.1");
        assertThat(h2.newEngine().getSSLParameters().getApplicationProtocols()).containsExactly("h2", "http/1.1");
    }

    @Test
    void opensslClientGetsTls13WithAlpnAndSni() throws Exception {
        try (ServerUnderTest server = new ServerUnderTest(context)) {
            String output = Tools.run(dir, List.of(Tools.OPENSSL.toString(), "s_client", "-connect", server.hostAndPort(),
                    "-servername", "a.test", "-alpn", "http/1.1"), "");

            assertThat(output).contains("TLSv1.3").contains("ALPN protocol: http/1.1").contains("CN = a.test");
            assertThat(server.failure()).isNull();
        }
    }

    @Test
    void opensslClientOfferingOnlyTls11IsRefusedByTheServer() throws Exception {
        for (String option : List.of("-tls1_1", "-tls1")) {
            try (ServerUnderTest server = new ServerUnderTest(context)) {
                // SECLEVEL=0 lets OpenSSL 3 itself offer these old versions
                Tools.Result result = Tools.runAllowingFailure(dir, List.of(Tools.OPENSSL.toString(), "s_client", "-connect",
                        server.hostAndPort(), "-servername", "a.test", option, "-cipher", "DEFAULT@SECLEVEL=0"), "");

                assertThat(result.exitCode()).as(result.output()).isNotZero();
                assertThat(result.output()).containsIgnoringCase("alert protocol version");
                assertThat(server.failure()).isInstanceOf(SSLException.class);
            }
        }
    }

    /** One accepted connection on loopback, its handshake done with the context's parameters. */
    private static final class ServerUnderTest implements AutoCloseable {
        private final SSLServerSocket listener;
        private final CompletableFuture<Exception> handshake = new CompletableFuture<>();

        ServerUnderTest(TlsContext context) throws IOException {
            listener = (SSLServerSocket) jsse().sslContext().getServerSocketFactory()
                    .createServerSocket(0, 1, InetAddress.getLoopbackAddress());
            Thread.ofVirtual().start(() -> {
                try (SSLSocket socket = (SSLSocket) listener.accept()) {
                    socket.setUseClientMode(false);
                    socket.setSSLParameters(jsse().parameters());
                    socket.setSoTimeout(10_000);
                    socket.startHandshake();
                    handshake.complete(null);
                } catch (Exception e) {
                    handshake.complete(e);
                }
            });
        }

        String hostAndPort() {
            InetSocketAddress address = (InetSocketAddress) listener.getLocalSocketAddress();
            return address.getAddress().getHostAddress() + ":" + address.getPort();
        }

        Exception failure() throws Exception {
            return handshake.get(20, TimeUnit.SECONDS);
        }

        @Override
        public void close() throws IOException {
            listener.close();
        }
    }
}
