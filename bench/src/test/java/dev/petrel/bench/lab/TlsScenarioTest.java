package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.bench.model.ScenarioInfo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tls scenario's two sections, its tools named in the report, and a quick run that stays short. */
class TlsScenarioTest {
    @Test
    void twoSectionsOneOfHandshakeCostsOneOfTheColdStartTail() {
        TlsScenario tls = new TlsScenario(true);

        assertThat(tls.sections()).extracting(ScenarioInfo::name).containsExactly("tls", "tls-cold-start");
        assertThat(tls.info().variants()).containsExactly(
                "full handshakes, ab -c 100", "full handshakes, s_time -new", "resumed, s_time -reuse");
        assertThat(tls.coldStart().variants()).containsExactly("cold start, wrk -c 100", "warm, wrk -c 100");
        // lower CPU per handshake and a lower p99 are better: the headline's orientation
        assertThat(tls.info().primary().key()).isEqualTo("cpu_us_per_handshake");
        assertThat(tls.info().primary().higherIsBetter()).isFalse();
        assertThat(tls.coldStart().primary().key()).isEqualTo("p99_ms");
        assertThat(tls.coldStart().primary().higherIsBetter()).isFalse();
        assertThat(tls.https()).isTrue();
        assertThat(tls.sections().stream().flatMap(s -> s.variants().stream())).allMatch(tls::overTls);
        assertThat(tls.tools()).containsExactlyInAnyOrder(LoadTool.AB, LoadTool.WRK, LoadTool.OPENSSL);
    }

    @Test
    void theReportNamesTheToolOfEachFigureAndWhyCpuPerHandshakeIsTheHeadline() {
        TlsScenario tls = new TlsScenario(false);

        assertThat(tls.info().method()).contains("`ab -c 100 -n 5000 https://127.0.0.1/` without keep-alive",
                "`openssl s_time -www / -new` (or `-reuse`) `-time 10`", "`openssl s_client -sess_out` then `-sess_in`",
                "0.9-1.2k full handshakes/s", "CPU per handshake is the figure to compare", "/proc");
        assertThat(tls.coldStart().method()).contains("`wrk -t1 -c 100 -d 10s --latency https://127.0.0.1/`",
                "no warm-up");
    }

    @Test
    void quickStepsAreSecondsLongAndTheWholeQuickScenarioStaysUnderTwoMinutes() {
        TlsScenario quick = new TlsScenario(true);

        assertThat(quick.handshakes()).isEqualTo(500);
        assertThat(quick.warmup()).isEqualTo(200);
        assertThat(quick.sTimeDuration()).isEqualTo(Duration.ofSeconds(1));
        assertThat(quick.tailDuration()).isEqualTo(Duration.ofSeconds(2));
        assertThat(quick.stepEstimate().multipliedBy(TlsScenario.SERVERS.size())).isLessThanOrEqualTo(Duration.ofMinutes(2));

        TlsScenario full = new TlsScenario(false);
        assertThat(full.handshakes()).isEqualTo(5_000);
        assertThat(full.tailDuration()).isEqualTo(Duration.ofSeconds(10));
        // warm until the JIT has compiled the path of a new connection: 20 s, or 20,000 handshakes if sooner
        assertThat(full.warmup()).isEqualTo(20_000);
        assertThat(full.warmupDuration()).isEqualTo(Duration.ofSeconds(20));
        assertThat(full.info().method()).contains("`ab -c 100 -t 20 -n 20000`");
    }

    @Test
    void oneServerPerTlsStack() {
        assertThat(TlsScenario.SERVERS).containsExactly("petrel-nio", "petrel-nio-native", "tomcat-nio", "jetty", "undertow",
                "netty-epoll", "netty-epoll-boringssl", "nginx");
        // and 'all' runs it, CI's quick run too
        assertThat(LabOptions.SCENARIOS).contains("tls");
    }

    @Test
    void anotherBuildsPetrelServersOfTheSetRunToo(@TempDir Path home) {
        TlsScenario tls = new TlsScenario(false);
        List<ServerSpec> servers = ServerCatalog.all(new LabPaths(home, Path.of("/jdk/bin/java")), home.resolve("before/lib"));
        assertThat(servers).filteredOn(server -> tls.notApplicable(server) == null).extracting(ServerSpec::name)
                .contains("petrel-nio-native", "before-petrel-nio-native", "before-petrel-nio")
                .doesNotContain("before-petrel-virtual", "before-petrel-nio-inline", "petrel-blocking");
    }
}
