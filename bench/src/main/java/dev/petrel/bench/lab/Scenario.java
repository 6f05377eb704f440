package dev.petrel.bench.lab;

import dev.petrel.bench.model.RunResults;
import dev.petrel.bench.model.ScenarioInfo;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * One of the seeds' experiments. The runner starts each server (pinned, ready), hands it to
 * {@link #measure}, and stops it; the scenario warms it up and runs its load tool.
 */
interface Scenario {
    /** What the report says of this scenario. */
    ScenarioInfo info();

    /**
     * Every section of the report this scenario fills: {@link #info()} first (its name is the one on
     * the command line, of the raw output folder and of the progress lines), then any other whose
     * samples {@link #measure} records through {@link Measurement#inSection}.
     */
    default List<ScenarioInfo> sections() {
        return List.of(info());
    }

    /**
     * Why this scenario cannot run on this machine, in one line, or {@code null} when it can. Asked
     * once, before any server is started for it.
     */
    default String unavailable() {
        return null;
    }

    /**
     * Whether the servers should also serve HTTPS, on the port after their HTTP port with the lab
     * certificate. Only the scenarios that measure HTTPS ask: an idle TLS listener would add
     * JSSE's classes and contexts to the other scenarios' figures (the idle scenario's heap).
     */
    default boolean https() {
        return false;
    }

    /**
     * Whether {@code variant} (of any of {@link #sections()}) is measured over TLS. A server measured
     * over TLS only ({@link ServerSpec#onlyOverTls()}) is not applicable in the other variants, and
     * not run at all by a scenario none of whose variants is over TLS ({@link Applicability}).
     */
    default boolean overTls(String variant) {
        return false;
    }

    /**
     * Whether the servers that can should also speak AJP/1.3, on the port two after their HTTP port
     * with the lab's secret ({@link ServerSpec#ajp()}). Only the scenario that measures AJP asks.
     */
    default boolean ajp() {
        return false;
    }

    /**
     * Whether the servers that can should also speak HTTP/2: with prior knowledge (h2c) on their HTTP
     * port and by ALPN (h2) on their HTTPS port, when {@link #https()} asks for one. Only the scenario
     * that measures HTTP/2 asks, so that no other scenario's servers are changed by it.
     */
    default boolean http2() {
        return false;
    }

    /**
     * Whether the servers that can should also serve the lab's WebSocket echo on their HTTP port
     * (servers/LabWebSocket). Only the scenario that measures WebSocket asks, so that no other
     * scenario's servers are changed by it (Tomcat's WebSocket filter sees every request).
     */
    default boolean webSocket() {
        return false;
    }

    /**
     * Whether this scenario measures the Spring Boot application servers of the tomcat scenarios
     * ({@link ServerSpec#application()}) instead of the lab's HelloWorld servers. A server of the
     * other kind is left out of the scenario, and out of the report when no scenario of the run has it.
     */
    default boolean application() {
        return false;
    }

    /**
     * The load tools whose requests reach the servers themselves in this scenario (not those that
     * talk to a front end in between): a server declared unmeasurable by one of them is not run
     * ({@link Applicability}).
     */
    Set<LoadTool> tools();

    /**
     * What this scenario runs besides the servers and the lab itself, as the help names it
     * ({@code ./petrel bench --help}): programs to install ({@code ab}, {@code httpd}, ...) and
     * anything else it needs ({@code Tomcat distribution}). The lab checks for the load tools
     * among them before it starts ({@link LoadTools#REQUIRED}); by default, the programs of
     * {@link #tools()}.
     */
    default List<String> needs() {
        return tools().stream().map(LoadTool::program).filter(java.util.Objects::nonNull).sorted().toList();
    }

    /**
     * Why {@code server} can have no figure in this scenario by design, in a few words, or
     * {@code null} when it can, beyond what {@link #application()} and {@link #tools()} already
     * decide. The runner asks before starting it ({@link Applicability}): a server with a reason is
     * not started, and each of its cells in every section says "n/a" with the reason.
     */
    default String notApplicable(ServerSpec server) {
        return null;
    }

    /**
     * How long one step of this scenario (one server in one pass) is expected to take, worked out
     * from its own request counts and durations with {@link NominalTimes}: starting the server,
     * warming it up, the load itself and the pauses between. It tells how long a scenario will take
     * before it starts; the progress lines replace it with the measured time once a step has run.
     */
    Duration stepEstimate();

    /** Measures one running server in one pass, recording samples through {@code run}. */
    void measure(Measurement run) throws Exception;

    /** Figures derived from several servers of the same pass (the latency overhead over the baseline). */
    default void derive(RunResults results) {}
}
