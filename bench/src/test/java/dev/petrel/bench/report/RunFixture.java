package dev.petrel.bench.report;

import dev.petrel.bench.model.Environment;
import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.RunResults;
import dev.petrel.bench.model.Sample;
import dev.petrel.bench.model.ScenarioInfo;
import dev.petrel.bench.model.ScenarioInfo.Layout;
import dev.petrel.bench.model.ServerInfo;
import dev.petrel.bench.model.ServerInfo.Group;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A synthetic run with numbers chosen so the expected medians and ratios can be worked out by hand
 * (the tests do so in comments):
 *
 * <ul>
 *   <li>servers: baseline {@code dummy}; Petrel {@code petrel-virtual}, {@code petrel-nio}; peers
 *       {@code jetty} (whose description carries a script tag), {@code tomcat-nio}, {@code undertow};
 *       and peer {@code netty}, which has no sample at all;
 *   <li>{@code latency} (SERVERS_BY_VARIANT, seed 004): variants {@code same-cpu}, {@code cross-cpu}, 3
 *       passes, primary {@code rtt} in µs (lower is better), then {@code rps}, {@code p50}, {@code p99};
 *   <li>{@code ramp} (VARIANTS_BY_SERVER, seed 003): variants 1000, 2000, 3000 users, 2 passes,
 *       primary {@code rps} (higher is better) and {@code errors} in %; undertow has no 3000 users result;
 *   <li>one problem.
 * </ul>
 */
final class RunFixture {
    static final MetricInfo RTT = new MetricInfo("rtt", "round-trip", "µs", false);
    static final MetricInfo RPS = new MetricInfo("rps", "requests/s", "req/s", true);
    static final MetricInfo P50 = new MetricInfo("p50", "p50", "µs", false);
    static final MetricInfo P99 = new MetricInfo("p99", "p99", "µs", false);
    static final MetricInfo ERRORS = new MetricInfo("errors", "errors", "%", false);
    static final String SCRIPT = "Jetty 12 <script>alert('x')</script>";
    static final String PROBLEM = "tomcat-nio: pass 4 of latency/cross-cpu failed: wrk exited with 1";

    /** rtt passes per variant and server; rps, p50 and p99 are derived from each pass. */
    static final Map<String, Map<String, double[]>> RTT_PASSES = new LinkedHashMap<>();

    static {
        Map<String, double[]> same = new LinkedHashMap<>();
        same.put("dummy", new double[] {40, 44, 42});          // median 42
        same.put("petrel-virtual", new double[] {50, 49, 52}); // median 50
        same.put("petrel-nio", new double[] {56, 60, 58});     // median 58
        same.put("jetty", new double[] {70, 75, 72});          // median 72
        same.put("tomcat-nio", new double[] {90, 95, 100});    // median 95
        same.put("undertow", new double[] {60, 63, 61});       // median 61: best peer
        Map<String, double[]> cross = new LinkedHashMap<>();
        cross.put("dummy", new double[] {60, 61, 62});          // 61
        cross.put("petrel-virtual", new double[] {80, 82, 81}); // 81
        cross.put("petrel-nio", new double[] {70, 71, 75});     // 71: ahead of virtual here
        cross.put("jetty", new double[] {85, 88, 86});          // 86: best peer
        cross.put("tomcat-nio", new double[] {120, 121, 119});  // 120
        cross.put("undertow", new double[] {90, 91, 92});       // 91
        RTT_PASSES.put("same-cpu", same);
        RTT_PASSES.put("cross-cpu", cross);
    }

    /** ramp rps passes (two each) per variant and server; errors are 0.5 % per 1000 users. */
    static final Map<String, Map<String, double[]>> RAMP_PASSES = new LinkedHashMap<>();

    static {
        Map<String, double[]> u1 = new LinkedHashMap<>();
        u1.put("dummy", new double[] {20000, 22000});          // 21000
        u1.put("petrel-virtual", new double[] {15000, 16000}); // 15500
        u1.put("petrel-nio", new double[] {14000, 14400});     // 14200
        u1.put("jetty", new double[] {12000, 12500});          // 12250
        u1.put("tomcat-nio", new double[] {9000, 9500});       // 9250
        u1.put("undertow", new double[] {13000, 13400});       // 13200: best peer
        Map<String, double[]> u2 = new LinkedHashMap<>();
        u2.put("dummy", new double[] {24000, 24000});
        u2.put("petrel-virtual", new double[] {18000, 18500});
        u2.put("petrel-nio", new double[] {16000, 16800});
        u2.put("jetty", new double[] {14000, 14100});
        u2.put("tomcat-nio", new double[] {10000, 10100});
        u2.put("undertow", new double[] {15000, 15500});
        Map<String, double[]> u3 = new LinkedHashMap<>();
        u3.put("dummy", new double[] {23000, 23500});
        u3.put("petrel-virtual", new double[] {17000, 17600});
        u3.put("petrel-nio", new double[] {15800, 16000});
        u3.put("jetty", new double[] {13000, 13800});
        u3.put("tomcat-nio", new double[] {9700, 9900});
        RAMP_PASSES.put("1000 users", u1);
        RAMP_PASSES.put("2000 users", u2);
        RAMP_PASSES.put("3000 users", u3);
    }

    private RunFixture() {}

    static RunResults run(boolean quick) {
        Environment env = new Environment("2025-06-01T10:15:00Z", "5f411e1", "25.0.3+9", "-Xms1g -Xmx1g",
                "6.8.0-60-generic", "AMD EPYC 7B13", 8, 2, 3, Map.of("wrk", "wrk 4.2.0 [epoll]"),
                "./petrel bench latency", quick);
        RunResults r = new RunResults(env);
        r.server(new ServerInfo("dummy", Group.BASELINE, "Fixed response written by a bare loop",
                "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nHelloWorld"));
        r.server(new ServerInfo("petrel-virtual", Group.PETREL, "Petrel, virtual-thread transport", null));
        r.server(new ServerInfo("petrel-nio", Group.PETREL, "Petrel, NIO transport", null));
        r.server(new ServerInfo("jetty", Group.PEER, SCRIPT, null));
        r.server(new ServerInfo("tomcat-nio", Group.PEER, "Tomcat 11 embedded, NIO connector", null));
        r.server(new ServerInfo("undertow", Group.PEER, "Undertow 2.3", null));
        r.server(new ServerInfo("netty", Group.PEER, "Netty 4.2, never started", null));

        r.scenario(new ScenarioInfo("latency", "004", "Per-request latency over one keep-alive connection",
                "`ab -k -c1 -n100000`, server and `ab` pinned to *separate* CPUs.",
                List.of(RTT, RPS, P50, P99), List.of("same-cpu", "cross-cpu"), Layout.SERVERS_BY_VARIANT));
        r.scenario(new ScenarioInfo("ramp", "003", "Users ramp", "JMeter-style ramp: each user sends 50 requests.",
                List.of(RPS, ERRORS), List.of("1000 users", "2000 users", "3000 users"), Layout.VARIANTS_BY_SERVER));

        RTT_PASSES.forEach((variant, servers) -> servers.forEach((server, rtts) -> {
            for (int pass = 1; pass <= rtts.length; pass++) {
                double rtt = rtts[pass - 1];
                r.add(new Sample("latency", variant, server, pass, "rtt", rtt));
                r.add(new Sample("latency", variant, server, pass, "rps", 1_000_000 / rtt));
                r.add(new Sample("latency", variant, server, pass, "p50", rtt * 0.9));
                r.add(new Sample("latency", variant, server, pass, "p99", rtt * 2.5));
            }
        }));
        int users = 0;
        for (var variant : RAMP_PASSES.entrySet()) {
            users += 1000;
            double errors = users / 1000 * 0.5;
            variant.getValue().forEach((server, rps) -> {
                for (int pass = 1; pass <= rps.length; pass++) {
                    r.add(new Sample("ramp", variant.getKey(), server, pass, "rps", rps[pass - 1]));
                    r.add(new Sample("ramp", variant.getKey(), server, pass, "errors", errors));
                }
            });
        }
        r.problem(PROBLEM);
        return r;
    }

    /** Samples in the latency scenario: 6 servers × 2 variants × 3 passes × 4 metrics. */
    static final int LATENCY_SAMPLES = 6 * 2 * 3 * 4;
    /** Samples in the ramp: (6 + 6 + 5) server-variants × 2 passes × 2 metrics. */
    static final int RAMP_SAMPLES = 17 * 2 * 2;
}
