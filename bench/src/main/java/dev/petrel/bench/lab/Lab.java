package dev.petrel.bench.lab;

import dev.petrel.bench.model.NotApplicable;
import dev.petrel.bench.model.RunResults;
import dev.petrel.bench.model.ScenarioInfo;
import dev.petrel.bench.model.ServerInfo;
import dev.petrel.bench.report.ReportWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code ./petrel bench SCENARIO...}: runs the seeds' experiments against Petrel and its peers.
 *
 * <p>Method: each server in turn is started pinned to one CPU, waited for until it answers, warmed
 * up, measured with a real load tool pinned to the other CPU, and stopped by its PID. Passes repeat
 * in alternating server order, so that drift in the machine does not always favour the same server,
 * and with the two CPUs swapped ({@link CpuAssignment}); the report gives medians with min and max,
 * and each assignment's median. Only 127.0.0.1 is used and every tool run is bounded.
 */
public final class Lab {
    /**
     * The HTTP port of every server under test; HTTPS, when a scenario asks for it, is the next one,
     * AJP the one after.
     */
    private static final int PORT = 18_400;

    private Lab() {}

    /** Runs the lab; exits 0 when every scenario ran (problems of single servers are in the report), 1 or 2 otherwise. */
    public static void main(String[] args) {
        System.exit(run(List.of(args), System.out, System.err));
    }

    /**
     * The help is {@link LabOptions#HELP}: asked for, on {@code out} with 0; for want of a scenario,
     * on {@code err} with 2. The launcher prints the same file without building the lab.
     */
    static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty()) {
            err.print(LabOptions.HELP);
            return 2;
        }
        if (args.contains("--help") || args.contains("-h") || args.contains("help")) {
            out.print(LabOptions.HELP);
            return 0;
        }
        try {
            LabOptions options = LabOptions.parse(args);
            Path home = Path.of(System.getProperty("petrel.home", ".")).toAbsolutePath().normalize();
            LabPaths paths = new LabPaths(home, Path.of(System.getProperty("java.home"), "bin", "java"));
            List<String> perServer = options.scenarios().stream().filter(s -> !LabOptions.APART.contains(s)).toList();
            checkTools(needs(options, paths));
            if (!perServer.isEmpty()) BaselineBuild.ensure(paths, err);
            int status = perServer.isEmpty() ? 0 : runScenarios(options.withScenarios(perServer), paths, args, err);
            if (options.scenarios().contains("failover")) status = Math.max(status, Failover.run(options.quick(), paths, err));
            if (options.scenarios().contains("soak")) status = Math.max(status, Soak.run(options, paths, err));
            return status;
        } catch (LabException e) {
            err.println("petrel bench: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("petrel bench: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            err.println("petrel bench: interrupted");
            return 1;
        }
    }

    private static int runScenarios(LabOptions options, LabPaths paths, List<String> args, PrintStream err)
            throws LabException, IOException, InterruptedException {
        List<ServerSpec> selected = select(ServerCatalog.all(paths, options.before()), options);
        int cpus = Runtime.getRuntime().availableProcessors();
        boolean sameCpuOnly = options.sameCpuOnly() || cpus < 2;
        CpuAssignment first = CpuAssignment.forPass(1, cpus, sameCpuOnly);
        boolean cpusAlternate = !sameCpuOnly;
        RunResults results = new RunResults(EnvironmentProbe.probe(paths, options, first, cpusAlternate, args));
        List<Scenario> scenarios = new ArrayList<>();
        for (String name : options.scenarios()) scenarios.add(scenario(name, options.quick(), sameCpuOnly, paths));
        scenarios.forEach(s -> s.sections().forEach(results::scenario));
        // only the servers some scenario of this run measures: HelloWorld servers, the tomcat scenarios' applications, or both,
        // and a scenario's own server (the WebSocket floor) only in a run of that scenario
        List<ServerSpec> servers = selected.stream()
                .filter(s -> scenarios.stream().anyMatch(sc -> sc.application() == s.application()
                        && s.servesScenario(sc.info().name()))).toList();
        servers.forEach(s -> results.server(new ServerInfo(s.name(), s.group(), s.description(), null)));
        LabCertificate tls = null;
        if (scenarios.stream().anyMatch(Scenario::https)) tls = LabCertificate.obtain(paths.tls(), paths.keytool());

        Path dir = paths.results().resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        Files.createDirectories(dir);
        err.println("petrel bench: " + String.join(", ", options.scenarios()) + " on " + servers.size() + " servers, "
                + (options.passes() > 0 ? options.passes() + " pass(es)" : "3 passes (ramp: 1)") + (options.smoke() ? " (smoke)" : options.quick() ? " (quick)" : "")
                + "; results in " + paths.home().relativize(dir));
        for (Scenario scenario : scenarios) {
            String name = scenario.info().name();
            if (cpusAlternate && !CpuAssignment.alternates(options.passesFor(name), cpus, sameCpuOnly)) {
                err.println("petrel bench: warning: " + name + " runs " + options.passesFor(name) + " pass: the server on CPU "
                        + first.serverCpu() + " only; the other assignment can move figures by up to 1.4x (--passes 2 or more)");
            }
        }
        // asked once each, before anything runs: the plan leaves out what cannot run
        Map<Scenario, String> unavailable = new HashMap<>();
        for (Scenario scenario : scenarios) {
            String reason = scenario.unavailable();
            if (reason != null) unavailable.put(scenario, reason);
        }
        Map<Scenario, List<ServerSpec>> applicable = new LinkedHashMap<>();
        for (Scenario scenario : scenarios) applicable.put(scenario, Applicability.applicable(scenario, servers));
        Map<Scenario, List<ServerSpec>> runs = options.smoke() ? SmokeSelection.select(scenarios, applicable) : applicable;
        List<Progress.Plan> plans = scenarios.stream().filter(s -> !unavailable.containsKey(s))
                .map(s -> new Progress.Plan(s.info().name(), options.passesFor(s.info().name()) * runs.get(s).size(), s.stepEstimate()))
                .toList();
        Progress progress = new Progress(err, err == System.err && Progress.stderrIsTerminal(), System::nanoTime, plans);
        // servers that said they cannot run on this machine (io_uring refused), with their reason: started no more
        Map<String, String> unavailableServers = new HashMap<>();
        int notRun = 0;
        try {
            for (Scenario scenario : scenarios) {
                if (unavailable.containsKey(scenario)) {
                    String line = scenario.info().name() + ": not run: " + unavailable.get(scenario);
                    results.problem(line);
                    progress.note("problem: " + line);
                    notRun++;
                    continue;
                }
                progress.scenario(scenario.info().name());
                runScenario(scenario, servers, runs.get(scenario), options, scenario.https() ? tls : null, cpus, sameCpuOnly,
                        dir, results, progress, unavailableServers);
                progress.scenarioDone();
                scenario.derive(results);
            }
        } finally {
            ReportWriter.write(results, dir);
            if (options.publish()) Publisher.publish(dir, paths.home().resolve("bench"));
            String headline = ReportWriter.headline(results);
            if (!headline.isEmpty()) {
                err.println();
                err.println("petrel bench: headline" + (options.quick() ? " (a --quick run: these figures mean nothing)" : ""));
                err.print(headline);
                err.println();
            }
            err.println("petrel bench: report in " + paths.home().relativize(dir.resolve("report.md"))
                    + " and " + paths.home().relativize(dir.resolve("index.html"))
                    + (results.problems().isEmpty() ? "" : "; " + results.problems().size() + " problem(s), listed in the report"));
        }
        return notRun == 0 ? 0 : 1;
    }

    /**
     * Runs {@code scenario} on {@code applicable}, its servers to start (all it can measure, or a smoke
     * run's choice of them), in every pass; the cells of the other {@code servers} are marked not
     * applicable, with the reason.
     */
    private static void runScenario(Scenario scenario, List<ServerSpec> servers, List<ServerSpec> applicable,
                                    LabOptions options, LabCertificate tls, int cpus, boolean sameCpuOnly, Path dir,
                                    RunResults results, Progress progress, Map<String, String> unavailableServers)
            throws InterruptedException {
        String name = scenario.info().name();
        int passes = options.passesFor(name);
        markNotApplicable(scenario, servers, results);
        for (ServerSpec spec : servers) {
            if (Applicability.reason(scenario, spec) == null && !applicable.contains(spec)) {
                markCells(scenario, spec, "left out of this --smoke run: an earlier scenario started it the same way", results);
            }
        }
        for (int pass = 1; pass <= passes; pass++) {
            CpuAssignment cpu = CpuAssignment.forPass(pass, cpus, sameCpuOnly);
            List<ServerSpec> order = new ArrayList<>(applicable);
            if (pass % 2 == 0) Collections.reverse(order);
            for (int i = 0; i < order.size(); i++) {
                ServerSpec spec = order.get(i);
                progress.step(pass, passes, spec.name(), i + 1, order.size());
                if (unavailableServers.containsKey(spec.name())) {
                    markUnavailable(scenario, spec, unavailableServers.get(spec.name()), results);
                    continue;
                }
                Path log = dir.resolve("logs").resolve(spec.name() + ".log");
                Path folder = dir.resolve("servers").resolve(spec.name());
                try (RunningServer server = RunningServer.start(spec, PORT, tls, scenario.ajp(), scenario.http2(),
                        scenario.webSocket(), cpu.serverCpu(), log, folder, Duration.ofSeconds(60))) {
                    captureSample(results, spec, server);
                    scenario.measure(new Measurement(name, server, PORT, tls, pass, cpu.serverCpu(), cpu.clientCpu(), options.quick(),
                            dir.resolve("raw"), results, progress));
                } catch (ServerUnavailableException e) {
                    unavailableServers.put(spec.name(), e.reason());
                    markUnavailable(scenario, spec, e.reason(), results);
                    progress.note("not applicable here: " + e.getMessage());
                } catch (IOException e) {
                    String line = name + " / " + spec.name() + " / pass " + pass + ": " + e.getMessage();
                    results.problem(line);
                    progress.note("problem: " + line);
                } catch (InterruptedException e) {
                    throw e;
                } catch (Exception e) {
                    String line = name + " / " + spec.name() + " / pass " + pass + ": " + e;
                    results.problem(line);
                    progress.note("problem: " + line);
                }
                Thread.sleep(500); // the port and the CPU settle before the next server
            }
        }
    }

    /**
     * Every cell of a server the scenario cannot measure, in each of its sections, marked with the
     * reason: all of them for a server not run, the plain-HTTP ones of a server measured over TLS only.
     */
    static void markNotApplicable(Scenario scenario, List<ServerSpec> servers, RunResults results) {
        for (ServerSpec spec : servers) {
            for (ScenarioInfo section : scenario.sections()) {
                for (String variant : section.variants()) {
                    String reason = Applicability.reason(scenario, spec, variant);
                    if (reason != null) results.notApplicable(new NotApplicable(section.name(), variant, spec.name(), reason));
                }
            }
        }
    }

    /**
     * Every cell of {@code spec} in each section of {@code scenario} marked not applicable: the
     * server cannot run on this machine, which says nothing of the server.
     */
    static void markUnavailable(Scenario scenario, ServerSpec spec, String reason, RunResults results) {
        markCells(scenario, spec, "cannot run here: " + reason, results);
    }

    /** Every cell of {@code spec} in each section of {@code scenario} marked not applicable for {@code reason}. */
    private static void markCells(Scenario scenario, ServerSpec spec, String reason, RunResults results) {
        for (ScenarioInfo section : scenario.sections()) {
            for (String variant : section.variants()) {
                results.notApplicable(new NotApplicable(section.name(), variant, spec.name(), reason));
            }
        }
    }

    private static void captureSample(RunResults results, ServerSpec spec, RunningServer server) {
        ServerInfo known = results.server(spec.name());
        if (known != null && known.responseSample() != null) return;
        try {
            results.server(new ServerInfo(spec.name(), spec.group(), spec.description(), server.fetchRoot()));
        } catch (IOException e) {
            results.problem(spec.name() + ": could not capture its response to GET /: " + e.getMessage());
        }
    }

    private static List<ServerSpec> select(List<ServerSpec> all, LabOptions options) throws LabException {
        if (options.servers().isEmpty()) return all;
        List<String> known = all.stream().map(ServerSpec::name).toList();
        for (String name : options.servers()) {
            if (!known.contains(name)) throw new LabException("unknown server '" + name + "' (choose from " + String.join(", ", known) + ")");
        }
        return all.stream().filter(s -> options.servers().contains(s.name())).toList();
    }

    /** The per-server scenario {@code name} (every one in {@link LabOptions#SCENARIOS} but those run {@linkplain LabOptions#APART apart}). */
    static Scenario scenario(String name, boolean quick, boolean sameCpuOnly, LabPaths paths) throws LabException {
        return switch (name) {
            case "latency" -> new LatencyScenario(quick, sameCpuOnly);
            case "connectors" -> new ConnectorsScenario(quick);
            case "single-cpu" -> new SingleCpuScenario(quick);
            case "tail" -> new TailScenario(quick);
            case "ramp" -> new RampScenario(quick);
            case "idle" -> new IdleScenario(quick, false);
            case "idle-tls" -> new IdleScenario(quick, true);
            case "ajp" -> new AjpScenario(quick, paths);
            case "tomcat" -> new TomcatScenario(quick, paths);
            case "tomcat-ramp" -> RampScenario.tomcat(quick);
            case "tls" -> new TlsScenario(quick);
            case "h2" -> new H2Scenario(quick);
            case "websocket" -> new WebSocketScenario(quick, sameCpuOnly, paths);
            default -> throw new LabException("unknown scenario " + name);
        };
    }

    /** What the per-server scenarios need besides their own: pinning to CPUs, and a compiler for the C baseline. */
    static final List<String> PER_SERVER_NEEDS = List.of("taskset", "gcc");

    /** What scenario {@code name} runs besides the servers ({@link Scenario#needs}), as the help lists it. */
    static List<String> needs(String name, LabOptions options, LabPaths paths) throws LabException {
        if (name.equals("failover")) return Failover.NEEDS;
        if (name.equals("soak")) return Soak.NEEDS;
        return scenario(name, options.quick(), options.sameCpuOnly(), paths).needs();
    }

    /** What the scenarios of {@code options} need together, {@link #PER_SERVER_NEEDS} with any per-server one. */
    static Set<String> needs(LabOptions options, LabPaths paths) throws LabException {
        Set<String> needed = new TreeSet<>();
        for (String name : options.scenarios()) {
            needed.addAll(needs(name, options, paths));
            if (!LabOptions.APART.contains(name)) needed.addAll(PER_SERVER_NEEDS);
        }
        return needed;
    }

    /** The programs among {@code needed} that the lab checks for itself; the others say so when their scenario starts. */
    private static void checkTools(Set<String> needed) throws LabException {
        List<String> missing = new ArrayList<>();
        List<String> packages = new ArrayList<>();
        for (Map.Entry<String, String> tool : LoadTools.REQUIRED.entrySet()) {
            if (needed.contains(tool.getKey()) && !onPath(tool.getKey())) {
                missing.add(tool.getKey());
                if (!packages.contains(tool.getValue())) packages.add(tool.getValue());
            }
        }
        if (!missing.isEmpty()) {
            Collections.sort(missing);
            Collections.sort(packages);
            throw new LabException("missing " + String.join(", ", missing) + "; install with: apt-get install -y "
                    + String.join(" ", packages));
        }
    }

    /** Whether {@code tool} is an executable in a folder of {@code PATH}. */
    static boolean onPath(String tool) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) return true;
        }
        return false;
    }
}
