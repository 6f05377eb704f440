package dev.petrel.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code petrel serve --admin-port} as a process, with this module on the class path as the
 * launcher puts it: {@code /health} and {@code /metrics} on the admin listener, the application's
 * requests counted there, and nothing of the admin listener's own.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AdminListenerProcessTest {
    private static final Pattern READY = Pattern.compile("ready: .*http://127\\.0\\.0\\.1:(\\d+)/ and admin http://127\\.0\\.0\\.1:(\\d+)/health");

    @TempDir
    Path dir;

    @Test
    void healthAndMetricsOnTheAdminPort() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path log = dir.resolve("serve.log");
        Process process = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                "dev.petrel.server.cli.Main", "serve", "--port", "0", "--admin-port", "0")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            await(() -> READY.matcher(read(log)).find());
            Matcher ready = READY.matcher(read(log));
            assertThat(ready.find()).isTrue();
            int port = Integer.parseInt(ready.group(1));
            int adminPort = Integer.parseInt(ready.group(2));
            HttpClient client = HttpClient.newHttpClient();

            assertThat(get(client, port, "/").body()).isEqualTo("HelloWorld");
            HttpResponse<String> health = get(client, adminPort, "/health");
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).contains("\"UP\"");
            String metrics = get(client, adminPort, "/metrics").body();
            assertThat(metrics)
                    .contains("petrel_requests_total{listener=\"http-" + port + "\",method=\"GET\",status=\"2xx\"} 1.0")
                    .doesNotContain("listener=\"http-" + adminPort + "\"")
                    .contains("jvm_memory_used_bytes");
            assertThat(read(log)).doesNotContain("no metrics exporter");

            process.destroy(); // SIGTERM: a graceful stop
            assertThat(process.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).isZero();
        } finally {
            process.destroyForcibly();
        }
    }

    private static HttpResponse<String> get(HttpClient client, int port, String path) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String read(Path log) {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            return "";
        }
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("the ready line did not come");
            Thread.sleep(50);
        }
    }
}
