package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.config.Http2Config;
import dev.petrel.server.Server;
import dev.petrel.server.tls.Tools;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTP/2 end to end on every transport, with real clients: {@code h2} over TLS (negotiated by
 * ALPN, RFC 9113 section 3.2) from Java's {@link HttpClient}, curl and h2load, and {@code h2c} with
 * prior knowledge on the plain port (section 3.3) from curl, h2load and nghttp. The same handler
 * as the HTTP/1.1 suite answers: the exchange is the one every protocol shares.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class Http2Test {
    @TempDir
    static Path dir;

    private static Server start(Transport kind) throws Exception {
        return TestServers.builder(kind, TestServers.config().build(), TestApp.handler())
                .http2(Http2Config.ENABLED.withClearText(true))
                .start();
    }

    private static String url(Server server, Transport kind, String path) {
        return kind.tls() ? "https://localhost:" + server.httpsAddress().getPort() + path
                : "http://127.0.0.1:" + server.address().getPort() + path;
    }

    private static Tools.Result curl(Server server, Transport kind, String path, String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "20"));
        if (kind.tls()) {
            Path trusted = dir.resolve("localhost.crt");
            if (!Files.exists(trusted)) Files.writeString(trusted, TestCertificate.get().certificatePem());
            command.addAll(List.of("--http2", "--cacert", trusted.toString()));
        } else {
            command.add("--http2-prior-knowledge");
        }
        command.addAll(List.of(options));
        command.add(url(server, kind, path));
        return Tools.runAllowingFailure(dir, command, "");
    }

    @TransportTest
    void curlGetsAndPostsOverHttp2(Transport kind) throws Exception {
        try (Server server = start(kind)) {
            Tools.Result get = curl(server, kind, "/", "-w", " %{http_version} %{http_code}");
            assertThat(get.output()).isEqualTo("HelloWorld 2 200");

            byte[] body = new byte[300_000]; // beyond the stream window of 65,535: flow control both ways
            new Random(7).nextBytes(body);
            Path upload = Files.write(dir.resolve("upload-" + kind), body);
            Path echoed = dir.resolve("echoed-" + kind);
            Tools.Result post = curl(server, kind, "/echo", "--data-binary", "@" + upload, "-o", echoed.toString(),
                    "-w", "%{http_version} %{http_code}");
            assertThat(post.output()).isEqualTo("2 200");
            assertThat(Files.readAllBytes(echoed)).isEqualTo(body);
        }
    }

    /** Response headers are lower case on the wire and connection-specific ones never appear (section 8.2). */
    @TransportTest
    void responseHeadersAreLowerCase(Transport kind) throws Exception {
        try (Server server = start(kind)) {
            Tools.Result head = curl(server, kind, "/text", "-D", "-", "-o", "/dev/null");
            assertThat(head.output()).startsWith("HTTP/2 200").contains("x-test: 1").contains("content-length: 11")
                    .doesNotContainIgnoringCase("connection:").doesNotContainIgnoringCase("transfer-encoding");
        }
    }

    @TransportTest
    void h2loadMultiplexesStreamsWithoutErrors(Transport kind) throws Exception {
        try (Server server = start(kind)) {
            Tools.Result run = Tools.runAllowingFailure(dir, List.of("timeout", "50", "h2load", "-n", "2000", "-c", "4",
                    "-m", "10", url(server, kind, "/")), "");
            assertThat(run.output()).as(run.output())
                    .contains("requests: 2000 total, 2000 started, 2000 done, 2000 succeeded, 0 failed, 0 errored, 0 timeout")
                    .contains("status codes: 2000 2xx");
            // one connection at exactly the stream limit: a stream whose response has ended no longer
            // counts (section 5.1.2), so a client opening the next at once is never refused
            Tools.Result atLimit = Tools.runAllowingFailure(dir, List.of("timeout", "50", "h2load", "-n", "2000", "-c", "1",
                    "-m", "100", url(server, kind, "/")), "");
            assertThat(atLimit.output()).as(atLimit.output())
                    .contains("requests: 2000 total, 2000 started, 2000 done, 2000 succeeded, 0 failed, 0 errored, 0 timeout");
        }
    }

    @TransportTest
    void nghttpSeesTheSettingsAndTheResponse(Transport kind) throws Exception {
        try (Server server = start(kind)) {
            Tools.Result run = Tools.runAllowingFailure(dir, List.of("timeout", "20", "nghttp", "-nv", url(server, kind, "/")), "");
            assertThat(run.exitCode()).as(run.output()).isZero();
            // nghttp opens its first request on stream 13, after PRIORITY frames for idle streams 3 to 11
            assertThat(run.output()).contains("recv SETTINGS frame").contains("[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):100]")
                    .contains("recv SETTINGS frame <length=0, flags=0x01, stream_id=0>").contains(") :status: 200")
                    .contains("recv DATA frame <length=10, flags=0x01");
        }
    }

    /** Java's own client over TLS: it offers h2 by ALPN and multiplexes its requests on one connection. */
    @TransportTest
    void javaHttpClientUsesHttp2OverTls(Transport kind) throws Exception {
        // Java's client reaches h2c only by Upgrade, which RFC 9113 deprecates and Petrel leaves out
        Assumptions.assumeTrue(kind.tls(), "h2 over TLS only");
        try (Server server = start(kind);
             HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                     .sslContext(TestCertificate.get().clientContext()).connectTimeout(Duration.ofSeconds(5)).build()) {
            HttpResponse<String> hello = client.send(HttpRequest.newBuilder(URI.create(url(server, kind, "/"))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(hello.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(hello.body()).isEqualTo("HelloWorld");

            List<CompletableFuture<HttpResponse<String>>> many = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                many.add(client.sendAsync(HttpRequest.newBuilder(URI.create(url(server, kind, "/echo")))
                        .POST(HttpRequest.BodyPublishers.ofString("request " + i)).build(), HttpResponse.BodyHandlers.ofString()));
            }
            for (int i = 0; i < many.size(); i++) {
                HttpResponse<String> response = many.get(i).get(30, TimeUnit.SECONDS);
                assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
                assertThat(response.body()).isEqualTo("request " + i);
            }
        }
    }

    /** Without {@code h2c} a plain port speaks HTTP/1.1 only: the preface is no request it accepts. */
    @PlainHttpTransportTest
    void priorKnowledgeIsRefusedUnlessAsked(Transport kind) throws Exception {
        try (Server server = TestServers.builder(kind, TestServers.config().build(), TestApp.handler())
                .http2(Http2Config.ENABLED).start()) {
            Tools.Result run = curl(server, kind, "/", "-w", " %{http_version} %{http_code}");
            assertThat(run.output()).doesNotContain("HelloWorld");
        }
    }
}
