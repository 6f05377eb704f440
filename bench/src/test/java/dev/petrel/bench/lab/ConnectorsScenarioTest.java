package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.petrel.bench.model.Environment;
import dev.petrel.bench.model.NotApplicable;
import dev.petrel.bench.model.RunResults;
import dev.petrel.bench.model.ServerInfo.Group;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connectors scenario's four columns and their URLs, the HTTPS readiness check against a
 * stand-in server on loopback, and the baseline's HTTPS cells marked not applicable.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConnectorsScenarioTest {
    @TempDir
    static Path certificateDir;
    private static LabCertificate certificate;

    private HttpServer http;
    private HttpsServer https;
    private RunningServer running;

    @BeforeAll
    static void makeCertificate() throws Exception {
        certificate = LabCertificate.obtain(certificateDir, Path.of(System.getProperty("java.home"), "bin", "keytool"));
    }

    @AfterEach
    void stop() {
        if (running != null) running.stop();
        if (http != null) http.stop(0);
        if (https != null) https.stop(0);
    }

    @Test
    void httpsWithoutKeepAliveRunsFewerRequestsSinceEachIsAFullHandshake() {
        ConnectorsScenario full = new ConnectorsScenario(false);
        List<ConnectorsScenario.Variant> ab = ConnectorsScenario.VARIANTS.stream()
                .filter(v -> v.client() != ConnectorsScenario.Client.WRK).toList();
        assertThat(ab).map(full::requests).containsExactly(100_000, 10_000, 100_000, 100_000);
        ConnectorsScenario quick = new ConnectorsScenario(true);
        assertThat(ab).map(quick::requests).containsExactly(2_000, 500, 2_000, 2_000);
        assertThat(full.info().method()).contains("`ab -c 100 -n 100000` (10000 over HTTPS, where each request is a full handshake");
    }

    @Test
    void keepAliveIsMeasuredByWrkForAFixedTimeAndAbKSurvivesAsAClientBoundAside() {
        ConnectorsScenario full = new ConnectorsScenario(false);

        assertThat(ConnectorsScenario.HTTP_KEEP_ALIVE.client()).isEqualTo(ConnectorsScenario.Client.WRK);
        assertThat(ConnectorsScenario.HTTPS_KEEP_ALIVE.client()).isEqualTo(ConnectorsScenario.Client.WRK);
        assertThat(ConnectorsScenario.HTTP_NO_KEEP_ALIVE.client()).isEqualTo(ConnectorsScenario.Client.AB);
        assertThat(ConnectorsScenario.HTTPS_NO_KEEP_ALIVE.client()).isEqualTo(ConnectorsScenario.Client.AB);
        assertThat(full.wrkDuration()).isEqualTo(Duration.ofSeconds(10));
        assertThat(new ConnectorsScenario(true).wrkDuration()).isLessThan(Duration.ofSeconds(5));
        assertThat(full.info().method()).contains("`wrk -t1 -c 100 -d 10s --latency`", "client-bound");
        assertThat(full.tools()).contains(LoadTool.WRK, LoadTool.AB);
        // the headline leaves ab -k's columns out, and only those
        assertThat(full.info().asides()).containsExactlyInAnyOrder(
                "HTTP keep-alive (ab -k, client-bound)", "HTTPS keep-alive (ab -k, client-bound)");
        assertThat(full.info().metrics()).extracting(m -> m.key()).startsWith("rps", "p99_ms");
    }

    @Test
    void theSeedsFourColumnsInOrder() {
        ConnectorsScenario scenario = new ConnectorsScenario(true);

        assertThat(scenario.info().variants()).containsExactly(
                "HTTP keep-alive", "HTTP no keep-alive", "HTTPS keep-alive", "HTTPS no keep-alive",
                "HTTP keep-alive (ab -k, client-bound)", "HTTPS keep-alive (ab -k, client-bound)");
        assertThat(ConnectorsScenario.VARIANTS).extracting(ConnectorsScenario.Variant::https)
                .containsExactly(false, false, true, true, false, true);
        assertThat(ConnectorsScenario.VARIANTS).extracting(ConnectorsScenario.Variant::keepAlive)
                .containsExactly(true, false, true, false, true, true);
        assertThat(scenario.https()).isTrue();
        assertThat(new LatencyScenario(true, false).https()).isFalse();
    }

    @Test
    void httpVariantsUseTheHttpPortAndHttpsVariantsTheNextOne() {
        Measurement run = measurement(null, 18_400, certificate);

        assertThat(ConnectorsScenario.HTTP_KEEP_ALIVE.url(run)).isEqualTo("http://127.0.0.1:18400/");
        assertThat(ConnectorsScenario.HTTP_NO_KEEP_ALIVE.url(run)).isEqualTo("http://127.0.0.1:18400/");
        assertThat(ConnectorsScenario.HTTPS_KEEP_ALIVE.url(run)).isEqualTo("https://127.0.0.1:18401/");
        assertThat(ConnectorsScenario.HTTPS_NO_KEEP_ALIVE.url(run)).isEqualTo("https://127.0.0.1:18401/");
    }

    @Test
    void aJvmServerGetsTheTlsFolderOnlyWhenAskedAndTheBaselineNever(@TempDir Path home) {
        LabPaths paths = new LabPaths(home, Path.of("/jdk/bin/java"));
        List<ServerSpec> servers = ServerCatalog.all(paths);
        ServerSpec baseline = servers.stream().filter(s -> s.name().equals("baseline-c")).findFirst().orElseThrow();
        ServerSpec jetty = servers.stream().filter(s -> s.name().equals("jetty")).findFirst().orElseThrow();
        String property = "-D" + ServerCatalog.TLS_PROPERTY + "=" + certificate.directory();

        assertThat(baseline.tls()).isFalse();
        assertThat(servers.stream().filter(s -> s.group() != Group.BASELINE && !s.application())).allMatch(ServerSpec::tls);
        // a Spring Boot jar's embedded Tomcat has one port; the war's standalone Tomcat has an HTTPS connector too
        assertThat(servers.stream().filter(ServerSpec::application))
                .allMatch(s -> s.tls() == s.name().startsWith(ServerCatalog.WAR)).isNotEmpty();
        assertThat(jetty.command().line(18_400, certificate, false, Path.of("folder"))).contains(property).endsWith("dev.petrel.bench.servers.JettyHello", "18400");
        assertThat(jetty.command().line(18_400, null, false, Path.of("folder"))).noneMatch(arg -> arg.startsWith("-D" + ServerCatalog.TLS_PROPERTY));
    }

    @Test
    void httpsReadinessPassesOnceTheTlsPortAnswersWithTheLabCertificate() throws Exception {
        int port = twoFreePorts();
        startHttp(port);
        startHttps(port + 1);
        running = RunningServer.start(standIn(true), port, certificate, 0, logFile(), Duration.ofSeconds(20));

        running.awaitHttps(certificate.clientContext(), Duration.ofSeconds(10));

        assertThat(running.fetchRootHttps(certificate.clientContext())).startsWith("HTTP/1.1 200").endsWith("HelloWorld");
    }

    @Test
    void httpsReadinessFailsWithinItsLimitNamingThePort() throws Exception {
        int port = twoFreePorts();
        startHttp(port);
        running = RunningServer.start(standIn(true), port, certificate, 0, logFile(), Duration.ofSeconds(20));

        long start = System.nanoTime();
        assertThatThrownBy(() -> running.awaitHttps(certificate.clientContext(), Duration.ofSeconds(1)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("HTTPS on port " + (port + 1) + " did not answer GET / with 200 within 1 s");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
    }

    @Test
    void aServerWithoutTlsHasItsHttpsCellsMarkedNotApplicable() throws Exception {
        int port = twoFreePorts();
        startHttp(port);
        running = RunningServer.start(standIn(false), port, certificate, 0, logFile(), Duration.ofSeconds(20));
        Measurement run = measurement(running, port, certificate);

        // the HTTPS half alone: the HTTP half runs ab, which a unit test does not need
        new ConnectorsScenario(true).measureHttps(run, Duration.ofSeconds(5));

        assertThat(run.results().notApplicable()).containsExactly(
                new NotApplicable("connectors", "HTTPS keep-alive", "stand-in", ConnectorsScenario.NO_TLS),
                new NotApplicable("connectors", "HTTPS no keep-alive", "stand-in", ConnectorsScenario.NO_TLS),
                new NotApplicable("connectors", "HTTPS keep-alive (ab -k, client-bound)", "stand-in", ConnectorsScenario.NO_TLS));
        assertThat(run.results().problems()).isEmpty();
    }

    private Measurement measurement(RunningServer server, int port, LabCertificate tls) {
        RunResults results = new RunResults(new Environment("2025-06-01T10:00:00Z", "abc", "25", "", "6.8", "cpu", 2, 0, 1,
                Map.of(), "x", true));
        return new Measurement("connectors", server, port, tls, 1, 0, 1, true, certificateDir.resolve("raw"), results,
                new Progress(new PrintStream(OutputStream.nullOutputStream()), false, System::nanoTime,
                        List.of(new Progress.Plan("connectors", 1, Duration.ofSeconds(1)))));
    }

    /** A "server" process that only sleeps: the test's own listeners answer for it. */
    private static ServerSpec standIn(boolean tls) {
        return new ServerSpec("stand-in", Group.PEER, "sleep", (port, certificate, ajp, h2, webSocket, folder) -> List.of("sleep", "30"), false, tls);
    }

    private static Path logFile() {
        return certificateDir.resolve("logs").resolve("stand-in.log");
    }

    private void startHttp(int port) throws IOException {
        http = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        http.createContext("/", ConnectorsScenarioTest::hello);
        http.start();
    }

    private void startHttps(int port) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(certificate.pkcs12())) {
            store.load(in, LabCertificate.PASSWORD.toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, LabCertificate.PASSWORD.toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        https = HttpsServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        https.setHttpsConfigurator(new HttpsConfigurator(context));
        https.createContext("/", ConnectorsScenarioTest::hello);
        https.start();
    }

    private static void hello(com.sun.net.httpserver.HttpExchange exchange) throws IOException {
        byte[] body = "HelloWorld".getBytes(StandardCharsets.US_ASCII);
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** A port whose successor is free too, as the lab's HTTP and HTTPS ports are. */
    private static int twoFreePorts() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            try (ServerSocket first = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                int port = first.getLocalPort();
                if (port >= 65535) continue;
                try (ServerSocket second = new ServerSocket(port + 1, 1, java.net.InetAddress.getLoopbackAddress())) {
                    return port;
                } catch (IOException taken) {
                    // try another
                }
            }
        }
        throw new IOException("no two consecutive free ports on loopback");
    }
}
