package dev.petrel.bench.lab;

import java.util.List;

/**
 * Whether a scenario can give a server a figure at all, decided before the server is started, from
 * what each declares: the kind of application a scenario measures ({@link Scenario#application()}),
 * the load tools it sends requests with ({@link Scenario#tools()}) against the tools a server cannot
 * be measured by ({@link ServerSpec#unmeasurableBy()}), and anything the scenario itself rules out
 * ({@link Scenario#notApplicable}). A server with a reason is not run; the report says "n/a" and
 * why in each of its cells instead of listing failures.
 */
final class Applicability {
    private Applicability() {}

    /** Why {@code scenario} can give {@code server} no figure, in a few words, or {@code null} when it can. */
    static String reason(Scenario scenario, ServerSpec server) {
        if (server.application() != scenario.application()) {
            return server.application() ? "serves the Spring Boot application, measured by the tomcat scenarios"
                    : "serves the lab's HelloWorld; the tomcat scenarios measure the Spring Boot application";
        }
        for (LoadTool tool : scenario.tools()) {
            String reason = server.unmeasurableBy().get(tool);
            if (reason != null) return "not measurable with " + tool.display() + ": " + reason;
        }
        return scenario.notApplicable(server);
    }

    /** The servers {@code scenario} can measure, in the given order. */
    static List<ServerSpec> applicable(Scenario scenario, List<ServerSpec> servers) {
        return servers.stream().filter(s -> reason(scenario, s) == null).toList();
    }
}
