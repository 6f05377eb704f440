package dev.petrel.bench.lab;

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
 * @param passes passes per scenario, or 0 for each scenario's default ({@link #passesFor})
 * @param publish whether to copy the report to bench/RESULTS.md
 * @param sameCpuOnly whether to pin tools to the servers' CPU everywhere (for a one-CPU machine)
 * @param before another build's {@code bench/target/lib} whose Petrel servers run beside this one's, or null
 */
record LabOptions(List<String> scenarios, Set<String> servers, boolean quick, int passes, boolean publish,
                  boolean sameCpuOnly, Path before) {
    static final List<String> SCENARIOS = List.of("latency", "connectors", "single-cpu", "tail", "ramp", "idle", "idle-tls", "ajp",
            "tomcat", "tomcat-ramp", "tls", "h2", "failover");

    static final String HELP = """
            Usage: petrel bench SCENARIO... [--servers a,b,...] [--passes N] [--quick] [--publish] [--before DIR]

            Scenarios (the seed each reproduces in brackets):
              latency      one keep-alive connection, ab -k -c1, across CPUs and on one CPU   [004]
              connectors   ab -n 100000 -c 100, with and without keep-alive, HTTP and HTTPS    [000]
              single-cpu   peak throughput of a 35 KB HTML page, wrk, server on one CPU         [001]
              tail         tail latency of 100 keep-alive clients on one CPU: wrk -c100 --latency,
                           p50, p99, max and timeouts
              ramp         1000..9000 users ramped up within 5 s, 50 requests each, h2load     [003]
              idle         RSS and heap held by 10,000 idle keep-alive connections (lab's own)
              idle-tls     the same over TLS: 10,000 idle HTTPS keep-alive connections
              ajp          Apache httpd with mod_jk and mod_proxy_ajp in front of Petrel's and
                           Tomcat's AJP connectors: CPU at 400 req/s, then wrk 10..400 conns  [002]
              tomcat       a Spring Boot HelloWorld (jar and war) and a JSP date page on Tomcat 11
                           with its NIO connector and with Petrel's: the connectors columns  [000, 003]
              tomcat-ramp  the ramp above against the same Spring Boot HelloWorld            [003]
              tls          server CPU per full and per resumed TLS 1.3 handshake (ab -c 100,
                           openssl s_time), and wrk's tail right after start; one server per
                           TLS stack: JSSE, BoringSSL (Petrel's native engine, Netty), nginx
              h2           HTTP/2: server CPU per request and rate, h2load -c 100 -m 10 over h2c
                           (prior knowledge) and h2 (TLS, ALPN), and -c 1 -m 100 over h2c; the
                           servers that speak HTTP/2, each with its own project's support
              failover     two backends behind httpd's mod_jk balancer and behind HAProxy: Tomcats
                           with Petrel's connectors replicating sessions, then two petrel serve;
                           one stopped (SIGTERM), killed (SIGKILL), and both restarted in turn
                           under steady load; requests failed and sessions kept per case. Not
                           per server: --servers and --passes do not apply              [002]
              all          every scenario above

            Options:
              --servers a,b   only these servers (names in the report; default: all)
              --passes N      passes per scenario, in alternating server order (default 3, ramp and tomcat-ramp 1;
                              --quick: 1). A full ramp pass takes about 25 minutes for all servers.
              --quick         every scenario in seconds: proves the lab works, not any figure
              --publish       also copy the report to bench/RESULTS.md (charts to bench/RESULTS/)
              --before DIR    also run the Petrel servers of another build, DIR being its
                              bench/target/lib (a worktree of an earlier commit after its own
                              ./petrel bench --help), as before-petrel-*: a regression check
                              side by side in one run

            Results go to bench/results/<timestamp>/: report.md, index.html, CSV, SVG, raw tool output.
            """;

    /** These options with other scenarios: the failover scenario runs apart from the per-server ones. */
    LabOptions withScenarios(List<String> names) {
        return new LabOptions(List.copyOf(names), servers, quick, passes, publish, sameCpuOnly, before);
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
        boolean publish = false;
        boolean sameCpuOnly = false;
        int passes = -1;
        Path before = null;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            switch (arg) {
                case "--quick" -> quick = true;
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
        return new LabOptions(List.copyOf(new LinkedHashSet<>(scenarios)), servers, quick, passes, publish, sameCpuOnly, before);
    }
}
