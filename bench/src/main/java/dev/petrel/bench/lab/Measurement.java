package dev.petrel.bench.lab;

import dev.petrel.bench.model.RunResults;
import dev.petrel.bench.model.Sample;
import java.nio.file.Path;

/**
 * What a scenario needs to measure one server in one pass: where it listens, which CPUs to use,
 * where raw output goes, and where samples go.
 */
record Measurement(String scenario, RunningServer server, int port, int pass, int serverCpu, int clientCpu,
                   boolean quick, Path rawDir, RunResults results, Progress progress) {

    String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    String serverName() {
        return server.spec().name();
    }

    /** The file for the raw output of one tool run. */
    Path raw(String variant, String what) {
        return rawDir.resolve(scenario).resolve(slug(variant)).resolve(serverName() + "-pass" + pass + "-" + what + ".txt");
    }

    void record(String variant, String metric, double value) {
        results.add(new Sample(scenario, variant, serverName(), pass, metric, value));
    }

    void problem(String variant, String text) {
        String line = scenario + " / " + variant + " / " + serverName() + " / pass " + pass + ": " + text;
        results.problem(line);
        progress.note("problem: " + line);
    }

    static String slug(String text) {
        return text.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
    }
}
