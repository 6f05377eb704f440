package dev.petrel.bench.failover;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JkBalancerTest {
    @Test
    void countsTheLinesOfAMemberFailingARequestThatWentElsewhere() {
        // the first four as mod_jk 1.2.48 wrote them in a run of the scenario (one request, p1 refused, moved
        // to p2); the last is the message's other form (mod_jk's format is "is in %serror state")
        String log = """
                [Fri Nov 27 09:39:44.025 2026] [3094:140180699711168] [info] jk_open_socket::jk_connect.c (815): connect to 127.0.0.1:38325 failed (errno=111)
                [Fri Nov 27 09:39:44.025 2026] [3094:140180699711168] [info] ajp_service::jk_ajp_common.c (2774): (p1) sending request to tomcat failed (recoverable), because of error during request sending (attempt=2)
                [Fri Nov 27 09:39:44.025 2026] [3094:140180699711168] [error] ajp_service::jk_ajp_common.c (2795): (p1) connecting to tomcat failed (rc=-3, errors=10, client_errors=0).
                [Fri Nov 27 09:39:44.025 2026] [3094:140180699711168] [info] service::jk_lb_worker.c (1600): service failed, worker p1 is in error state
                [Fri Nov 27 09:39:44.039 2026] [3094:140180602214080] [info] service::jk_lb_worker.c (1600): service failed, worker p1 is in local error state
                """;

        assertThat(JkBalancer.retriesIn(log)).isEqualTo(2);
        assertThat(JkBalancer.retriesIn("")).isZero();
    }
}
