package dev.petrel.bench.lab;

import dev.petrel.bench.model.NotApplicable;
import dev.petrel.bench.model.RunResults;
import dev.petrel.bench.model.Sample;
import java.nio.file.Path;

/**
 * What a scenario needs to measure one server in one pass: where it listens, which CPUs to use,
 * where raw output goes, and where samples go. {@code tls} is the lab certificate when the
 * scenario asked for HTTPS ({@link Scenario#https()}), else {@code null}; a server that can serve
 * HTTPS then does so on {@code port + 1}; when it asked for AJP ({@link Scenario#ajp()}), a server
 * that speaks AJP does so on {@code port + 2}.
 */
record Measurement(String scenario, RunningServer server, int port, LabCertificate tls, int pass, int serverCpu,
                   int clientCpu, boolean quick, Path rawDir, RunResults results, Progress progress) {

    String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    /** The HTTPS URL of {@code path}: 127.0.0.1, which the lab certificate names, on {@code port + 1}. */
    String httpsUrl(String path) {
        return "https://127.0.0.1:" + (port + 1) + path;
    }

    /** The AJP port of a server that speaks AJP, when the scenario asked for it. */
    int ajpPort() {
        return port + 2;
    }

    /**
     * The same server and pass, recording into another section of the report (one of the scenario's
     * {@link Scenario#sections()}); raw output then goes under that section's name too.
     */
    Measurement inSection(String section) {
        return new Measurement(section, server, port, tls, pass, serverCpu, clientCpu, quick, rawDir, results, progress);
    }

    String serverName() {
        return server.spec().name();
    }

    /** The file for the raw output of one tool run. */
    Path raw(String variant, String what) {
        return rawDir.resolve(scenario).resolve(slug(variant)).resolve(serverName() + "-pass" + pass + "-" + what + ".txt");
    }

    void record(String variant, String metric, double value) {
        results.add(new Sample(scenario, variant, serverName(), pass, metric, value, serverCpu));
    }

    /** Marks this server's cell of {@code variant} as having no figure by design, with the reason. */
    void notApplicable(String variant, String reason) {
        results.notApplicable(new NotApplicable(scenario, variant, serverName(), reason));
    }

    /** A line for the report under this scenario's tables (said once however many passes say it). */
    void note(String text) {
        results.note(scenario, text);
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
