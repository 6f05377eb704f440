package dev.petrel.bench.failover;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CaseResultTest {
    private static final List<CaseResult.Check> HELD = List.of(new CaseResult.Check("sticky", true));

    @Test
    void printsTheSummaryLineTheIssueAsksFor() {
        CaseResult r = new CaseResult("jk-kill", 1200, 3, 7, 101.5, 180.25, 400, 10, 10, false, HELD,
                List.of("180.3 ms, sent +0.400 s from the event's start, answered by p2"), List.of());

        assertThat(r.line()).isEqualTo("failover jk-kill: 1200 requests, 3 failed, 10/10 sessions kept");
        assertThat(r.details()).first().asString().contains("retried by the balancer 7", "p99 101.5 ms, max 180.3 ms", "400 requests");
        assertThat(r.details()).contains("  ok   sticky", "  slow 180.3 ms, sent +0.400 s from the event's start, answered by p2");
    }

    @Test
    void aKillMayFailRequestsButNeverLoseASession() {
        assertThat(new CaseResult("jk-kill", 100, 3, 0, 1, 2, 10, 10, 10, false, HELD, List.of(), List.of()).passed()).isTrue();
        assertThat(new CaseResult("jk-kill", 100, 0, 0, 1, 2, 10, 9, 10, false, HELD, List.of(), List.of()).passed()).isFalse();
    }

    @Test
    void aGracefulStopOrRollingRestartMayFailNothing() {
        assertThat(new CaseResult("haproxy-rolling", 100, 0, 5, 1, 2, 10, 10, 10, true, HELD, List.of(), List.of()).passed()).isTrue();
        assertThat(new CaseResult("haproxy-rolling", 100, 1, 5, 1, 2, 10, 10, 10, true, HELD, List.of(), List.of()).passed()).isFalse();
    }

    @Test
    void aCheckThatDidNotHoldFailsTheCase() {
        List<CaseResult.Check> broken = List.of(new CaseResult.Check("jk uses p1 again after its restart", false));
        CaseResult r = new CaseResult("jk-graceful", 100, 0, 0, 1, 2, 10, 10, 10, true, broken, List.of(), List.of());

        assertThat(r.passed()).isFalse();
        assertThat(r.details()).contains("  FAIL jk uses p1 again after its restart");
    }
}
