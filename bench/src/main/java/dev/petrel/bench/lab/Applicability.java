package dev.petrel.bench.lab;

import java.util.List;

/**
 * Whether a scenario can give a server a figure at all, decided before the server is started, from
 * what each declares: the kind of application a scenario measures ({@link Scenario#application()}),
 * the load tools it sends requests with ({@link Scenario#tools()}) against the tools a server cannot
 * be measured by ({@link ServerSpec#unmeasurableBy()}), and anything the scenario itself rules out
 * ({@link Scenario#notApplicable}). A server with a reason is not run; the report says "n/a" and
 * why in each of its cells instead of listing failures.
 *
 * <p>One reason is decided per variant: a server measured over TLS only
 * ({@link ServerSpec#onlyOverTls()}) has no figure in the variants over plain HTTP
 * ({@link Scenario#overTls}). It runs for the scenario's TLS variants and is not run at all by a
 * scenario that has none.
 */
final class Applicability {
    private Applicability() {}

    /** Why {@code scenario} can give {@code server} no figure, in a few words, or {@code null} when it can. */
    static String reason(Scenario scenario, ServerSpec server) {
        if (!server.servesScenario(scenario.info().name())) {
            return "the " + server.onlyIn() + " scenario's own server";
        }
        if (server.application() != scenario.application()) {
            return server.application() ? "serves the Spring Boot application, measured by the tomcat scenarios"
                    : "serves the lab's HelloWorld; the tomcat scenarios measure the Spring Boot application";
        }
        for (LoadTool tool : scenario.tools()) {
            String reason = server.unmeasurableBy().get(tool);
            if (reason != null) return "not measurable with " + tool.display() + ": " + reason;
        }
        String own = scenario.notApplicable(server);
        if (own != null) return own;
        if (server.onlyOverTls() != null && variants(scenario).stream().noneMatch(scenario::overTls)) {
            return server.onlyOverTls();
        }
        return null;
    }

    /**
     * Why {@code scenario} can give {@code server} no figure in {@code variant}, or {@code null} when
     * it can: the reason for the whole scenario, else the one for plain-HTTP variants of a server
     * measured over TLS only.
     */
    static String reason(Scenario scenario, ServerSpec server, String variant) {
        String whole = reason(scenario, server);
        if (whole != null) return whole;
        return server.onlyOverTls() != null && !scenario.overTls(variant) ? server.onlyOverTls() : null;
    }

    /** Whether {@code scenario} measures {@code server} in {@code variant}: a scenario skips the variants it does not. */
    static boolean measures(Scenario scenario, ServerSpec server, String variant) {
        return reason(scenario, server, variant) == null;
    }

    /** Every variant of every section of {@code scenario}. */
    private static List<String> variants(Scenario scenario) {
        return scenario.sections().stream().flatMap(s -> s.variants().stream()).toList();
    }

    /** The servers {@code scenario} can measure, in the given order. */
    static List<ServerSpec> applicable(Scenario scenario, List<ServerSpec> servers) {
        return servers.stream().filter(s -> reason(scenario, s) == null).toList();
    }
}
