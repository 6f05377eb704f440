package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.petrel.bench.model.RunResults;
import dev.petrel.bench.model.Sample;
import dev.petrel.bench.model.ScenarioInfo;
import dev.petrel.bench.model.ServerInfo;
import dev.petrel.bench.model.ServerInfo.Group;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the websocket scenario runs and reports: the servers that speak WebSocket, with the echo
 * asked for; the C WebSocket floor in this scenario only; its three sections; the overhead over the
 * floor; a quick step of seconds.
 */
class WebSocketScenarioTest {
    @TempDir
    Path home;

    private LabPaths paths() {
        return new LabPaths(home, Path.of("/jdk/bin/java"));
    }

    private WebSocketScenario scenario(boolean quick) {
        return new WebSocketScenario(quick, false, paths());
    }

    private static ServerSpec named(List<ServerSpec> servers, String name) {
        return servers.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void runsEveryServerThatSpeaksWebSocketWithItsFloorFirst() {
        List<ServerSpec> servers = ServerCatalog.all(paths());

        assertThat(Applicability.applicable(scenario(true), servers)).extracting(ServerSpec::name).containsExactly(
                "baseline-c-ws", "petrel-blocking", "petrel-virtual", "petrel-nio", "petrel-nio-inline", "tomcat-nio",
                "tomcat-petrel-blocking", "tomcat-petrel-virtual", "tomcat-petrel-nio", "tomcat-nio2", "tomcat-virtual",
                "jetty", "undertow", "netty-epoll", "netty-io_uring", "netty-nio", "vertx", "helidon");
        assertThat(scenario(true).notApplicable(named(servers, "baseline-c"))).contains("baseline-c-ws");
        assertThat(scenario(true).notApplicable(named(servers, "tomcat-petrel-nio"))).as("Jakarta WebSocket over Petrel's upgrade").isNull();
    }

    @Test
    void theFloorIsABaselineThatNoOtherScenarioRunsOrLists() {
        ServerSpec floor = named(ServerCatalog.all(paths()), ServerCatalog.WEBSOCKET_FLOOR);

        assertThat(floor.group()).isEqualTo(Group.BASELINE);
        assertThat(floor.onlyIn()).isEqualTo(WebSocketScenario.NAME);
        assertThat(floor.command().line(18_400, null, false, true, true, Path.of("folder")))
                .containsExactly(paths().webSocketFloorBinary().toString(), "18400");
        assertThat(Applicability.reason(new LatencyScenario(true, false), floor)).isEqualTo("the websocket scenario's own server");
        assertThat(Applicability.reason(scenario(true), floor)).isNull();
    }

    @Test
    void theEchoIsAskedOfJvmServersOnlyByThisScenario() {
        List<ServerSpec> servers = ServerCatalog.all(paths());
        String property = "-D" + ServerCatalog.WEBSOCKET_PROPERTY + "=true";

        assertThat(ServerCatalog.WEBSOCKET_PROPERTY).isEqualTo("petrel.bench.ws");
        assertThat(scenario(true).webSocket()).isTrue();
        assertThat(new LatencyScenario(true, false).webSocket()).isFalse();
        for (String name : List.of("petrel-nio", "tomcat-nio", "jetty", "undertow", "netty-epoll", "vertx", "helidon")) {
            assertThat(named(servers, name).command().line(18_400, null, false, false, true, Path.of("folder"))).contains(property);
            assertThat(named(servers, name).command().line(18_400, null, false, true, Path.of("folder"))).doesNotContain(property);
        }
    }

    @Test
    void reportsRoundTripsRateAndIdleSessionsInSectionsOfTheirOwn() {
        List<ScenarioInfo> sections = scenario(false).sections();

        assertThat(sections).extracting(ScenarioInfo::name).containsExactly("websocket", "websocket-rate", "websocket-idle");
        assertThat(sections).extracting(s -> s.primary().key()).containsExactly("mean_us", "mps", "rss_idle_mib");
        assertThat(sections.get(0).variants()).containsExactly(WebSocketScenario.TEXT_ACROSS, WebSocketScenario.TEXT_SAME,
                WebSocketScenario.BINARY_ACROSS);
        assertThat(new WebSocketScenario(false, true, paths()).info().variants())
                .containsExactly(WebSocketScenario.TEXT_SAME, WebSocketScenario.BINARY_ACROSS);
        assertThat(sections.get(2).variants()).containsExactly("10,000 idle sessions");
        assertThat(scenario(true).sections().get(2).variants()).containsExactly("300 idle sessions");
    }

    @Test
    void theOverheadIsOverTheWebSocketFloorOfTheSamePassAndVariant() {
        RunResults results = new RunResults(null);
        results.server(new ServerInfo("baseline-c-ws", Group.BASELINE, "C", null));
        results.server(new ServerInfo("petrel-nio", Group.PETREL, "Petrel", null));
        results.add(new Sample("websocket", WebSocketScenario.TEXT_SAME, "petrel-nio", 1, "mean_us", 50));
        results.add(new Sample("websocket", WebSocketScenario.TEXT_SAME, "baseline-c-ws", 1, "mean_us", 30));
        results.add(new Sample("latency", LatencyScenario.SAME_CPU, "petrel-nio", 1, "mean_us", 70));

        scenario(true).derive(results);

        assertThat(results.samples().stream().filter(s -> s.metric().equals("overhead_us")))
                .extracting(Sample::scenario, Sample::server, Sample::value)
                .containsExactlyInAnyOrder(tuple("websocket", "petrel-nio", 20.0), tuple("websocket", "baseline-c-ws", 0.0));
    }

    @Test
    void aQuickStepTakesSecondsAndAFullOneLessThanTwoMinutes() {
        assertThat(scenario(true).stepEstimate()).isBetween(Duration.ofSeconds(3), Duration.ofSeconds(10));
        assertThat(scenario(false).stepEstimate()).isBetween(Duration.ofSeconds(30), Duration.ofSeconds(120));
    }
}
