package dev.petrel.bench.lab;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The command line of {@code ./petrel bench}.
 *
 * @param scenarios scenario names, in the order to run
 * @param servers server names to run, or empty for all
 * @param quick whether to run every scenario in seconds (a smoke test of the lab, not a measurement)
 * @param smoke whether to run quick and start each server only in the scenarios that start it a new
 *     way ({@link SmokeSelection}): the lab's check in CI
 * @param passes passes per scenario, or 0 for each scenario's default ({@link #passesFor})
 * @param publish whether to copy the report to bench/RESULTS.md
 * @param sameCpuOnly whether to pin tools to the servers' CPU everywhere (for a one-CPU machine)
 * @param before another build's {@code bench/target/lib} whose Petrel servers run beside this one's, or null
 * @param minutes the soak's duration per server, or null for its default
 * @param seed the soak's seed, or null for one drawn and printed
 */
record LabOptions(List<String> scenarios, Set<String> servers, boolean quick, boolean smoke, int passes, boolean publish,
                  boolean sameCpuOnly, Path before, Integer minutes, Long seed) {
    static final List<String> SCENARIOS = List.of("latency", "connectors", "single-cpu", "tail", "ramp", "idle", "idle-tls", "ajp",
            "tomcat", "tomcat-ramp", "tls", "h2", "websocket", "failover", "soak");

    /** The scenarios that are not per server: each runs its own set of processes. */
    static final List<String> APART = List.of("failover", "soak");

    /**
     * The help, kept in one file, {@code help.txt} beside this class in the resources: the launcher
     * prints it without building the lab (a fresh clone has none), and the lab prints it from its
     * class path.
     */
    static final String HELP = help();

    private static String help() {
        try (InputStream in = LabOptions.class.getResourceAsStream("help.txt")) {
            if (in == null) throw new IllegalStateException("help.txt is missing from the lab's class path");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** These options with other scenarios: the failover and soak scenarios run apart from the per-server ones. */
    LabOptions withScenarios(List<String> names) {
        return new LabOptions(List.copyOf(names), servers, quick, smoke, passes, publish, sameCpuOnly, before, minutes, seed);
    }

    /** Passes for {@code scenario}: as asked, else 3 (1 for the ramp, whose pass is long). */
    int passesFor(String scenario) {
        if (passes > 0) return passes;
        return scenario.equals("ramp") || scenario.equals("tomcat-ramp") ? 1 : 3;
    }

    static LabOptions parse(List<String> args) throws LabException {
        List<String> scenarios = new ArrayList<>();
        Set<String> servers = new LinkedHashSet<>();
        boolean quick = false;
        boolean smoke = false;
        boolean publish = false;
        boolean sameCpuOnly = false;
        int passes = -1;
        Path before = null;
        Integer minutes = null;
        Long seed = null;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            switch (arg) {
                case "--quick" -> quick = true;
                case "--smoke" -> {
                    smoke = true;
                    quick = true;
                }
                case "--publish" -> publish = true;
                case "--same-cpu-only" -> sameCpuOnly = true;
                case "--servers" -> {
                    if (++i >= args.size()) throw new LabException("--servers needs a comma-separated list");
                    for (String name : args.get(i).split(",")) if (!name.isBlank()) servers.add(name.strip());
                }
                case "--passes" -> {
                    if (++i >= args.size()) throw new LabException("--passes needs a number");
                    try {
                        passes = Integer.parseInt(args.get(i));
                    } catch (NumberFormatException e) {
                        passes = 0;
                    }
                    if (passes < 1 || passes > 20) throw new LabException("--passes takes a number from 1 to 20");
                }
                case "--before" -> {
                    if (++i >= args.size()) throw new LabException("--before needs a folder: another build's bench/target/lib");
                    before = Path.of(args.get(i)).toAbsolutePath();
                    if (!Files.isDirectory(before)) throw new LabException("--before: " + before + " is not a folder");
                }
                case "--minutes" -> {
                    if (++i >= args.size()) throw new LabException("--minutes needs a number");
                    minutes = wholeNumber(args.get(i));
                    if (minutes < 1 || minutes > 600) throw new LabException("--minutes takes a number from 1 to 600");
                }
                case "--seed" -> {
                    if (++i >= args.size()) throw new LabException("--seed needs a number");
                    try {
                        seed = Long.parseLong(args.get(i));
                    } catch (NumberFormatException e) {
                        throw new LabException("--seed takes a whole number, not '" + args.get(i) + "'");
                    }
                }
                case "all" -> scenarios.addAll(SCENARIOS);
                default -> {
                    if (arg.startsWith("-")) throw new LabException("unknown option '" + arg + "'");
                    if (!SCENARIOS.contains(arg)) {
                        throw new LabException("unknown scenario '" + arg + "' (choose from " + String.join(", ", SCENARIOS) + ", all)");
                    }
                    scenarios.add(arg);
                }
            }
        }
        if (scenarios.isEmpty()) throw new LabException("name a scenario (" + String.join(", ", SCENARIOS) + ", all)");
        if (passes < 0) passes = quick ? 1 : 0;
        return new LabOptions(List.copyOf(new LinkedHashSet<>(scenarios)), servers, quick, smoke, passes, publish, sameCpuOnly, before,
                minutes, seed);
    }

    private static int wholeNumber(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
