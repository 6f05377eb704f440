package dev.petrel.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.petrel.server.config.TlsConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Real handshakes in memory: which certificate a client gets for the name it sends. */
class SniSelectionTest {
    @TempDir
    static Path dir;
    static Fixtures fixtures;
    static TlsContext context;

    @BeforeAll
    static void makeFixtures() throws Exception {
        assumeTrue(Tools.hasOpenssl(), "needs /usr/bin/openssl");
        fixtures = new Fixtures(dir);
        Fixtures.Pair a = fixtures.selfSigned("a", "ec", "a.test");
        Fixtures.Pair b = fixtures.selfSigned("b", "ec", "*.b.test");
        context = TlsContextFactory.create(TlsConfig.builder().pem(a.certificate(), a.key()).pem(b.certificate(), b.key()).build());
    }

    @ParameterizedTest(name = "SNI {0} gets {1}")
    @CsvSource({
        "a.test,       a.test",
        "A.Test,       a.test",
        "www.b.test,   *.b.test",
        "x.b.test,     *.b.test",
        // a wildcard covers one label only: these fall back to the default (first) certificate
        "b.test,       a.test",
        "y.x.b.test,   a.test",
        "unknown.test, a.test",
    })
    void certificateChosenByServerName(String serverName, String expected) throws Exception {
        MemoryHandshake.Result result = MemoryHandshake.run(serverName, context.newEngine());

        assertThat(result.serverName()).isEqualTo(expected);
        assertThat(result.applicationProtocol()).isEqualTo("http/1.1");
    }

    @Test
    void noServerNameGetsTheDefault() throws Exception {
        assertThat(MemoryHandshake.run((String) null, context.newEngine()).serverName()).isEqualTo("a.test");
    }

    @Test
    void nameWinsOverTheClientsFavouriteKeyType() throws Exception {
        // the JDK client lists ECDSA signature schemes before RSA ones
        Fixtures.Pair rsa = fixtures.selfSigned("rsa", "rsa", "rsa.test");
        Fixtures.Pair ec = fixtures.selfSigned("ec", "ec", "ec.test");
        TlsContext mixed = TlsContextFactory.create(TlsConfig.builder()
                .pem(rsa.certificate(), rsa.key()).pem(ec.certificate(), ec.key()).build());

        assertThat(MemoryHandshake.run("rsa.test", mixed.newEngine()).serverName()).isEqualTo("rsa.test");
        assertThat(MemoryHandshake.run("ec.test", mixed.newEngine()).serverName()).isEqualTo("ec.test");
        // an unknown name gets the default even though an EC certificate exists
        assertThat(MemoryHandshake.run("other.test", mixed.newEngine()).serverName()).isEqualTo("rsa.test");
        assertThat(MemoryHandshake.run("rsa.test", mixed.newEngine()).serverCertificate().getPublicKey().getAlgorithm())
                .isEqualTo("RSA");
    }

    @Test
    void ed25519CertificateIsServed() throws Exception {
        Fixtures.Pair ed = fixtures.selfSigned("ed", "ed25519", "ed.test");
        if (ed.config().engine().equals(TlsConfig.NATIVE)) {
            // petrel-tls-native runs this class too: BoringSSL through Netty chooses RSA and EC keys only
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> TlsContextFactory.create(ed.config()))
                    .isInstanceOf(dev.petrel.server.config.TlsConfigException.class)
                    .hasMessageStartingWith("TLS: the native engine cannot serve Ed25519 certificates");
            return;
        }
        TlsContext edContext = TlsContextFactory.create(ed.config());

        MemoryHandshake.Result result = MemoryHandshake.run("ed.test", edContext.newEngine());

        assertThat(result.serverCertificate().getPublicKey().getAlgorithm()).isEqualTo("EdDSA");
    }

    @Test
    void intermediateIsSentWithTheLeaf() throws Exception {
        Fixtures.Pair chain = fixtures.chain("leaf.test");
        TlsContext chained = TlsContextFactory.create(chain.config());

        MemoryHandshake.Result result = MemoryHandshake.run("leaf.test", chained.newEngine());

        assertThat(result.serverChain()).extracting(c -> c.getSubjectX500Principal().getName())
                .containsExactly("CN=leaf.test", "CN=Test Intermediate");
    }
}
