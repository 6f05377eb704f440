package dev.petrel.bench.lab;

import dev.petrel.bench.model.MetricInfo;
import dev.petrel.bench.model.ScenarioInfo;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Seeds 003: users ramped up within 5 s, 50 requests each, at 1000 to 9000 users, as the seed's
 * JMeter plan did against Tomcat 8, 9 and 10.
 *
 * <p>Mapping to JMeter: a thread group of N users with a 5 s ramp-up and 50 loops becomes
 * {@code h2load --h1 -c N -n 50N -r N/5 --rate-period 1s}: h2load opens N/5 connections a second
 * for 5 s, and each connection (a user) sends its 50 requests one after the other on a keep-alive
 * connection, as a JMeter HTTP sampler with keep-alive does. TPS is successful requests over the
 * whole run; average and maximum are h2load's time per request; errors are the requests that did
 * not succeed (refused or reset connections, timeouts, non-2xx), as a share of all 50N.
 */
final class RampScenario implements Scenario {
    private static final int REQUESTS_PER_USER = 50;
    private final boolean quick;
    private final String name;
    private final String target;
    private final boolean application;

    /** The seed's ramp against the lab's HelloWorld servers. */
    RampScenario(boolean quick) {
        this(quick, "ramp", "the lab's HelloWorld", false);
    }

    private RampScenario(boolean quick, String name, String target, boolean application) {
        this.quick = quick;
        this.name = name;
        this.target = target;
        this.application = application;
    }

    /**
     * The same ramp against the Spring Boot HelloWorld of the tomcat scenario
     * ({@link TomcatScenario}): seed 003 ran it against exactly that application.
     */
    static RampScenario tomcat(boolean quick) {
        return new RampScenario(quick, "tomcat-ramp", "the Spring Boot HelloWorld (examples/spring-boot) on Tomcat 11", true);
    }

    @Override
    public Set<LoadTool> tools() {
        return Set.of(LoadTool.H2LOAD);
    }

    @Override
    public List<String> needs() {
        // the application's war runs in Tomcat's distribution
        return application ? List.of("h2load", TomcatScenario.TOMCAT_DISTRIBUTION) : List.of("h2load");
    }

    @Override
    public Duration stepEstimate() {
        Duration step = application ? NominalTimes.APPLICATION_START : NominalTimes.HELLO_START;
        // the warm-up: 100 clients started within a second, then their requests
        step = step.plusSeconds(1).plus(NominalTimes.requests(warmupRequests(), NominalTimes.RAMP_PER_SECOND));
        for (int users : levels()) {
            step = step.plusSeconds(2 + rampSeconds())
                    .plus(NominalTimes.requests((long) users * requestsPerUser(), NominalTimes.RAMP_PER_SECOND));
        }
        return step;
    }

    private int warmupRequests() {
        return quick ? 500 : 20_000;
    }

    @Override
    public boolean application() {
        return application;
    }

    private List<Integer> levels() {
        return quick ? List.of(50, 100) : List.of(1000, 2000, 3000, 4500, 6000, 9000);
    }

    private int requestsPerUser() {
        return quick ? 5 : REQUESTS_PER_USER;
    }

    private int rampSeconds() {
        return quick ? 1 : 5;
    }

    static String variant(int users) {
        return users + " users";
    }

    @Override
    public ScenarioInfo info() {
        return new ScenarioInfo(name, "003", "Ramp: users arriving within " + rampSeconds() + " s, " + requestsPerUser()
                        + " requests each" + (application ? ", Spring Boot on Tomcat" : ""),
                "`h2load --h1 -t1 -c N -n " + requestsPerUser() + "N -r N/" + rampSeconds() + " --rate-period 1s -N 20s` "
                        + "against `GET /` of " + target + " for N in " + levels() + ", in that order, the same server process throughout "
                        + "(server on one CPU, h2load on the other, swapped every other pass), 2 s apart. JMeter's thread group of N users with a "
                        + rampSeconds() + " s ramp-up and " + requestsPerUser() + " loops maps to N h2load clients opened "
                        + "N/" + rampSeconds() + " a second, each sending its requests one after another on one keep-alive "
                        + "connection. TPS = successful requests / run time; error % = requests that did not succeed / all.",
                List.of(new MetricInfo("tps", "TPS", "req/s", true),
                        new MetricInfo("avg_ms", "average", "ms", false),
                        new MetricInfo("max_ms", "maximum", "ms", false),
                        new MetricInfo("error_pct", "errors", "%", false)),
                levels().stream().map(RampScenario::variant).toList(), ScenarioInfo.Layout.VARIANTS_BY_SERVER);
    }

    @Override
    public void measure(Measurement run) throws Exception {
        LoadTools.h2load(run, "warm-up", run.clientCpu(), 100, warmupRequests(), 100, Duration.ofSeconds(60), run.url("/"));
        for (int users : levels()) {
            Thread.sleep(2000); // let the previous level's connections close on both sides
            String variant = variant(users);
            int rate = Math.max(1, users / rampSeconds());
            H2loadOutput h2 = LoadTools.h2load(run, variant, run.clientCpu(), users, users * requestsPerUser(), rate,
                    Duration.ofSeconds(quick ? 60 : 300), run.url("/"));
            if (h2 == null) continue;
            run.record(variant, "tps", h2.successesPerSecond());
            run.record(variant, "avg_ms", h2.requestMeanMs());
            run.record(variant, "max_ms", h2.requestMaxMs());
            run.record(variant, "error_pct", h2.errorPercent());
        }
    }
}
