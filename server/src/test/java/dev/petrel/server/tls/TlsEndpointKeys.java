package dev.petrel.server.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed EC certificate for localhost, made at test time by the JDK's own keytool into a
 * PKCS#12 file, and the server and client {@link SSLContext}s built on it: the client trusts
 * exactly this certificate.
 */
final class TlsEndpointKeys {
    static final String ALPN = "http/1.1";
    private static final String PASSWORD = "petrel-test";

    private final SSLContext server;
    private final SSLContext client;

    private TlsEndpointKeys(KeyStore store) throws GeneralSecurityException {
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, PASSWORD.toCharArray());
        server = SSLContext.getInstance("TLS");
        server.init(keys.getKeyManagers(), null, null);
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store); // trusts the certificate of the key entry
        client = SSLContext.getInstance("TLS");
        client.init(null, trust.getTrustManagers(), null);
    }

    /** Generates the key pair and certificate into {@code dir} with keytool. */
    static TlsEndpointKeys generate(Path dir) throws IOException, InterruptedException, GeneralSecurityException {
        Path file = dir.resolve("server.p12");
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process process = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "petrel",
                "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                "-ext", "san=dns:localhost,ip:127.0.0.1", "-validity", "2",
                "-keystore", file.toString(), "-storetype", "PKCS12",
                "-storepass", PASSWORD, "-keypass", PASSWORD, "-noprompt")
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IOException("keytool failed: " + output);
        }
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, PASSWORD.toCharArray());
        }
        return new TlsEndpointKeys(store);
    }

    SSLContext serverContext() {
        return server;
    }

    SSLContext clientContext() {
        return client;
    }

    /** A server-mode engine offering {@code protocols} and ALPN {@code http/1.1}, as the server configures one. */
    SSLEngine serverEngine(String... protocols) {
        SSLEngine engine = server.createSSLEngine();
        engine.setUseClientMode(false);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setProtocols(protocols.length == 0 ? new String[] {"TLSv1.3", "TLSv1.2"} : protocols);
        parameters.setApplicationProtocols(new String[] {ALPN});
        engine.setSSLParameters(parameters);
        return engine;
    }

    /** A client-mode engine speaking only {@code protocol}, asking for {@code serverName} by SNI and offering ALPN {@code http/1.1}. */
    SSLEngine clientEngine(String protocol, String serverName) {
        SSLEngine engine = client.createSSLEngine("localhost", 443);
        engine.setUseClientMode(true);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setProtocols(new String[] {protocol});
        parameters.setApplicationProtocols(new String[] {ALPN});
        if (serverName != null) parameters.setServerNames(List.of(new SNIHostName(serverName)));
        engine.setSSLParameters(parameters);
        return engine;
    }
}
