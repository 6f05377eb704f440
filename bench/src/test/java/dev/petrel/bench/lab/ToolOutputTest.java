package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The load tools' real outputs (captured on this machine) read back into figures. */
class ToolOutputTest {
    private static String resource(String name) throws IOException {
        try (InputStream in = ToolOutputTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void readsAbKeepAliveReport() throws IOException {
        AbOutput ab = AbOutput.parse(resource("ab-keepalive.txt"));

        assertThat(ab.complete()).isEqualTo(3000);
        assertThat(ab.failed()).isZero();
        assertThat(ab.keepAliveRequests()).isEqualTo(3000);
        assertThat(ab.requestsPerSecond()).isEqualTo(5312.97);
        assertThat(ab.timePerRequestMs()).isEqualTo(0.188);
    }

    @Test
    void readsAbReportWithoutKeepAlive() throws IOException {
        AbOutput ab = AbOutput.parse(resource("ab-nokeepalive.txt"));

        assertThat(ab.complete()).isEqualTo(3000);
        assertThat(ab.keepAliveRequests()).isZero();
        assertThat(ab.requestsPerSecond()).isPositive();
    }

    @Test
    void readsTheTlsSessionOfAnAbHttpsReport() throws IOException {
        AbOutput ab = AbOutput.parse(resource("ab-https-keepalive.txt"));

        assertThat(ab.complete()).isEqualTo(1000);
        assertThat(ab.keepAliveRequests()).isEqualTo(1000);
        assertThat(ab.tls()).isEqualTo(new AbOutput.Tls("TLSv1.3", "TLS_AES_256_GCM_SHA384", "X25519 253 bits"));
        assertThat(ab.tls().summary()).isEqualTo("TLSv1.3, TLS_AES_256_GCM_SHA384, key exchange X25519 253 bits");
    }

    @Test
    void readsAbHttpsReportWithoutKeepAliveAndWithTls12() throws IOException {
        AbOutput fresh = AbOutput.parse(resource("ab-https-nokeepalive.txt"));
        AbOutput tls12 = AbOutput.parse(resource("ab-https-tls12.txt"));

        assertThat(fresh.keepAliveRequests()).isZero();
        assertThat(fresh.tls().protocol()).isEqualTo("TLSv1.3");
        assertThat(tls12.tls()).isEqualTo(new AbOutput.Tls("TLSv1.2", "ECDHE-ECDSA-AES256-GCM-SHA384", "X25519 253 bits"));
    }

    @Test
    void plainHttpHasNoTlsAndAMissingTempKeyIsLeftOut() throws IOException {
        assertThat(AbOutput.parse(resource("ab-keepalive.txt")).tls()).isNull();
        AbOutput.Tls bare = AbOutput.tls("Server Port:            443\nSSL/TLS Protocol:       TLSv1.2,AES128-SHA,128,128\n");
        assertThat(bare).isEqualTo(new AbOutput.Tls("TLSv1.2", "AES128-SHA", null));
        assertThat(bare.summary()).isEqualTo("TLSv1.2, AES128-SHA");
    }

    @Test
    void readsAbPercentilesInMicroseconds() throws IOException {
        Map<Integer, Double> p = AbOutput.percentilesMicros(resource("ab-keepalive-percentiles.csv"), 50, 99, 100);

        assertThat(p.get(50)).isCloseTo(68.0, within(0.001));
        assertThat(p.get(99)).isCloseTo(2898.0, within(0.001));
        assertThat(p.get(100)).isCloseTo(44981.0, within(0.001));
    }

    @Test
    void refusesAbOutputWithoutResults() throws IOException {
        assertThatThrownBy(() -> AbOutput.parse("apr_socket_recv: Connection refused (111)\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Complete requests");
    }

    @Test
    void readsWrkReport() throws IOException {
        WrkOutput wrk = WrkOutput.parse(resource("wrk.txt"));

        assertThat(wrk.requests()).isEqualTo(7260);
        assertThat(wrk.requestsPerSecond()).isEqualTo(3628.49);
        assertThat(wrk.bytesPerSecond()).isCloseTo(121.81 * 1024 * 1024, within(1.0));
        assertThat(wrk.latencyAvgMs()).isEqualTo(85.92);
        assertThat(wrk.socketErrors()).isZero();
        assertThat(wrk.socketErrorsByKind()).isEqualTo(new WrkOutput.SocketErrors(0, 0, 0, 0));
    }

    @Test
    void countsWrkSocketErrorsAndBadStatuses() {
        String text = """
                Running 2s test @ http://127.0.0.1:1/
                  1 threads and 10 connections
                  Thread Stats   Avg      Stdev     Max   +/- Stdev
                    Latency   512.00us  100.00us   2.00ms   90.00%
                  100 requests in 2.00s, 10.00KB read
                  Socket errors: connect 1, read 2, write 3, timeout 4
                  Non-2xx or 3xx responses: 5
                Requests/sec:     50.00
                Transfer/sec:      5.00KB
                """;
        WrkOutput wrk = WrkOutput.parse(text);

        assertThat(wrk.socketErrors()).isEqualTo(10);
        assertThat(wrk.socketErrorsByKind()).isEqualTo(new WrkOutput.SocketErrors(1, 2, 3, 4));
        assertThat(wrk.socketErrorsByKind()).hasToString("connect 1, read 2, write 3, timeout 4");
        assertThat(wrk.non2xx3xx()).isEqualTo(5);
        assertThat(wrk.latencyAvgMs()).isEqualTo(0.512);
        assertThat(wrk.bytesPerSecond()).isEqualTo(5120.0);
    }

    @Test
    void readsWrkLatencyDistributionAndMaxOverTls() throws IOException {
        // wrk -t1 -c100 -d1s --timeout 10s --latency against nginx over TLS, as the tls scenario runs it
        WrkOutput wrk = WrkOutput.parse(resource("wrk-latency.txt"));

        assertThat(wrk.requests()).isEqualTo(10739);
        assertThat(wrk.requestsPerSecond()).isEqualTo(9955.34);
        assertThat(wrk.latencyAvgMs()).isEqualTo(14.98);
        assertThat(wrk.latencyMaxMs()).isEqualTo(194.33);
        assertThat(wrk.latencyPercentilesMs()).containsExactly(
                Map.entry(50, 6.72), Map.entry(75, 9.84), Map.entry(90, 29.31), Map.entry(99, 174.0));
        assertThat(wrk.percentileMs(99)).isEqualTo(174.0);
    }

    @Test
    void wrkWithoutLatencyHasNoDistributionAndSaysSoWhenAsked() throws IOException {
        WrkOutput wrk = WrkOutput.parse(resource("wrk.txt"));

        assertThat(wrk.latencyPercentilesMs()).isEmpty();
        assertThatThrownBy(() -> wrk.percentileMs(99)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--latency");
    }

    @Test
    void readsWrkLatencyInEveryUnitItPrints() {
        String text = """
                Running 10s test @ https://127.0.0.1:1/
                  1 threads and 100 connections
                  Thread Stats   Avg      Stdev     Max   +/- Stdev
                    Latency   850.00us    1.20s     1.05m    99.00%
                    Req/Sec     1.00k   100.00     2.00k    50.00%
                  Latency Distribution
                     50%  512.00us
                     75%    1.50ms
                     90%    2.00s
                     99%    1.02m
                  100 requests in 10.00s, 10.00KB read
                Requests/sec:     10.00
                Transfer/sec:      1.00KB
                """;
        WrkOutput wrk = WrkOutput.parse(text);

        assertThat(wrk.latencyAvgMs()).isEqualTo(0.85);
        assertThat(wrk.latencyMaxMs()).isEqualTo(63_000.0);
        assertThat(wrk.latencyPercentilesMs()).containsExactly(
                Map.entry(50, 0.512), Map.entry(75, 1.5), Map.entry(90, 2000.0), Map.entry(99, 61_200.0));
    }

    @Test
    void readsSTimeFullHandshakes() throws IOException {
        // openssl s_time -www / -new -time 1 against nginx: a '*' per full handshake
        STimeOutput sTime = STimeOutput.parse(resource("s_time-new.txt"));

        assertThat(sTime.connections()).isEqualTo(585);
        assertThat(sTime.marks()).isEqualTo(585);
        assertThat(sTime.resumed()).isZero();
    }

    @Test
    void readsSTimeResumedConnections() throws IOException {
        // -reuse against nginx, session tickets on: an 'r' per resumed connection, every one
        STimeOutput sTime = STimeOutput.parse(resource("s_time-reuse.txt"));

        assertThat(sTime.connections()).isEqualTo(854);
        assertThat(sTime.resumed()).isEqualTo(854);
        assertThat(sTime.resumedPercent()).isEqualTo(100.0);
    }

    @Test
    void seesThatAServerResumedNothingThoughAskedTo() throws IOException {
        // -reuse against nginx with tickets and its session cache off: every handshake full
        STimeOutput sTime = STimeOutput.parse(resource("s_time-reuse-refused.txt"));

        assertThat(sTime.connections()).isEqualTo(547);
        assertThat(sTime.marks()).isEqualTo(547);
        assertThat(sTime.resumed()).isZero();
        assertThat(TlsScenario.noResumption(sTime, new SClientOutput(false, "TLSv1.3", "TLS_AES_256_GCM_SHA384", null)))
                .isEqualTo("no resumption: 0 of 547 s_time -reuse connections resumed, and s_client's second connection was New");
    }

    @Test
    void sTimeThatNeverConnectedIsNoResult() {
        assertThatThrownBy(() -> STimeOutput.parse("Error connecting to 127.0.0.1:1\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("connections in");
    }

    @Test
    void readsSClientNewAndReusedSessions() throws IOException {
        // s_client -sess_out, then -sess_in with the saved session, each sending GET / HTTP/1.0 (nginx)
        SClientOutput first = SClientOutput.parse(resource("s_client-new.txt"));
        SClientOutput second = SClientOutput.parse(resource("s_client-reused.txt"));

        assertThat(first).isEqualTo(new SClientOutput(false, "TLSv1.3", "TLS_AES_256_GCM_SHA384", "X25519, 253 bits"));
        assertThat(second.reused()).isTrue();
        assertThat(second.summary()).isEqualTo("Reused, TLSv1.3, TLS_AES_256_GCM_SHA384, key exchange X25519, 253 bits");
        assertThatThrownBy(() -> SClientOutput.parse("connect:errno=111\n")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void readsH2loadReport() throws IOException {
        H2loadOutput h2 = H2loadOutput.parse(resource("h2load.txt"));

        assertThat(h2.total()).isEqualTo(2000);
        assertThat(h2.succeeded()).isEqualTo(2000);
        assertThat(h2.seconds()).isEqualTo(1.07);
        assertThat(h2.requestMinMs()).isCloseTo(0.043, within(1e-9));
        assertThat(h2.requestMaxMs()).isEqualTo(56.09);
        assertThat(h2.requestMeanMs()).isEqualTo(4.79);
        assertThat(h2.errorPercent()).isZero();
        assertThat(h2.successesPerSecond()).isCloseTo(2000 / 1.07, within(0.01));
    }

    @Test
    void readsH2loadOverHttp2WithItsProtocolAndBodies() throws IOException {
        H2loadOutput h2 = H2loadOutput.parse(resource("h2load-h2.txt"));

        assertThat(h2.protocol()).isEqualTo("h2");
        assertThat(h2.total()).isEqualTo(2000);
        assertThat(h2.status2xx()).isEqualTo(2000);
        assertThat(h2.dataBytes()).isEqualTo(20_000);
        assertThat(h2.errorsH2()).isZero();
        assertThat(H2Scenario.wrongProtocol(h2, H2Scenario.H2_100X10)).isNull();
        assertThat(H2Scenario.wrongProtocol(h2, H2Scenario.H2C_100X10)).isEqualTo("h2load spoke h2, not h2c");
    }

    @Test
    void countsHttp2RequestsWithout2xxAsErrorsOnce() throws IOException {
        // tomcat-nio2 over h2 in a --quick run: h2load's "failed" already holds the errored and timed-out ones
        H2loadOutput h2 = H2loadOutput.parse(resource("h2load-h2-errors.txt"));

        assertThat(h2.failed()).isEqualTo(360);
        assertThat(h2.status2xx()).isEqualTo(1657);
        assertThat(h2.errorsH2()).isEqualTo(2000 - 1657);
        assertThat(h2.dataBytes()).isEqualTo(16_400).isNotEqualTo(h2.status2xx() * H2Scenario.BODY_BYTES);
    }

    @Test
    void anHttp2RunWithoutAnyConnectionHasNoProtocol() {
        String text = """
                starting benchmark...
                spawning thread #0: 1 total client(s). 10 total requests

                finished in 1.00ms, 0.00 req/s, 0B/s
                requests: 10 total, 0 started, 0 done, 0 succeeded, 10 failed, 10 errored, 0 timeout
                status codes: 0 2xx, 0 3xx, 0 4xx, 0 5xx
                traffic: 0B (0) total, 0B (0) headers (space savings 0.00%), 0B (0) data
                                     min         max         mean         sd        +/- sd
                time for request:        0us         0us         0us         0us     0.00%
                """;
        H2loadOutput h2 = H2loadOutput.parse(text);

        assertThat(h2.protocol()).isNull();
        assertThat(h2.errorsH2()).isEqualTo(10);
        assertThat(H2Scenario.wrongProtocol(h2, H2Scenario.H2C_1X100)).startsWith("h2load negotiated no protocol");
    }

    @Test
    void countsEveryH2loadRequestThatDidNotSucceedAsAnError() throws IOException {
        H2loadOutput h2 = H2loadOutput.parse(resource("h2load-refused.txt"));

        assertThat(h2.succeeded()).isZero();
        assertThat(h2.errored()).isEqualTo(2000);
        assertThat(h2.errorPercent()).isEqualTo(100.0);
        assertThat(h2.successesPerSecond()).isZero();
    }

    @Test
    void countsCompleteResponsesWithoutAReasonPhraseAsAnswered() {
        // h2load 1.52 against Tomcat 11 (status line "HTTP/1.1 200 "): all done, none errored, all "failed"
        String text = """
                finished in 2.00s, 0.00 req/s, 100KB/s
                requests: 1000 total, 1000 started, 1000 done, 0 succeeded, 1000 failed, 0 errored, 0 timeout
                status codes: 0 2xx, 0 3xx, 0 4xx, 0 5xx
                traffic: 100KB (102400) total, 80KB (81920) headers (space savings 0.00%), 9.77KB (10000) data
                                     min         max         mean         sd        +/- sd
                time for request:      100us      2.00ms       500us       100us    90.00%
                """;
        H2loadOutput h2 = H2loadOutput.parse(text);

        assertThat(h2.answered()).isEqualTo(1000);
        assertThat(h2.errorPercent()).isZero();
        assertThat(h2.successesPerSecond()).isEqualTo(500.0);
    }

    @Test
    void countsErrorStatusesAndUnfinishedRequestsAsErrors() {
        String text = """
                finished in 1.00s, 0.00 req/s, 100KB/s
                requests: 1000 total, 900 started, 800 done, 700 succeeded, 100 failed, 50 errored, 10 timeout
                status codes: 700 2xx, 0 3xx, 20 4xx, 20 5xx
                                     min         max         mean         sd        +/- sd
                time for request:      100us      2.00s       500us       100us    90.00%
                """;
        H2loadOutput h2 = H2loadOutput.parse(text);

        assertThat(h2.answered()).isEqualTo(800 - 50 - 10 - 40);
        assertThat(h2.errorPercent()).isEqualTo(30.0);
        assertThat(h2.requestMaxMs()).isEqualTo(2000.0);
    }

    @Test
    void doesNotSubtractRequestsThatNeverStartedFromTheAnswered() {
        // Jetty at 9000 users: clients whose connection failed count all their requests as errored
        String text = """
                finished in 24.02s, 4652.65 req/s, 572.49KB/s
                requests: 450000 total, 117211 started, 111756 done, 111756 succeeded, 338244 failed, 338244 errored, 5438 timeout
                status codes: 111756 2xx, 0 3xx, 0 4xx, 0 5xx
                                     min         max         mean         sd        +/- sd
                time for request:      100us     20.00s       500us       100us    90.00%
                """;
        H2loadOutput h2 = H2loadOutput.parse(text);

        assertThat(h2.answered()).isEqualTo(111_756);
        assertThat(h2.errorPercent()).isCloseTo(100.0 * 338_244 / 450_000, within(1e-9));
    }
}
