package dev.petrel.bench.lab;

import dev.petrel.bench.model.ServerInfo;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which servers each scenario of a {@code --smoke} run starts: enough to prove every scenario and
 * every server's launcher work, in a fraction of a {@code --quick} run of all of them (CI runs it).
 *
 * <p>A server is started the way a scenario asks (plain, with HTTPS, AJP, HTTP/2 or the WebSocket
 * echo: {@link Launch}), and each way is code of its own in the server's launcher. So a server runs
 * in the first scenario that starts it a way it has not been started yet, and is left out of the
 * others that would only start it the same way again. The baselines and the first Petrel server of
 * each scenario run in every scenario, so that each scenario's measuring and its report's ratios run
 * too.
 */
final class SmokeSelection {
    private SmokeSelection() {}

    /**
     * How a scenario starts its servers: each is a different path through a server's launcher, but
     * one with HTTPS covers the same without it (the server's plain port is there too).
     */
    record Launch(boolean https, boolean ajp, boolean http2, boolean webSocket, boolean application) {
        static Launch of(Scenario scenario) {
            return new Launch(scenario.https(), scenario.ajp(), scenario.http2(), scenario.webSocket(), scenario.application());
        }

        /** This launch with HTTPS beside: a server started so serves plain HTTP the same way too. */
        Launch withHttps() {
            return new Launch(true, ajp, http2, webSocket, application);
        }
    }

    /**
     * For each of {@code scenarios}, in order, the servers of {@code applicable} (that scenario's
     * applicable servers, in the run's order) that a smoke run starts.
     */
    static Map<Scenario, List<ServerSpec>> select(List<Scenario> scenarios, Map<Scenario, List<ServerSpec>> applicable) {
        Map<Scenario, List<ServerSpec>> chosen = new LinkedHashMap<>();
        Set<String> started = new HashSet<>(); // server name and launch, as "name|launch"
        for (Scenario scenario : scenarios) {
            Launch launch = Launch.of(scenario);
            List<ServerSpec> run = new ArrayList<>();
            boolean petrelChosen = false;
            for (ServerSpec spec : applicable.get(scenario)) {
                boolean firstPetrel = spec.group() == ServerInfo.Group.PETREL && !petrelChosen;
                boolean newLaunch = !started.contains(spec.name() + "|" + launch.withHttps()) && started.add(spec.name() + "|" + launch);
                if (spec.group() == ServerInfo.Group.BASELINE || firstPetrel || newLaunch) {
                    run.add(spec);
                    if (spec.group() == ServerInfo.Group.PETREL) petrelChosen = true;
                }
            }
            chosen.put(scenario, List.copyOf(run));
        }
        return chosen;
    }
}
