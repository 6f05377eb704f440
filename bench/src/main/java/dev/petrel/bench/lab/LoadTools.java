package dev.petrel.bench.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs the real load tools, pinned and bounded, keeps their raw output, and parses it. A run that
 * fails (non-zero exit, time limit, unparseable output) is recorded as a problem of the pass and
 * yields {@code null}, so one broken server never stops the lab.
 */
final class LoadTools {
    /**
     * The programs the lab checks for before it starts the scenarios that need them
     * ({@link Scenario#needs}, {@link Lab#PER_SERVER_NEEDS}), with the Debian package of each.
     */
    static final Map<String, String> REQUIRED = Map.of(
            "ab", "apache2-utils", "wrk", "wrk", "h2load", "nghttp2-client", "taskset", "util-linux", "gcc", "gcc");

    private LoadTools() {}

    /** Result of an ab run, with percentiles in µs when {@code percentiles} were asked for. */
    record Ab(AbOutput output, Map<Integer, Double> percentilesMicros) {}

    /**
     * {@code ab -r [-k] -c C -t LIMIT -n N URL}. {@code -t} comes before {@code -n}: ab
     * resets the request count to 50,000 when {@code -t} follows {@code -n}. Without {@code -q} ab
     * says after each tenth of N how many requests it has completed: the live line's figures.
     */
    static Ab ab(Measurement run, String variant, int cpu, boolean keepAlive, int concurrency, int requests,
                 Duration limit, String url, int... percentiles) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("ab", "-r"));
        if (keepAlive) command.add("-k");
        command.addAll(List.of("-c", Integer.toString(concurrency), "-t", Long.toString(limit.toSeconds()),
                "-n", Integer.toString(requests)));
        Path csv = null;
        if (percentiles.length > 0) {
            csv = run.raw(variant, "ab-percentiles").resolveSibling(run.serverName() + "-pass" + run.pass() + "-percentiles.csv");
            Files.createDirectories(csv.getParent());
            command.addAll(List.of("-e", csv.toString()));
        }
        command.add(url);
        CommandResult result = Commands.run(Commands.pinned(cpu, command), limit.plusSeconds(30), run.raw(variant, "ab"),
                live(run, LiveFigures.ab(variant, requests)));
        if (!result.ok()) {
            run.problem(variant, "ab " + (result.timedOut() ? "ran past its time limit" : "exited with " + result.exitCode())
                    + ": " + lastLine(result.output()));
            return null;
        }
        try {
            AbOutput output = AbOutput.parse(result.output());
            Map<Integer, Double> chosen = csv == null ? Map.of()
                    : AbOutput.percentilesMicros(Files.readString(csv, StandardCharsets.US_ASCII), percentiles);
            return new Ab(output, chosen);
        } catch (IllegalArgumentException e) {
            run.problem(variant, e.getMessage());
            return null;
        }
    }

    /**
     * Whether the requests were answered with 2xx: a rate of error responses is no measure of a
     * server, so it is a problem, not a figure. (A server known to refuse ab, as Helidon 4 refuses
     * HTTP/1.0 with 505, is declared so in {@link ServerCatalog} and never run under it.)
     */
    static boolean answeredWith2xx(Measurement run, String variant, AbOutput output) {
        if (output.non2xx() == 0) return true;
        run.problem(variant, output.non2xx() + " of " + output.complete() + " responses were not 2xx "
                + "(ab speaks HTTP/1.0; see the server's response in the raw output); no figure recorded");
        return false;
    }

    /** {@code wrk -t1 -c C -d SECONDS --timeout 10s URL}. */
    static WrkOutput wrk(Measurement run, String variant, int cpu, int connections, Duration duration, String url)
            throws IOException, InterruptedException {
        return wrk(run, variant, cpu, connections, duration, url, false);
    }

    /**
     * {@code wrk -t1 -c C -d SECONDS --timeout 10s [--latency] URL}: with {@code latency}, wrk also
     * reports its latency distribution ({@link WrkOutput#latencyPercentilesMs()}).
     */
    static WrkOutput wrk(Measurement run, String variant, int cpu, int connections, Duration duration, String url,
                         boolean latency) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("wrk", "-t1", "-c", Integer.toString(connections),
                "-d", duration.toSeconds() + "s", "--timeout", "10s"));
        if (latency) command.add("--latency");
        command.add(url);
        CommandResult result = Commands.run(Commands.pinned(cpu, command), duration.plusSeconds(30), run.raw(variant, "wrk"),
                live(run, LiveFigures.wrk(variant, duration)));
        if (!result.ok()) {
            run.problem(variant, "wrk " + (result.timedOut() ? "ran past its time limit" : "exited with " + result.exitCode()));
            return null;
        }
        try {
            return WrkOutput.parse(result.output());
        } catch (IllegalArgumentException e) {
            run.problem(variant, e.getMessage());
            return null;
        }
    }

    /**
     * {@code h2load --h1 -t1 -c CLIENTS -n REQUESTS -r RATE --rate-period 1s}: clients are
     * created RATE per second, each sends its share of the requests one after the other. Idle
     * connections give up after {@code -N} seconds so that a server that stopped answering counts
     * as errors rather than hanging the lab.
     */
    static H2loadOutput h2load(Measurement run, String variant, int cpu, int clients, int requests, int ratePerSecond,
                               Duration limit, String url) throws IOException, InterruptedException {
        List<String> command = List.of("h2load", "--h1", "-t1", "-c", Integer.toString(clients),
                "-n", Integer.toString(requests), "-r", Integer.toString(ratePerSecond), "--rate-period", "1s",
                "-N", "20s", url);
        CommandResult result = Commands.run(Commands.pinned(cpu, command), limit, run.raw(variant, "h2load"),
                live(run, LiveFigures.h2load(variant, clients)));
        if (result.timedOut()) {
            run.problem(variant, "h2load ran past its " + limit.toSeconds() + " s limit and was stopped");
            return null;
        }
        try {
            return H2loadOutput.parse(result.output());
        } catch (IllegalArgumentException e) {
            run.problem(variant, e.getMessage() + " (exit " + result.exitCode() + ")");
            return null;
        }
    }

    /**
     * {@code h2load -t1 -c CLIENTS -m STREAMS -n REQUESTS URL}, over HTTP/2: prior knowledge (h2c) on an
     * {@code http} URL, ALPN h2 on an {@code https} one (h2load offers h2 only and gives up on a
     * connection that did not negotiate it). Every client opens its connection at once and keeps
     * STREAMS requests in flight on it until the REQUESTS are done. Bounded by {@code limit}: h2load is
     * stopped then, and the run is a problem; idle connections give up after {@code -N}.
     */
    static H2loadOutput h2loadH2(Measurement run, String variant, int cpu, int clients, int streams, int requests,
                                 Duration limit, String url) throws IOException, InterruptedException {
        List<String> command = List.of("h2load", "-t1", "-c", Integer.toString(clients), "-m", Integer.toString(streams),
                "-n", Integer.toString(requests), "-N", "10s", url);
        CommandResult result = Commands.run(Commands.pinned(cpu, command), limit, run.raw(variant, "h2load"),
                live(run, LiveFigures.h2loadDone(variant, requests)));
        if (result.timedOut()) {
            run.problem(variant, "h2load ran past its " + limit.toSeconds() + " s limit and was stopped");
            return null;
        }
        try {
            return H2loadOutput.parse(result.output());
        } catch (IllegalArgumentException e) {
            run.problem(variant, e.getMessage() + " (exit " + result.exitCode() + "): " + lastLine(result.output()));
            return null;
        }
    }

    /** A watcher for one tool run that shows {@code figures} as the live line while it runs, and wipes it after. */
    static Commands.Watcher live(Measurement run, LiveFigures figures) {
        return new Commands.Watcher() {
            @Override
            public void seen(String output, long elapsedNanos) {
                run.progress().live(figures.line(output, elapsedNanos));
            }

            @Override
            public void ended() {
                run.progress().liveDone();
            }
        };
    }

    private static String lastLine(String output) {
        List<String> lines = output.lines().filter(l -> !l.isBlank()).toList();
        return lines.isEmpty() ? "(no output)" : lines.getLast().strip();
    }
}
