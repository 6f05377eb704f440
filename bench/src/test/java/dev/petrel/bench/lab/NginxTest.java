package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * nginx's private configuration, written by the lab into the server's folder of the run, and nginx
 * itself run from it (when installed): the contract's answer, its worker counted and stopped with it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NginxTest {
    @TempDir
    Path dir;

    private LabCertificate certificate() throws IOException, InterruptedException {
        return LabCertificate.obtain(dir.resolve("tls"), Path.of(System.getProperty("java.home"), "bin", "keytool"));
    }

    @Test
    void theConfigurationKeepsEverythingInTheFolderAndListensOnLoopbackOnly() throws Exception {
        LabCertificate tls = certificate();
        Path folder = dir.resolve("servers/nginx");
        String conf = Nginx.config(18_400, tls, folder, Path.of("/lab/article.html"), false);

        assertThat(conf).contains("worker_processes 1;", "daemon off;", "master_process on;",
                "pid \"" + folder.resolve("nginx.pid") + "\";", "error_log \"" + folder.resolve("error.log") + "\" warn;",
                "access_log off;", "worker_connections 16384;");
        for (String temp : List.of("client_body", "proxy", "fastcgi", "uwsgi", "scgi")) {
            assertThat(conf).contains(temp + "_temp_path \"" + folder.resolve("temp").resolve(temp) + "\";");
        }
        assertThat(conf.lines().filter(l -> l.strip().startsWith("listen ")).toList())
                .containsExactly("        listen 127.0.0.1:18400;", "        listen 127.0.0.1:18401 ssl;");
        assertThat(conf).contains("ssl_certificate \"" + tls.certificatePem() + "\";",
                "ssl_certificate_key \"" + tls.privateKeyPem() + "\";", "ssl_protocols TLSv1.3 TLSv1.2;",
                "ssl_session_tickets on;");
        // the lab's contract: the page at /page, HelloWorld everywhere else, with its content types
        assertThat(conf).contains("location = /page {", "alias \"/lab/article.html\";", "default_type \"text/html;charset=UTF-8\";",
                "location / {", "default_type \"text/plain;charset=UTF-8\";", "return 200 \"HelloWorld\";");
        assertThat(conf).doesNotContain("user ", "0.0.0.0", "include");
        // every block closed
        assertThat(conf.chars().filter(c -> c == '{').count()).isEqualTo(conf.chars().filter(c -> c == '}').count());
    }

    @Test
    void withoutTlsThereIsNoHttpsListener() {
        String conf = Nginx.config(18_400, null, dir, Path.of("/lab/article.html"), false);

        assertThat(conf).contains("listen 127.0.0.1:18400;").doesNotContain("ssl", "18401");
    }

    @Test
    void runAsRootTheWorkerStaysRootLikeEveryOtherServerOfTheLab() {
        assertThat(Nginx.config(18_400, null, dir, Path.of("/lab/page.html"), true)).contains("\nuser root;\n");
    }

    @Test
    void pathsAreQuotedAndThoseNginxWouldReadOtherwiseRefused() {
        assertThat(Nginx.quoted(Path.of("/a b/c"))).isEqualTo("\"/a b/c\"");
        assertThatThrownBy(() -> Nginx.quoted(Path.of("/a$b"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Nginx.quoted(Path.of("/a\"b"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theCommandNamesTheFolderAsPrefixConfigurationAndStartErrorLog() {
        Path folder = Path.of("/run/servers/nginx");

        assertThat(Nginx.command(Path.of("/usr/sbin/nginx"), folder)).containsExactly("/usr/sbin/nginx",
                "-e", "/run/servers/nginx/error.log", "-p", "/run/servers/nginx", "-c", "/run/servers/nginx/nginx.conf");
    }

    @Test
    void readsTheTlsLibraryNginxWasBuiltWith() {
        String output = "nginx version: nginx/1.22.1\nbuilt with OpenSSL 3.0.22 25 Aug 2026\nTLS SNI support enabled\n";

        assertThat(Nginx.builtWith(output)).isEqualTo("OpenSSL 3.0.22");
        assertThat(Nginx.builtWith("nginx version: nginx/1.22.1\n")).isEqualTo("OpenSSL");
    }

    @Test
    void nginxRunsFromItsFolderAnswersTheContractAndIsCountedAndStoppedWithItsWorker() throws Exception {
        assumeTrue(Nginx.version().matches("nginx \\d.*"), "nginx is not installed");
        LabCertificate tls = certificate();
        ServerSpec spec = Nginx.spec(new LabPaths(Path.of("").toAbsolutePath().getParent(), Path.of("/jdk/bin/java")));
        int port = twoFreePorts();
        Path folder = dir.resolve("servers/nginx");
        List<Long> workers;
        try (RunningServer nginx = RunningServer.start(spec, port, tls, false, 0, dir.resolve("logs/nginx.log"), folder,
                Duration.ofSeconds(30))) {
            assertThat(nginx.fetchRoot()).startsWith("HTTP/1.1 200").contains("Content-Type: text/plain;charset=UTF-8")
                    .endsWith("\r\n\r\nHelloWorld");
            nginx.awaitHttps(tls.clientContext(), Duration.ofSeconds(10));
            assertThat(nginx.fetchRootHttps(tls.clientContext())).endsWith("HelloWorld");
            assertThat(folder.resolve("nginx.conf")).exists();
            assertThat(folder.resolve("nginx.pid")).exists();

            // its worker is a child of the master the lab started, pinned as it was, and counted with it
            workers = nginx.descendants();
            assertThat(workers).hasSize(1);
            ProcessCpu.Sample sample = nginx.cpuSample();
            assertThat(sample.main().pid()).isEqualTo(nginx.pid());
            assertThat(sample.children()).containsOnlyKeys(workers.getFirst());
            assertThat(sample.children().get(workers.getFirst()).ppid()).isEqualTo(nginx.pid());
            assertThat(ProcessCpu.allowedCpus(workers.getFirst())).isEqualTo("0");
        }
        assertThat(ProcessHandle.of(workers.getFirst()).filter(ProcessHandle::isAlive)).isEmpty();
    }

    /** A port whose successor is free too, as the lab's HTTP and HTTPS ports are. */
    private static int twoFreePorts() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port;
            try (ServerSocket first = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                port = first.getLocalPort();
            }
            if (port >= 65535) continue;
            try (ServerSocket a = new ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress());
                 ServerSocket b = new ServerSocket(port + 1, 1, java.net.InetAddress.getLoopbackAddress())) {
                return port;
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IOException("no two free ports in a row");
    }
}
