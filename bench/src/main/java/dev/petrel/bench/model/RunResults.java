package dev.petrel.bench.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything one lab run produced: where, which servers, which scenarios, every sample, and what
 * went wrong (a server that would not start, a pass whose tool failed). Filled while the run
 * goes; read by the report writers.
 */
public final class RunResults {
    private final Environment environment;
    private final Map<String, ServerInfo> servers = new LinkedHashMap<>();
    private final Map<String, ScenarioInfo> scenarios = new LinkedHashMap<>();
    private final List<Sample> samples = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();

    /** Results of a run on {@code environment}. */
    public RunResults(Environment environment) {
        this.environment = environment;
    }

    /** The environment. */
    public Environment environment() {
        return environment;
    }

    /** Adds or replaces a server's description. */
    public synchronized void server(ServerInfo server) {
        servers.put(server.name(), server);
    }

    /** Adds a scenario. */
    public synchronized void scenario(ScenarioInfo scenario) {
        scenarios.put(scenario.name(), scenario);
    }

    /** Records a sample. */
    public synchronized void add(Sample sample) {
        samples.add(sample);
    }

    /** Records a problem, one line of text, shown in the report. */
    public synchronized void problem(String text) {
        problems.add(text);
    }

    /** The servers, in the order added. */
    public synchronized List<ServerInfo> servers() {
        return List.copyOf(servers.values());
    }

    /** A server by name, or {@code null}. */
    public synchronized ServerInfo server(String name) {
        return servers.get(name);
    }

    /** The scenarios, in the order added. */
    public synchronized List<ScenarioInfo> scenarios() {
        return List.copyOf(scenarios.values());
    }

    /** Every sample. */
    public synchronized List<Sample> samples() {
        return Collections.unmodifiableList(new ArrayList<>(samples));
    }

    /** The problems. */
    public synchronized List<String> problems() {
        return List.copyOf(problems);
    }
}
