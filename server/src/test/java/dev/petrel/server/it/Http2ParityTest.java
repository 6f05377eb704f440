package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.config.Http2Config;
import dev.petrel.server.Server;
import dev.petrel.server.files.StaticFiles;
import dev.petrel.server.tls.Tools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The integration suite's request/response cases answered the same over HTTP/2 as over
 * HTTP/1.1, on every transport: the same status, body and headers, because one exchange serves
 * both. curl asks each case twice, once with {@code --http1.1} and once with HTTP/2 ({@code h2}
 * by ALPN over TLS, {@code h2c} with prior knowledge on the plain port), and the answers are
 * compared field by field: the routes of the test app (bodies, streamed bodies, errors, a
 * handler that fails, a wrong method, a bad target) and static files (ranges, conditional
 * requests, HEAD, a missing file, a path that climbs out of the root).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class Http2ParityTest {
    /** Headers whose values must match; the framing ones (content-length, transfer-encoding, connection) differ by design. */
    private static final List<String> COMPARED = List.of("content-type", "content-range", "accept-ranges", "etag",
            "last-modified", "allow", "x-test", "cache-control", "vary", "access-control-allow-origin",
            "access-control-allow-methods", "access-control-expose-headers");

    @TempDir
    static Path dir;
    private static Path root;
    private static Path upload;

    @BeforeAll
    static void files() throws Exception {
        root = Files.createDirectories(dir.resolve("site"));
        Path text = Files.writeString(root.resolve("hello.txt"), "Hello, static world. ".repeat(200));
        Files.setLastModifiedTime(text, FileTime.from(Instant.parse("2026-01-02T03:04:05Z")));
        Files.writeString(root.resolve("page.html"), "<!doctype html><p>page</p>");
        byte[] body = new byte[100_000];
        new Random(11).nextBytes(body);
        upload = Files.write(dir.resolve("upload.bin"), body);
    }

    /** A case: the status both protocols must answer with, and curl's options (method, headers, body), the URL's path last. */
    private record Case(int status, List<String> options) {
        Case(int status, String... options) {
            this(status, List.of(options));
        }
    }

    private static List<Case> cases() {
        return List.of(
                new Case(200, "/"),
                new Case(200, "-I", "/"),
                new Case(200, "/text"),
                new Case(200, "/scheme"),
                new Case(200, "/stream?300000"),
                new Case(200, "/stream-length?70000"),
                new Case(200, "--data-binary", "@" + upload, "-H", "Content-Type: application/octet-stream", "/echo"),
                new Case(404, "/missing"),
                new Case(500, "/fail"),
                new Case(500, "/io-fail"),
                new Case(500, "/fail-before-commit"),
                new Case(405, "-X", "DELETE", "/text"),
                new Case(400, "--path-as-is", "/bad%zzpath"),
                new Case(200, "/users/42"),
                new Case(200, "/users/me"),
                new Case(200, "/users/7/posts/hello%20world"),
                new Case(400, "/users/abc"),
                new Case(404, "/users/"),
                new Case(200, "/tree/a/b/c.txt"),
                new Case(405, "-X", "DELETE", "/users/42"),
                new Case(204, "-X", "OPTIONS", "-H", "Origin: https://app.example.com", "-H", "Access-Control-Request-Method: PUT",
                        "/cors"),
                new Case(200, "-X", "PUT", "-H", "Origin: https://app.example.com", "/cors"),
                new Case(403, "-H", "Origin: https://evil.example", "/cors"),
                new Case(200, "-F", "title=hello", "-F", "file=@" + upload + ";type=application/octet-stream", "/upload"),
                new Case(415, "--data-binary", "plain", "/upload"),
                new Case(200, "/hello.txt"),
                new Case(206, "-H", "Range: bytes=10-99", "/hello.txt"),
                new Case(416, "-H", "Range: bytes=100000-", "/hello.txt"),
                new Case(304, "-H", "If-Modified-Since: Sat, 03 Jan 2026 00:00:00 GMT", "/hello.txt"),
                new Case(200, "-I", "/page.html"),
                new Case(404, "/nothing-here.txt"),
                new Case(400, "--path-as-is", "/../upload.bin"));
    }

    @TransportTest
    void everyCaseIsAnsweredTheSameOverHttp2AsOverHttp1(Transport kind) throws Exception {
        try (Server server = TestServers.builder(kind, TestServers.config().build(),
                        TestApp.routes().fallback(new StaticFiles(root)).build())
                .http2(Http2Config.ENABLED.withClearText(true))
                .start()) {
            int n = 0;
            for (Case c : cases()) {
                List<String> options = c.options();
                String what = kind + " " + String.join(" ", options);
                Answer http1 = ask(server, kind, options, false, n++);
                Answer http2 = ask(server, kind, options, true, n++);
                assertThat(http1.version()).as(what).isEqualTo("1.1");
                assertThat(http2.version()).as(what).isEqualTo("2");
                assertThat(http1.status()).as(what).isEqualTo(c.status());
                assertThat(http2.status()).as(what).isEqualTo(c.status());
                // with -I curl writes the head where the body would go, in each protocol's own form
                if (!options.contains("-I")) assertThat(http2.body()).as(what).isEqualTo(http1.body());
                for (String name : COMPARED) {
                    assertThat(http2.headers().get(name)).as(what + ": " + name).isEqualTo(http1.headers().get(name));
                }
            }
        }
    }

    /** What curl received: the protocol version, the status, the headers (last value per name, lower case) and the body. */
    private record Answer(String version, int status, Map<String, String> headers, byte[] body) {}

    private static Answer ask(Server server, Transport kind, List<String> options, boolean http2, int n) throws Exception {
        Path headers = dir.resolve("headers-" + kind + "-" + n);
        Path body = dir.resolve("body-" + kind + "-" + n);
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "20", "-D", headers.toString(),
                "-o", body.toString(), "-w", "%{http_version} %{http_code}"));
        if (kind.tls()) {
            Path trusted = dir.resolve("localhost.crt");
            if (!Files.exists(trusted)) Files.writeString(trusted, TestCertificate.get().certificatePem());
            command.addAll(List.of("--cacert", trusted.toString(), http2 ? "--http2" : "--http1.1"));
        } else {
            command.add(http2 ? "--http2-prior-knowledge" : "--http1.1");
        }
        command.addAll(options.subList(0, options.size() - 1));
        String path = options.getLast();
        command.add(kind.tls() ? "https://localhost:" + server.httpsAddress().getPort() + path
                : "http://127.0.0.1:" + server.address().getPort() + path);
        Tools.Result result = Tools.runAllowingFailure(dir, command, "");
        String[] written = result.output().trim().split(" ");
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : Files.readAllLines(headers)) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("HTTP/")) {
                fields.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
            }
        }
        byte[] received = Files.exists(body) ? Files.readAllBytes(body) : new byte[0];
        return new Answer(written[0], Integer.parseInt(written[written.length - 1]), fields, received);
    }
}
