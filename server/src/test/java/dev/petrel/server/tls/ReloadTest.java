package dev.petrel.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TlsConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Certificates replaced while serving: by {@code reload()} and by the file watcher. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReloadTest {
    @TempDir
    static Path fixturesDir;
    static Fixtures.Pair first;
    static Fixtures.Pair second;

    @TempDir
    Path live;
    Path certificate;
    Path key;

    @BeforeAll
    static void makeFixtures() throws Exception {
        assumeTrue(Tools.hasOpenssl(), "needs /usr/bin/openssl");
        Fixtures fixtures = new Fixtures(fixturesDir);
        first = fixtures.selfSigned("first", "ec", "first.test");
        second = fixtures.selfSigned("second", "ec", "second.test");
    }

    @BeforeEach
    void install() throws Exception {
        certificate = live.resolve("server.crt");
        key = live.resolve("server.key");
        Files.copy(first.certificate(), certificate);
        Files.copy(first.key(), key);
    }

    @Test
    void reloadServesTheNewCertificateToNewConnectionsOnly() throws Exception {
        ReloadableTlsContext tls = ReloadableTlsContext.load(TlsConfig.pem(certificate, key));
        SSLEngine openedBefore = tls.newEngine();
        assertThat(MemoryHandshake.run("any.test", tls.newEngine()).serverName()).isEqualTo("first.test");

        replace(second);
        TlsContext reloaded = tls.reload();

        assertThat(tls.current()).isSameAs(reloaded);
        assertThat(MemoryHandshake.run("any.test", tls.newEngine()).serverName()).isEqualTo("second.test");
        // an engine made before the reload keeps the context, and so the certificate, it began with
        assertThat(MemoryHandshake.run("any.test", openedBefore).serverName()).isEqualTo("first.test");
    }

    @Test
    void failedReloadKeepsTheOldCertificate() throws Exception {
        ReloadableTlsContext tls = ReloadableTlsContext.load(TlsConfig.pem(certificate, key));
        TlsContext before = tls.current();

        Files.copy(second.key(), key, StandardCopyOption.REPLACE_EXISTING); // new key, old certificate

        assertThatThrownBy(tls::reload).isInstanceOf(TlsConfigException.class)
                .hasMessageContaining("key file " + key + ": the private key does not match the certificate in " + certificate);
        assertThat(tls.current()).isSameAs(before);
        assertThat(MemoryHandshake.run("any.test", tls.newEngine()).serverName()).isEqualTo("first.test");

        Files.delete(certificate);
        assertThatThrownBy(tls::reload).hasMessageContaining("certificate file " + certificate + ": no such file");
        assertThat(tls.current()).isSameAs(before);
    }

    @Test
    void watcherReloadsWhenTheFilesChange() throws Exception {
        ReloadableTlsContext tls = ReloadableTlsContext.load(TlsConfig.pem(certificate, key));
        BlockingQueue<Object> events = new LinkedBlockingQueue<>();
        CertificateWatcher watcher = CertificateWatcher.start(tls, Duration.ofMillis(200), listener(events));
        try {
            // renewal tools write new files and rename them over the old ones
            Path newCertificate = live.resolve("server.crt.tmp");
            Path newKey = live.resolve("server.key.tmp");
            Files.copy(second.certificate(), newCertificate);
            Files.copy(second.key(), newKey);
            Files.move(newCertificate, certificate, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            Files.move(newKey, key, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

            assertThat(events.poll(20, TimeUnit.SECONDS)).isInstanceOf(TlsContext.class);
            assertThat(MemoryHandshake.run("any.test", tls.newEngine()).serverName()).isEqualTo("second.test");
        } finally {
            watcher.close();
        }
    }

    @Test
    void watcherReportsAFailedReloadAndKeepsServing() throws Exception {
        ReloadableTlsContext tls = ReloadableTlsContext.load(TlsConfig.pem(certificate, key));
        BlockingQueue<Object> events = new LinkedBlockingQueue<>();
        CertificateWatcher watcher = CertificateWatcher.start(tls, Duration.ofMillis(200), listener(events));
        try {
            Files.writeString(key, "not a key\n");

            assertThat(events.poll(20, TimeUnit.SECONDS)).isInstanceOf(TlsConfigException.class)
                    .asString().contains("key file " + key + ": not a PEM file");
            assertThat(MemoryHandshake.run("any.test", tls.newEngine()).serverName()).isEqualTo("first.test");

            // the next good change is picked up
            replace(second);
            Object next = events.poll(20, TimeUnit.SECONDS);
            while (next instanceof TlsConfigException) next = events.poll(20, TimeUnit.SECONDS); // the key and cert may land apart
            assertThat(next).isInstanceOf(TlsContext.class);
            assertThat(MemoryHandshake.run("any.test", tls.newEngine()).serverName()).isEqualTo("second.test");
        } finally {
            watcher.close();
        }
    }

    @Test
    void watcherIgnoresOtherFilesAndStopsOnClose() throws Exception {
        ReloadableTlsContext tls = ReloadableTlsContext.load(TlsConfig.pem(certificate, key));
        BlockingQueue<Object> events = new LinkedBlockingQueue<>();
        CertificateWatcher watcher = CertificateWatcher.start(tls, Duration.ofMillis(100), listener(events));
        Files.writeString(live.resolve("unrelated.txt"), "hello");
        assertThat(events.poll(1, TimeUnit.SECONDS)).isNull();

        watcher.close();
        replace(second);
        assertThat(events.poll(1, TimeUnit.SECONDS)).isNull();
        assertThat(MemoryHandshake.run("any.test", tls.newEngine()).serverName()).isEqualTo("first.test");
    }

    private void replace(Fixtures.Pair pair) throws Exception {
        Files.copy(pair.certificate(), certificate, StandardCopyOption.REPLACE_EXISTING);
        Files.copy(pair.key(), key, StandardCopyOption.REPLACE_EXISTING);
    }

    private static CertificateWatcher.Listener listener(BlockingQueue<Object> events) {
        return new CertificateWatcher.Listener() {
            @Override
            public void reloaded(TlsContext context) {
                events.add(context);
            }

            @Override
            public void failed(TlsConfigException error) {
                events.add(error);
            }
        };
    }
}
