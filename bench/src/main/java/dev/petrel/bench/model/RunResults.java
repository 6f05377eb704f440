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
    private final List<NotApplicable> notApplicable = new ArrayList<>();
    private final Map<String, List<String>> notes = new LinkedHashMap<>();

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

    /** Marks a cell as not applicable; marking the same cell again keeps the first reason. */
    public synchronized void notApplicable(NotApplicable cell) {
        boolean known = notApplicable.stream().anyMatch(n -> n.scenario().equals(cell.scenario())
                && n.variant().equals(cell.variant()) && n.server().equals(cell.server()));
        if (!known) notApplicable.add(cell);
    }

    /**
     * Adds a line the report shows under a scenario's tables, such as the TLS session a load tool
     * negotiated with a server; a line already there is not repeated (every pass may say it).
     */
    public synchronized void note(String scenario, String text) {
        List<String> lines = notes.computeIfAbsent(scenario, k -> new ArrayList<>());
        if (!lines.contains(text)) lines.add(text);
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

    /** The cells marked not applicable, in the order marked. */
    public synchronized List<NotApplicable> notApplicable() {
        return List.copyOf(notApplicable);
    }

    /** The notes of a scenario, in the order added. */
    public synchronized List<String> notes(String scenario) {
        return List.copyOf(notes.getOrDefault(scenario, List.of()));
    }

    /** The problems. */
    public synchronized List<String> problems() {
        return List.copyOf(problems);
    }
}
