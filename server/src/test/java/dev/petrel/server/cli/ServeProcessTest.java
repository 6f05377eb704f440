package dev.petrel.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.tls.Fixtures;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code petrel serve} with certificate files, as its own process: it serves HTTP and HTTPS,
 * reloads the certificate when its files change and on SIGHUP (keeping the old one when the new
 * files are bad), and stops with 0 on SIGTERM.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ServeProcessTest {
    private static final Pattern READY = Pattern.compile("ready: .*http://127\\.0\\.0\\.1:(\\d+)/ and https://127\\.0\\.0\\.1:(\\d+)/");

    @TempDir
    Path dir;

    @Test
    void servesHttpsAndReloadsOnFileChangeAndOnSighup() throws Exception {
        Fixtures fixtures = new Fixtures(dir);
        Fixtures.Pair first = fixtures.selfSigned("first", "ec", "localhost");
        Fixtures.Pair second = fixtures.selfSigned("second", "ec", "localhost");
        Path served = Files.createDirectory(dir.resolve("served"));
        Path cert = served.resolve("server.crt");
        Path key = served.resolve("server.key");
        install(first, cert, key);
        SSLContext client = trusting(first.certificate(), second.certificate());

        Path log = dir.resolve("serve.log");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        // env --default-signal: a test run under nohup would hand its ignored SIGHUP down to the server
        Process process = new ProcessBuilder("env", "--default-signal=HUP", java.toString(), "-cp", System.getProperty("java.class.path"),
                "dev.petrel.server.cli.Main", "serve", "--port", "0", "--https-port", "0",
                "--tls-cert", cert.toString(), "--tls-key", key.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            await("the ready line", () -> READY.matcher(read(log)).find());
            Matcher ready = READY.matcher(read(log));
            assertThat(ready.find()).isTrue();
            int httpsPort = Integer.parseInt(ready.group(2));
            assertThat(fingerprint(client, httpsPort)).isEqualTo(fingerprintOf(first.certificate()));

            String firstPrint = fingerprintOf(first.certificate());
            String secondPrint = fingerprintOf(second.certificate());
            install(second, cert, key); // the watcher reloads after the files are quiet
            await("the second certificate served", () -> fingerprintQuietly(client, httpsPort).equals(secondPrint));

            Files.writeString(key, "not a key\n"); // a bad file: the watcher and SIGHUP both keep the current certificate
            signal(process, "HUP");
            await("the failed SIGHUP reload logged", () -> read(log).contains("TLS certificates not reloaded on SIGHUP"));
            assertThat(fingerprint(client, httpsPort)).isEqualTo(secondPrint);

            install(first, cert, key);
            signal(process, "HUP");
            await("the SIGHUP reload logged", () -> read(log).contains("reloaded the TLS certificates on SIGHUP"));
            await("the first certificate served again", () -> fingerprintQuietly(client, httpsPort).equals(firstPrint));

            process.destroy(); // SIGTERM
            assertThat(process.waitFor(20, TimeUnit.SECONDS)).as("stopped within 20 s").isTrue();
            assertThat(process.exitValue()).isZero();
            assertThat(read(log)).contains("stopped").doesNotContain("Exception");
        } finally {
            process.destroyForcibly();
        }
    }

    @Test
    void accessLogIsReopenedOnSigusr1AndSighupForLogrotate() throws Exception {
        Path accessLog = dir.resolve("access.log");
        Path log = dir.resolve("serve-access.log");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder("env", "--default-signal=HUP", java.toString(), "-cp", System.getProperty("java.class.path"),
                "dev.petrel.server.cli.Main", "serve", "--port", "0", "--access-log", accessLog.toString(),
                "--access-log-format", "common")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            Pattern readyHttp = Pattern.compile("ready: .*http://127\\.0\\.0\\.1:(\\d+)/");
            await("the ready line", () -> readyHttp.matcher(read(log)).find());
            Matcher ready = readyHttp.matcher(read(log));
            assertThat(ready.find()).isTrue();
            int port = Integer.parseInt(ready.group(1));
            get(port, "/?first");
            await("the first line", () -> read(accessLog).contains("GET /?first HTTP/1.1\" 200"));
            Files.move(accessLog, dir.resolve("access.log.1")); // logrotate moves it, then signals
            signal(process, "USR1");
            await("the log reopened on SIGUSR1", () -> Files.exists(accessLog));
            get(port, "/?second");
            await("the second line in the new file", () -> read(accessLog).contains("GET /?second HTTP/1.1\" 200"));
            Files.move(accessLog, dir.resolve("access.log.2"));
            signal(process, "HUP");
            await("the log reopened on SIGHUP", () -> Files.exists(accessLog));
            get(port, "/?third");
            await("the third line in the newest file", () -> read(accessLog).contains("GET /?third HTTP/1.1\" 200"));
            assertThat(read(dir.resolve("access.log.1"))).contains("/?first").doesNotContain("/?second");
            assertThat(read(dir.resolve("access.log.2"))).contains("/?second").doesNotContain("/?third");
            process.destroy();
            assertThat(process.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).isZero();
        } finally {
            process.destroyForcibly();
        }
    }

    @Test
    void servesEveryListenerOfListenAndHttpsWithoutCertificatesAsHttpsDoes() throws Exception {
        Path tlsDir = dir.resolve("tls");
        // made now, as --https would make it; the server finds it there and keeps it
        Path certificate = dev.petrel.server.tls.SelfSignedCertificate.obtain(tlsDir).certificateFile();
        SSLContext client = trusting(certificate);
        Path log = dir.resolve("serve-listen.log");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                "dev.petrel.server.cli.Main", "serve", "--listen", "http://127.0.0.1:0", "--listen=http://127.0.0.1:0",
                "--listen", "https://127.0.0.1:0", "--tls-dir", tlsDir.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            Pattern listeners = Pattern.compile(
                    "ready: .*http://127\\.0\\.0\\.1:(\\d+)/ and http://127\\.0\\.0\\.1:(\\d+)/ and https://127\\.0\\.0\\.1:(\\d+)/ serving");
            await("the ready line", () -> listeners.matcher(read(log)).find());
            Matcher ready = listeners.matcher(read(log));
            assertThat(ready.find()).isTrue();
            int first = Integer.parseInt(ready.group(1));
            int second = Integer.parseInt(ready.group(2));
            assertThat(first).isNotEqualTo(second);
            assertThat(get(first, "/")).startsWith("HTTP/1.1 200").endsWith("HelloWorld");
            assertThat(get(second, "/")).startsWith("HTTP/1.1 200").endsWith("HelloWorld");
            assertThat(fingerprint(client, Integer.parseInt(ready.group(3)))).isEqualTo(fingerprintOf(certificate));
            assertThat(read(log)).contains("self-signed certificate for localhost, kept in " + tlsDir);

            process.destroy(); // SIGTERM
            assertThat(process.waitFor(20, TimeUnit.SECONDS)).as("stopped within 20 s").isTrue();
            assertThat(process.exitValue()).isZero();
        } finally {
            process.destroyForcibly();
        }
    }

    private static String get(int port, String target) throws IOException {
        return get(port, target, "localhost");
    }

    private static String get(int port, String target, String host) throws IOException {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5000);
            socket.getOutputStream().write(("GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void logLevelWarnLeavesOutTheInfoLines() throws Exception {
        int port;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        Path log = dir.resolve("serve-warn.log");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                "dev.petrel.server.cli.Main", "serve", "--port", Integer.toString(port), "--log-level", "warn")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            int served = port;
            await("the server answering", () -> {
                try {
                    return get(served, "/").endsWith("HelloWorld");
                } catch (IOException notYet) {
                    return false;
                }
            });
            process.destroy(); // SIGTERM as soon as it answers: handled already, a graceful stop
            assertThat(process.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).isZero();
            assertThat(read(log)).doesNotContain("INFO").doesNotContain("ready");
        } finally {
            process.destroyForcibly();
        }
    }

    @Test
    void aRootFolderIsServedAsItIsAndTheDemoRoutesOnlyWithDemo() throws Exception {
        Path site = Files.createDirectory(dir.resolve("site"));
        Files.writeString(site.resolve("index.html"), "<h1>my site</h1>\n");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Pattern readyHttp = Pattern.compile("ready: .*http://127\\.0\\.0\\.1:(\\d+)/");
        for (boolean demo : new boolean[] {false, true}) {
            Path log = dir.resolve("serve-root-" + demo + ".log");
            List<String> command = new java.util.ArrayList<>(List.of(java.toString(), "-cp", System.getProperty("java.class.path"),
                    "dev.petrel.server.cli.Main", "serve", "--port", "0", "--root", site.toString()));
            if (demo) command.add("--demo");
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                await("the ready line", () -> readyHttp.matcher(read(log)).find());
                Matcher ready = readyHttp.matcher(read(log));
                assertThat(ready.find()).isTrue();
                int port = Integer.parseInt(ready.group(1));
                if (demo) {
                    assertThat(get(port, "/")).startsWith("HTTP/1.1 200").endsWith("HelloWorld");
                    assertThat(get(port, "/date")).startsWith("HTTP/1.1 200");
                } else {
                    assertThat(get(port, "/")).startsWith("HTTP/1.1 200").endsWith("<h1>my site</h1>\n");
                    assertThat(get(port, "/date")).startsWith("HTTP/1.1 404");
                }
                assertThat(get(port, "/index.html")).startsWith("HTTP/1.1 200").endsWith("<h1>my site</h1>\n");
            } finally {
                process.destroy();
                process.waitFor(20, TimeUnit.SECONDS);
                process.destroyForcibly();
            }
        }
    }

    @Test
    void aVhostServesItsFolderToItsHostAndEveryOtherHostGetsTheRoot() throws Exception {
        Path main = Files.createDirectory(dir.resolve("main-site"));
        Files.writeString(main.resolve("index.html"), "main\n");
        Path shop = Files.createDirectory(dir.resolve("shop-site"));
        Files.writeString(shop.resolve("index.html"), "shop\n");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Pattern readyHttp = Pattern.compile("ready: .*http://127\\.0\\.0\\.1:(\\d+)/");
        Path log = dir.resolve("serve-vhost.log");
        Process process = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"), "dev.petrel.server.cli.Main",
                "serve", "--port", "0", "--root", main.toString(), "--vhost", "shop.example.com=" + shop)
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            await("the ready line", () -> readyHttp.matcher(read(log)).find());
            Matcher ready = readyHttp.matcher(read(log));
            assertThat(ready.find()).isTrue();
            int port = Integer.parseInt(ready.group(1));
            assertThat(read(log)).contains("1 virtual host");
            assertThat(get(port, "/", "shop.example.com:" + port)).startsWith("HTTP/1.1 200").endsWith("shop\n");
            assertThat(get(port, "/", "localhost")).startsWith("HTTP/1.1 200").endsWith("main\n");
        } finally {
            process.destroy();
            process.waitFor(20, TimeUnit.SECONDS);
            process.destroyForcibly();
        }
    }

    private static void install(Fixtures.Pair pair, Path cert, Path key) throws IOException {
        // written beside and renamed into place, as certificate tools do: never half a file
        Path certNew = cert.resolveSibling(cert.getFileName() + ".new");
        Path keyNew = key.resolveSibling(key.getFileName() + ".new");
        Files.copy(pair.certificate(), certNew, StandardCopyOption.REPLACE_EXISTING);
        Files.copy(pair.key(), keyNew, StandardCopyOption.REPLACE_EXISTING);
        Files.move(keyNew, key, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Files.move(certNew, cert, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static SSLContext trusting(Path... certificates) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        for (int i = 0; i < certificates.length; i++) store.setCertificateEntry("c" + i, load(certificates[i]));
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    private static X509Certificate load(Path file) throws Exception {
        try (InputStream in = Files.newInputStream(file)) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }

    private static String fingerprintOf(Path certificate) throws Exception {
        return fingerprintOf(load(certificate));
    }

    private static String fingerprintOf(X509Certificate certificate) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded()));
    }

    /** The fingerprint of the certificate a new connection is served, after a request answered over it. */
    private static String fingerprint(SSLContext client, int port) throws Exception {
        try (SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(5_000);
            socket.startHandshake();
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII)).endsWith("HelloWorld");
            return fingerprintOf((X509Certificate) socket.getSession().getPeerCertificates()[0]);
        }
    }

    private static String fingerprintQuietly(SSLContext client, int port) {
        try {
            return fingerprint(client, port);
        } catch (Exception e) {
            return "";
        }
    }

    private static void signal(Process process, String name) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).isZero();
    }

    private static String read(Path log) {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) throw new AssertionError("not within 30 s: " + what);
            Thread.sleep(100);
        }
    }
}
