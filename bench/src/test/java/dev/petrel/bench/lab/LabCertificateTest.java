package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The lab certificate made with this JDK's keytool: its forms, its reuse, and a handshake on loopback. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LabCertificateTest {
    private static final Path KEYTOOL = Path.of(System.getProperty("java.home"), "bin", "keytool");

    @Test
    void makesOneEcP256CertificateForLoopbackInPemAndPkcs12(@TempDir Path dir) throws Exception {
        LabCertificate lab = LabCertificate.obtain(dir, KEYTOOL);

        assertThat(lab.certificate().getPublicKey()).isInstanceOf(ECPublicKey.class);
        assertThat(((ECPublicKey) lab.certificate().getPublicKey()).getParams().getCurve().getField().getFieldSize())
                .isEqualTo(256);
        assertThat(lab.certificate().getSubjectAlternativeNames())
                .contains(List.of(2, "localhost"), List.of(7, "127.0.0.1"));
        String keyPem = Files.readString(lab.privateKeyPem(), StandardCharsets.US_ASCII);
        assertThat(keyPem).startsWith("-----BEGIN PRIVATE KEY-----\n").endsWith("-----END PRIVATE KEY-----\n");
        byte[] der = Base64.getMimeDecoder().decode(keyPem.replaceAll("-----[A-Z ]+-----", ""));
        assertThat(KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der))).isInstanceOf(ECPrivateKey.class);
        assertThat(Files.readString(lab.certificatePem(), StandardCharsets.US_ASCII)).startsWith("-----BEGIN CERTIFICATE-----\n");
        assertThat(lab.pkcs12()).isRegularFile();
    }

    @Test
    void reusesTheCertificateInItsFolder(@TempDir Path dir) throws Exception {
        LabCertificate first = LabCertificate.obtain(dir, KEYTOOL);
        LabCertificate second = LabCertificate.obtain(dir, KEYTOOL);

        assertThat(second.certificate()).isEqualTo(first.certificate());
    }

    @Test
    void makesANewOneWhenAFileIsMissing(@TempDir Path dir) throws Exception {
        LabCertificate first = LabCertificate.obtain(dir, KEYTOOL);
        Files.delete(first.privateKeyPem());

        LabCertificate second = LabCertificate.obtain(dir, KEYTOOL);

        assertThat(second.certificate().getSerialNumber()).isNotEqualTo(first.certificate().getSerialNumber());
        assertThat(second.privateKeyPem()).isRegularFile();
    }

    @Test
    void itsClientContextCompletesAHandshakeWithAServerPresentingIt(@TempDir Path dir) throws Exception {
        LabCertificate lab = LabCertificate.obtain(dir, KEYTOOL);
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(lab.pkcs12())) {
            store.load(in, LabCertificate.PASSWORD.toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, LabCertificate.PASSWORD.toCharArray());
        SSLContext serverContext = SSLContext.getInstance("TLS");
        serverContext.init(keys.getKeyManagers(), null, null);

        try (SSLServerSocket server = (SSLServerSocket) serverContext.getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> served = CompletableFuture.runAsync(() -> {
                try (SSLSocket socket = (SSLSocket) server.accept()) {
                    socket.setSoTimeout(10_000);
                    socket.getInputStream().read();
                    socket.getOutputStream().write('!');
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            try (SSLSocket client = (SSLSocket) lab.clientContext().getSocketFactory()
                    .createSocket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
                client.setSoTimeout(10_000);
                OutputStream out = client.getOutputStream();
                out.write('?');
                out.flush();
                assertThat(client.getInputStream().read()).isEqualTo('!');
                assertThat(client.getSession().getPeerCertificates()[0]).isEqualTo(lab.certificate());
            }
            served.get(10, TimeUnit.SECONDS);
        }
    }
}
