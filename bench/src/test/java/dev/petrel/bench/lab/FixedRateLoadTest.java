package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fixed-rate generator's schedule and percentiles, and short runs against a stand-in server on
 * loopback: counts only, never how long anything took.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FixedRateLoadTest {
    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) server.stop(0);
    }

    @Test
    void requestIIsDueAtIOverTheRateExactly() {
        assertThat(FixedRateLoad.intendedOffsetNanos(0, 400)).isZero();
        assertThat(FixedRateLoad.intendedOffsetNanos(1, 400)).isEqualTo(2_500_000);
        assertThat(FixedRateLoad.intendedOffsetNanos(400, 400)).isEqualTo(1_000_000_000);
        assertThat(FixedRateLoad.intendedOffsetNanos(23_999, 400)).isEqualTo(59_997_500_000L);
        // no drift from adding up rounded intervals: 1/3 s is rounded once, not three times
        assertThat(FixedRateLoad.intendedOffsetNanos(1, 3)).isEqualTo(333_333_333);
        assertThat(FixedRateLoad.intendedOffsetNanos(3, 3)).isEqualTo(1_000_000_000);
        assertThat(FixedRateLoad.intendedOffsetNanos(1_999_999, 100_000)).isEqualTo(19_999_990_000L);
    }

    @Test
    void theRunSchedulesRateTimesDurationRequests() {
        assertThat(FixedRateLoad.requests(400, 60_000)).isEqualTo(24_000);
        assertThat(FixedRateLoad.requests(400, 2_000)).isEqualTo(800);
        assertThat(FixedRateLoad.requests(400, 1)).isZero();
    }

    @Test
    void percentilesAreNearestRank() {
        long[] ten = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertThat(FixedRateLoad.percentile(ten, 50)).isEqualTo(5);
        assertThat(FixedRateLoad.percentile(ten, 90)).isEqualTo(9);
        assertThat(FixedRateLoad.percentile(ten, 99)).isEqualTo(10);
        assertThat(FixedRateLoad.percentile(ten, 100)).isEqualTo(10);
        assertThat(FixedRateLoad.percentile(ten, 0.1)).isEqualTo(1);
        assertThat(FixedRateLoad.percentile(new long[] {7}, 99)).isEqualTo(7);
        assertThat(FixedRateLoad.percentile(new long[0], 50)).isZero();
        assertThatThrownBy(() -> FixedRateLoad.percentile(ten, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aConfigurationSurvivesTheCommandLineAndRefusesUnboundedRuns() {
        FixedRateLoad.Config config = new FixedRateLoad.Config(URI.create("http://127.0.0.1:18403/"), 400, 60_000, 16,
                1_790_000_000_000L, 5_000);

        assertThat(FixedRateLoad.Config.parse(config.arguments().toArray(String[]::new))).isEqualTo(config);
        assertThatThrownBy(() -> new FixedRateLoad.Config(URI.create("https://127.0.0.1:1/"), 1, 1, 1, 0, 1))
                .hasMessageContaining("http://host:port");
        assertThatThrownBy(() -> new FixedRateLoad.Config(URI.create("http://127.0.0.1/"), 1, 1, 1, 0, 1))
                .hasMessageContaining("http://host:port");
        assertThatThrownBy(() -> new FixedRateLoad.Config(URI.create("http://127.0.0.1:1/"), 100_000, 3_600_000, 1, 0, 1))
                .hasMessageContaining("at most");
        assertThatThrownBy(() -> new FixedRateLoad.Config(URI.create("http://127.0.0.1:1/"), 1, 1, 0, 0, 1))
                .hasMessageContaining("connections");
        assertThatThrownBy(() -> FixedRateLoad.Config.parse(new String[] {"http://127.0.0.1:1/", "x", "1", "1", "0", "1"}))
                .hasMessageContaining("not a number");
        assertThatThrownBy(() -> FixedRateLoad.Config.parse(new String[0])).hasMessageContaining("usage");
    }

    @Test
    void everyScheduledRequestIsAnsweredAndTheReportReadsBack() throws IOException {
        startServer();
        FixedRateLoad.Config config = config("/", 200, 250);

        FixedRateOutput out = FixedRateOutput.parse(FixedRateLoad.run(config));

        assertThat(out.scheduled()).isEqualTo(50);
        assertThat(out.ok()).isEqualTo(50);
        assertThat(out.errors()).isZero();
        assertThat(out.p50Ms()).isPositive();
        assertThat(out.p99Ms()).isGreaterThanOrEqualTo(out.p50Ms());
        assertThat(out.maxMs()).isGreaterThanOrEqualTo(out.p99Ms());
        assertThat(out.achievedPerSecond()).isPositive();
    }

    @Test
    void aRunSaysOnceASecondHowFarItIsAndTheLiveLineReadsIt() throws IOException {
        startServer();
        ByteArrayOutputStream progress = new ByteArrayOutputStream();

        String report = FixedRateLoad.run(config("/", 20, 2_500), new PrintStream(progress, true, StandardCharsets.UTF_8));

        List<String> lines = progress.toString(StandardCharsets.UTF_8).lines().toList();
        // at 1 s and 2 s after the start instant; a third only if the run is still answering at 3 s
        assertThat(lines).hasSizeBetween(2, 3);
        long[][] figures = lines.stream().map(FixedRateLoadTest::progressFigures).toArray(long[][]::new);
        // by 1 s the 21 requests due at 0 to 1 s were sent (20 a second): most of them answered
        assertThat(figures[0][0]).isBetween(15L, 21L);
        assertThat(figures[1][0]).isBetween(35L, 41L);
        assertThat(figures[0][1]).isEqualTo(figures[0][0]);
        assertThat(figures[0][2]).isBetween(1000L, 1499L);
        assertThat(figures[1][2]).isBetween(2000L, 2499L);
        // on the same stream as the report (the lab merges them), the report still reads back
        assertThat(FixedRateOutput.parse(String.join("\n", lines) + "\n" + report).ok()).isEqualTo(50);
    }

    /** completed, ok and ms of a progress line. */
    private static long[] progressFigures(String line) {
        Matcher m = Pattern.compile("progress: (\\d+) completed, (\\d+) ok, (\\d+) ms").matcher(line);
        assertThat(m.matches()).as(line).isTrue();
        return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3))};
    }

    @Test
    void aConnectionTheServerClosesIsOpenedAgainWithoutAnError() throws IOException {
        startServer();

        String report = FixedRateLoad.run(config("/close", 200, 100));
        FixedRateOutput out = FixedRateOutput.parse(report);

        assertThat(out.ok()).isEqualTo(20);
        assertThat(out.errors()).isZero();
        assertThat(report).contains("connections opened: 20\n");
    }

    @Test
    void otherStatusesAndRefusedConnectsAreCountedApart() throws IOException {
        startServer();
        FixedRateOutput busy = FixedRateOutput.parse(FixedRateLoad.run(config("/busy", 200, 100)));
        assertThat(busy.non200()).isEqualTo(20);
        assertThat(busy.ok()).isZero();
        assertThat(busy.errors()).isEqualTo(20);

        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        FixedRateOutput refused = FixedRateOutput.parse(FixedRateLoad.run(new FixedRateLoad.Config(
                URI.create("http://127.0.0.1:" + closedPort + "/"), 200, 100, 4, System.currentTimeMillis(), 5_000)));
        assertThat(refused.connectErrors()).isEqualTo(20);
        assertThat(refused.errorText()).isEqualTo("connect 20, read 0, timeout 0, non-200 0, unfinished 0");
    }

    private FixedRateLoad.Config config(String path, int rate, long durationMs) {
        return new FixedRateLoad.Config(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path), rate,
                durationMs, 4, System.currentTimeMillis(), 5_000);
    }

    private void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        server.createContext("/", FixedRateLoadTest::answer);
        server.start();
    }

    private static void answer(HttpExchange exchange) throws IOException {
        byte[] body = "HelloWorld".getBytes(StandardCharsets.US_ASCII);
        String path = exchange.getRequestURI().getPath();
        if (path.equals("/close")) exchange.getResponseHeaders().set("Connection", "close");
        exchange.sendResponseHeaders(path.equals("/busy") ? 503 : 200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
