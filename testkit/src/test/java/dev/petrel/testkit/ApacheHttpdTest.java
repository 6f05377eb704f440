package dev.petrel.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.testkit.ApacheHttpd.AjpModule;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The kit end to end: a real httpd from Debian's packages, through mod_jk and mod_proxy_ajp, in
 * front of {@link FakeAjpBackend}. Skipped (not failed) where httpd is not installed.
 */
@Timeout(60)
class ApacheHttpdTest {

    private FakeAjpBackend backend;

    @BeforeEach
    void setUp() throws IOException {
        backend = new FakeAjpBackend();
    }

    @AfterEach
    void tearDown() throws IOException {
        backend.close();
        assertThat(backend.errors()).as("AJP protocol errors seen by the fake backend").isEmpty();
    }

    private static void assumeHttpd() {
        var reason = ApacheHttpd.unavailableReason();
        Assumptions.assumeTrue(reason.isEmpty(), reason.orElse(""));
    }

    /** A small pool: these tests send a request at a time, and the machine is shared. */
    private ApacheHttpd.Builder httpd(AjpModule module) {
        assumeHttpd();
        return ApacheHttpd.builder(module).backend("127.0.0.1", backend.port()).threadsPerChild(4).maxRequestWorkers(8);
    }

    /** A GET on a new connection each time, so that nothing pooled survives a restart. */
    private static HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build()) {
            return client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("timed out waiting for: " + what);
            Thread.sleep(20);
        }
    }

    @ParameterizedTest
    @EnumSource(AjpModule.class)
    void getIsForwardedAndAnswered(AjpModule module) throws Exception {
        try (ApacheHttpd httpd = httpd(module).start()) {
            HttpResponse<String> r = get(httpd.uri("/hello/world?a=1&b=2"));

            assertThat(r.statusCode()).as(httpd.errorLog()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("backend saw /hello/world");
            assertThat(r.headers().firstValue("Content-Type")).hasValue("text/plain");
            assertThat(backend.forwards()).hasSize(1);
            FakeAjpBackend.Forward f = backend.forwards().getFirst();
            assertThat(f.method()).isEqualTo("GET");
            assertThat(f.uri()).isEqualTo("/hello/world");
            assertThat(f.attribute("query_string")).isEqualTo("a=1&b=2");
            assertThat(f.secret()).as("no secret configured").isNull();
            assertThat(f.remoteAddr()).isEqualTo("127.0.0.1");
            // What each module sends: the backend's attribute allow-list is written from this.
            System.out.println(module + " FORWARD_REQUEST: " + f.describe());
        }
    }

    @ParameterizedTest
    @EnumSource(AjpModule.class)
    void theSecretReachesTheBackend(AjpModule module) throws Exception {
        try (ApacheHttpd httpd = httpd(module).secret("s3cret-Value.1").start()) {
            assertThat(get(httpd.uri("/")).statusCode()).as(httpd.errorLog()).isEqualTo(200);

            assertThat(backend.forwards()).singleElement()
                    .satisfies(f -> assertThat(f.secret()).isEqualTo("s3cret-Value.1"));
            System.out.println(module + " FORWARD_REQUEST with secret: " + backend.forwards().getFirst().describe());
        }
    }

    @ParameterizedTest
    @EnumSource(AjpModule.class)
    void onlyThePrefixIsForwarded(AjpModule module) throws Exception {
        try (ApacheHttpd httpd = httpd(module).path("/app/").start()) {
            assertThat(get(httpd.uri("/app/x?q")).statusCode()).as(httpd.errorLog()).isEqualTo(200);
            assertThat(get(httpd.uri("/app")).statusCode()).isEqualTo(200);
            assertThat(get(httpd.uri("/other")).statusCode()).isEqualTo(404);
            assertThat(get(httpd.uri("/apple")).statusCode()).isEqualTo(404);
            assertThat(get(httpd.uri("/")).statusCode()).isEqualTo(404);

            assertThat(backend.forwards()).extracting(FakeAjpBackend.Forward::uri).containsExactly("/app/x", "/app");
        }
    }

    @ParameterizedTest
    @EnumSource(AjpModule.class)
    void restartClosesBackendConnectionsAndServesAgain(AjpModule module) throws Exception {
        try (ApacheHttpd httpd = httpd(module).start()) {
            assertThat(get(httpd.uri("/before")).statusCode()).as(httpd.errorLog()).isEqualTo(200);
            int port = httpd.port();
            long pid = httpd.mainPid();
            int acceptedBefore = backend.accepted();
            assertThat(acceptedBefore).isPositive();

            httpd.restart();

            assertThat(httpd.port()).isEqualTo(port);
            assertThat(httpd.mainPid()).isNotEqualTo(pid);
            assertThat(ApacheHttpd.isRunning(pid)).isFalse();
            await("the old AJP connections closed", () -> backend.closedByPeer() >= acceptedBefore);
            HttpResponse<String> r = get(httpd.uri("/after"));
            assertThat(r.statusCode()).as(httpd.errorLog()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("backend saw /after");
            assertThat(backend.accepted()).isGreaterThan(acceptedBefore);
        }
    }

    @ParameterizedTest
    @EnumSource(AjpModule.class)
    void pidsThenCloseLeavesNoProcess(AjpModule module) throws Exception {
        assumeHttpd();
        // httpd's own pool defaults (25 threads, 150 workers: 6 children), as the lab runs it
        ApacheHttpd httpd = ApacheHttpd.builder(module).backend("127.0.0.1", backend.port()).start();
        Path root = httpd.serverRoot();
        long main = httpd.mainPid();
        List<Long> pids;
        try {
            assertThat(Files.readString(root.resolve("logs/httpd.pid")).trim()).isEqualTo(Long.toString(main));
            pids = httpd.pids();
            assertThat(pids).first().isEqualTo(main);
            assertThat(pids).hasSizeGreaterThanOrEqualTo(2);
            assertThat(pids).allMatch(ApacheHttpd::isRunning);
            assertThat(get(httpd.uri("/")).statusCode()).as(httpd.errorLog()).isEqualTo(200);
        } finally {
            httpd.close();
        }

        assertThat(ApacheHttpd.isRunning(main)).as("main process after close()").isFalse();
        assertThat(pids).noneMatch(ApacheHttpd::isRunning);
        assertThat(httpd.pids()).isEmpty();
        assertThat(root).doesNotExist();
        httpd.close(); // idempotent
        httpd.stop();
    }

    @ParameterizedTest
    @EnumSource(AjpModule.class)
    void stopIsBoundedWithARequestInFlight(AjpModule module) throws Exception {
        try (ApacheHttpd httpd = httpd(module).start();
             HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            var pending = client.sendAsync(HttpRequest.newBuilder(httpd.uri("/slow?sleep=30000")).build(),
                    HttpResponse.BodyHandlers.discarding());
            await("the slow request at the backend",
                    () -> backend.forwards().stream().anyMatch(f -> f.uri().equals("/slow")));
            List<Long> pids = httpd.pids();
            long t0 = System.nanoTime();

            httpd.stop();

            // the child blocked on the backend takes the 2 s grace, then a SIGKILL
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(8));
            assertThat(pids).noneMatch(ApacheHttpd::isRunning);
            assertThat(pending).failsWithin(Duration.ofSeconds(10));
            httpd.stop(); // idempotent
        }
    }

    @ParameterizedTest
    @EnumSource(AjpModule.class)
    void cpingProbesTheBackend(AjpModule module) throws Exception {
        try (ApacheHttpd httpd = httpd(module).cping(true).start()) {
            assertThat(get(httpd.uri("/ping")).statusCode()).as(httpd.errorLog()).isEqualTo(200);
            assertThat(backend.cpings()).isPositive();
        }
    }

    @ParameterizedTest
    @EnumSource(AjpModule.class)
    void packetSizeAllowsLargerPackets(AjpModule module) throws Exception {
        // 12,000 bytes in one SEND_BODY_CHUNK do not fit an 8 KiB packet, and fit a 16 KiB one
        try (ApacheHttpd httpd = httpd(module).start()) {
            assertThat(get(httpd.uri("/big?size=12000")).statusCode()).isBetween(500, 599);
        }
        try (ApacheHttpd httpd = httpd(module).packetSize(16384).start()) {
            HttpResponse<String> r = get(httpd.uri("/big?size=12000"));
            assertThat(r.statusCode()).as(httpd.errorLog()).isEqualTo(200);
            assertThat(r.body()).hasSize(12000);
        }
    }

    @ParameterizedTest
    @EnumSource(AjpModule.class)
    void aGivenDirectoryIsKeptAndHoldsConfigAndLogs(AjpModule module, @TempDir Path dir) throws Exception {
        Path root = dir.resolve("httpd");
        try (ApacheHttpd httpd = httpd(module).directory(root).start()) {
            assertThat(httpd.serverRoot()).isEqualTo(root);
            assertThat(get(httpd.uri("/")).statusCode()).isEqualTo(200);
            assertThat(httpd.errorLog()).contains("resuming normal operations");
            if (module == AjpModule.MOD_JK) {
                assertThat(httpd.errorLog()).contains("--- mod_jk.log ---").contains("mod_jk/1.2");
                assertThat(root.resolve("workers.properties")).exists();
            }
        }
        assertThat(root.resolve("httpd.conf")).exists();
        assertThat(root.resolve("logs/error_log")).content().contains("caught SIGTERM");
    }

    @Test
    void aBadConfigFailsWithTheErrorAndLeavesNothingBehind() throws Exception {
        assumeHttpd();
        assertThatThrownBy(() -> ApacheHttpd.builder(AjpModule.MOD_PROXY_AJP).backend("127.0.0.1", backend.port())
                .extraConfig("NoSuchDirective here").start())
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Invalid command 'NoSuchDirective'")
                .satisfies(e -> {
                    // the message names the config: its temporary folder is gone with everything in it
                    var m = java.util.regex.Pattern.compile("(/\\S+)/httpd\\.conf").matcher(e.getMessage());
                    assertThat(m.find()).as(e.getMessage()).isTrue();
                    assertThat(Path.of(m.group(1))).doesNotExist();
                });
    }

    @Test
    void aTakenFixedPortFailsWithTheReason() throws Exception {
        assumeHttpd();
        try (var taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.ofLiteral("127.0.0.1"))) {
            assertThatThrownBy(() -> ApacheHttpd.builder(AjpModule.MOD_JK).backend("127.0.0.1", backend.port())
                    .port(taken.getLocalPort()).start())
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("Address already in use");
        }
    }

    @Test
    void theBuilderRejectsWhatHttpdWouldMisread() {
        ApacheHttpd.Builder b = ApacheHttpd.builder(AjpModule.MOD_JK);
        assertThatThrownBy(b::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("backend");
        assertThatThrownBy(() -> b.packetSize(4096)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.packetSize(65537)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.secret("has space")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.secret("$(x)")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.path("app")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.path("/a b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.backend("127.0.0.1", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.port(65536)).isInstanceOf(IllegalArgumentException.class);
        b.secret(null).secret("Ab0-._~!%&*+,/:;<=>?@[]^{|}").packetSize(65536).path("/");
    }

    /** A GET with a session cookie, on a new connection. */
    private static HttpResponse<String> getWithCookie(URI uri, String cookie) throws IOException, InterruptedException {
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build()) {
            return client.send(HttpRequest.newBuilder(uri).header("Cookie", cookie).timeout(Duration.ofSeconds(20)).build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }

    @Test
    void aBalancerSpreadsRequestsKeepsASessionOnItsRouteAndLeavesAMemberThatIsGone() throws Exception {
        assumeHttpd();
        FakeAjpBackend second = new FakeAjpBackend(); // closed in the middle of the test: not a try resource
        try (ApacheHttpd httpd = ApacheHttpd.builder(AjpModule.MOD_JK)
                .balancer(List.of(new ApacheHttpd.BalancerMember("p1", "127.0.0.1", backend.port()),
                        new ApacheHttpd.BalancerMember("p2", "127.0.0.1", second.port())))
                .recoverTime(Duration.ofSeconds(1)).threadsPerChild(4).maxRequestWorkers(8).start()) {
            for (int i = 0; i < 10; i++) assertThat(get(httpd.uri("/spread")).statusCode()).as(httpd.errorLog()).isEqualTo(200);
            assertThat(backend.forwards()).as("p1's share").isNotEmpty();
            assertThat(second.forwards()).as("p2's share").isNotEmpty();

            // a session id ending in ".p2" (Tomcat's jvmRoute) stays on p2
            int p1Before = backend.forwards().size();
            int p2Before = second.forwards().size();
            for (int i = 0; i < 5; i++) {
                assertThat(getWithCookie(httpd.uri("/sticky"), "JSESSIONID=ABC.p2").statusCode()).isEqualTo(200);
            }
            assertThat(second.forwards()).hasSize(p2Before + 5);
            assertThat(backend.forwards()).hasSize(p1Before);

            // p2 gone: its sessions' requests are answered by p1, and the status worker says p2 is in error
            second.close();
            for (int i = 0; i < 5; i++) {
                HttpResponse<String> r = getWithCookie(httpd.uri("/moved"), "JSESSIONID=ABC.p2");
                assertThat(r.statusCode()).as(httpd.errorLog()).isEqualTo(200);
                assertThat(r.body()).isEqualTo("backend saw /moved");
            }
            assertThat(backend.forwards()).hasSize(p1Before + 5);
            assertThat(httpd.balancerStatus()).contains("worker.p1.state=OK", "worker.p2.state=ERR");
            assertThat(second.errors()).isEmpty();
        } finally {
            second.close();
        }
    }

    @Test
    void aBalancerIsMadeOfTwoDistinctMembersOfModJk() {
        ApacheHttpd.BalancerMember one = new ApacheHttpd.BalancerMember("p1", "127.0.0.1", 8009);
        assertThatThrownBy(() -> ApacheHttpd.builder(AjpModule.MOD_JK).balancer(List.of(one)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ApacheHttpd.builder(AjpModule.MOD_JK).balancer(List.of(one, one)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ApacheHttpd.builder(AjpModule.MOD_PROXY_AJP).balancer(List.of(one, one)))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new ApacheHttpd.BalancerMember("p 1", "127.0.0.1", 8009))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
