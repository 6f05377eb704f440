package dev.petrel.example.hello;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.testkit.TomcatDistribution;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code target/hello.jar} as built, started as users start it ({@code java -jar}) on each
 * transport and with Petrel switched off, answering over HTTP and WebSocket (STOMP and the raw
 * echo) and stopping on SIGTERM.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HelloJarIT {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"blocking", "virtual", "nio", "off"})
    void executableJarServes(String transport, @TempDir Path dir) throws Exception {
        Path jar = Path.of(System.getProperty("hello.jar"));
        assertThat(jar).isRegularFile();
        int port = TomcatDistribution.freePort();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-jar", jar.toString(), "--server.port=" + port, "--server.address=127.0.0.1"));
        command.add(transport.equals("off") ? "--petrel.enabled=false" : "--petrel.transport=" + transport);
        Path log = dir.resolve("console.log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        try {
            String base = "http://127.0.0.1:" + port;
            HttpResponse<String> hello = awaitAnswer(process, log, URI.create(base + "/"));
            assertThat(hello.statusCode()).isEqualTo(200);
            assertThat(hello.body()).isEqualTo("HelloWorld");
            HttpResponse<String> json = CLIENT.send(HttpRequest.newBuilder(URI.create(base + "/json")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(json.body()).isEqualTo("{\"message\":\"HelloWorld\",\"secure\":false}");
            HttpResponse<String> page = CLIENT.send(HttpRequest.newBuilder(URI.create(base + "/greeting?name=jar")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(page.body()).contains("<p>Hello, jar!</p>");
            String ws = "ws://127.0.0.1:" + port;
            assertThat(WebSocketProbe.greetOverStomp(ws + "/stomp", "jar")).isEqualTo("Hello, jar!");
            assertThat(WebSocketProbe.echo(ws + "/ws/echo", "echo from the jar")).containsExactly("echo from the jar");
            String console = Files.readString(log);
            if (transport.equals("off")) {
                assertThat(console).doesNotContain("Petrel connector").contains("Tomcat started on port " + port);
            } else {
                assertThat(console).contains("Starting Petrel connector").contains("transport " + transport);
            }
        } finally {
            process.destroy(); // SIGTERM, as a service manager stops it
            boolean exited = process.waitFor(30, TimeUnit.SECONDS);
            if (!exited) process.destroyForcibly();
            assertThat(exited).as("stopped within 30 s of SIGTERM: %s", Files.readString(log)).isTrue();
        }
    }

    private static HttpResponse<String> awaitAnswer(Process process, Path log, URI uri) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                return CLIENT.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.ofString());
            } catch (java.io.IOException notYet) {
                if (!process.isAlive()) throw new AssertionError("the jar exited: " + Files.readString(log));
                if (System.nanoTime() > deadline) throw new AssertionError("no answer within 60 s: " + Files.readString(log));
                Thread.sleep(200);
            }
        }
    }
}
