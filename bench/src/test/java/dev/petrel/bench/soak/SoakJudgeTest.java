package dev.petrel.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The soak's verdict on made-up runs: what passes, and each promise that fails it. */
class SoakJudgeTest {
    private static final long S = TimeUnit.SECONDS.toNanos(1);
    private static final SoakRoute PLAIN = new SoakRoute("h1/plain", "plain", 1, SoakRoute.Protocol.H1);
    private static final SoakRoute JK = new SoakRoute("h1/jk", "ajp", 2, SoakRoute.Protocol.H1);

    private static SoakSample sample(double seconds, double rss, double fds, long buffers) {
        return new SoakSample(seconds, rss, 10, rss, 1, fds, 30, 0, 0, 0, Map.of("listeners", 6L, "response buffers", buffers));
    }

    /** A run of {@code minutes} whose readings grow by {@code rssPerMinute} MiB a minute, with the given outcomes and faults. */
    private static SoakRun run(int minutes, double rssPerMinute, List<SoakOutcome> outcomes, List<SoakFault> faults, SoakSample after) {
        SoakServer server = new SoakServer(SoakServer.Kind.PETREL, new SoakPorts(1, 2, 3, 4, 5, 6), Path.of("java"), Path.of("lib"),
                Path.of("files"), Path.of("cert.pem"), Path.of("key.pem"), 10, Path.of("petrel.log")); // never started
        SoakRun run = new SoakRun(server, null, null, null, System.out);
        run.trafficStart = 0;
        run.baseline = sample(-1, 300, 100, 0);
        for (int t = 10; t <= minutes * 60; t += 10) run.samples.add(sample(t, 300 + rssPerMinute * t / 60.0, 110, 3));
        run.outcomes.addAll(outcomes);
        run.faults.addAll(faults);
        run.after = after;
        return run;
    }

    private static SoakOptions options(int minutes) {
        return new SoakOptions(minutes, false, 1, 40, 1000, List.of("petrel"));
    }

    @Test
    void aCleanRunPasses() {
        SoakVerdict v = SoakJudge.judge(run(20, 0, List.of(SoakOutcome.ok(PLAIN, "ping", 0)), List.of(), sample(-1, 300, 104, 0)), options(20));
        assertThat(v.passed).as(String.join("\n", v.lines)).isTrue();
        assertThat(v.lines.getFirst()).startsWith("soak petrel: 1 requests, 0 failed (0 near an injected fault), 0 lost; 0 faults; after warm-up RSS +0.0 MiB/h");
    }

    @Test
    void aFailureNearAFaultOnItsListenerIsInjectedAndOneElsewhereFails() {
        SoakFault pause = new SoakFault("HTTPD_PAUSE", Set.of("ajp"), 10 * S, 14 * S, "httpd stopped");
        SoakOutcome duringPause = new SoakOutcome(JK, "ping", 12 * S, 20 * S, 1, 1, 0, "timeout");
        SoakOutcome sameTimeOtherListener = new SoakOutcome(PLAIN, "ping", 12 * S, 13 * S, 1, 1, 0, "reset");
        SoakVerdict v = SoakJudge.judge(run(2, 0, List.of(duringPause, sameTimeOtherListener), List.of(pause), sample(-1, 300, 100, 0)),
                options(2));
        assertThat(v.passed).isFalse();
        assertThat(v.lines.getFirst()).contains("2 failed (1 near an injected fault)");
        assertThat(v.lines).anyMatch(l -> l.startsWith("FAIL failed, no fault near it: h1/plain ping at 00:12: reset"));
    }

    @Test
    void aLostRequestFailsWhateverFaultIsNear() {
        SoakFault burst = new SoakFault("CONNECTION_BURST", Set.of("*"), 0, 100 * S, "");
        SoakOutcome wrongBytes = new SoakOutcome(PLAIN, "download", 5 * S, 6 * S, 1, 0, 1, "status 200 with 3 bytes that are not the 4 expected");
        SoakVerdict v = SoakJudge.judge(run(2, 0, List.of(wrongBytes), List.of(burst), sample(-1, 300, 100, 0)), options(2));
        assertThat(v.passed).isFalse();
        assertThat(v.lines).anyMatch(l -> l.startsWith("FAIL lost: h1/plain download"));
    }

    @Test
    void aResourceOrDescriptorsNotGivenBackAfterTheTrafficFail() {
        SoakVerdict v = SoakJudge.judge(run(2, 0, List.of(), List.of(), sample(-1, 300, 150, 2)), options(2));
        assertThat(v.passed).isFalse();
        assertThat(v.lines).contains("FAIL response buffers: 2 outstanding after the traffic, 0 before it",
                "FAIL 150 file descriptors after the traffic, 100 before it");
    }

    @Test
    void growthAfterWarmUpFailsALongRunAndIsNotJudgedInAShortOne() {
        // 1 MiB a minute: 60 MiB/h, above the 32 MiB/h bound
        SoakVerdict longRun = SoakJudge.judge(run(20, 1, List.of(), List.of(), sample(-1, 300, 100, 0)), options(20));
        assertThat(longRun.passed).isFalse();
        assertThat(longRun.lines).anyMatch(l -> l.startsWith("FAIL RSS grows 60.0 MiB/h after warm-up"));
        SoakVerdict shortRun = SoakJudge.judge(run(5, 1, List.of(), List.of(), sample(-1, 300, 100, 0)), options(5));
        assertThat(shortRun.passed).isTrue();
    }

    @Test
    void theSlopeIsPerHourOverTheReadingsGiven() {
        List<SoakSample> samples = List.of(sample(0, 100, 0, 0), sample(1800, 110, 0, 0), sample(3600, 120, 0, 0));
        assertThat(SoakVerdict.slopePerHour(samples, SoakSample::rssMib)).isCloseTo(20.0, org.assertj.core.data.Offset.offset(1e-9));
    }
}
