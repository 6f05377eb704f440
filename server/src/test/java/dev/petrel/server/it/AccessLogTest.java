package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.config.AccessLog;
import dev.petrel.server.config.AjpConfig;
import dev.petrel.server.Handler;
import dev.petrel.server.HttpStatusException;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.testkit.AjpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

/**
 * The access log over real requests on every transport, plain and TLS, and over AJP: one line per
 * exchange with the client's address, the request line, the final status (an error answer's
 * included) and the body bytes, in each format; values a client chose are escaped; a file moved
 * away is reopened on demand.
 */
class AccessLogTest {
    private static final String SECRET = "s3cret";

    @TempDir
    Path dir;

    private static Handler app() {
        return Router.builder()
                .get("/hello", (request, response) -> response.send("HelloWorld"))
                .get("/teapot", (request, response) -> {
                    throw new HttpStatusException(418, "I'm a teapot");
                })
                .get("/cut", (request, response) -> {
                    try (var out = response.body()) {
                        out.write(new byte[100]);
                        out.flush(); // committed: the failure that follows can only cut the response
                        throw new IllegalStateException("the handler failed after committing");
                    }
                })
                .build();
    }

    private Server start(Transport transport, AccessLog log) throws Exception {
        return TestServers.builder(transport, TestServers.config().build(), transport.handler(app())).accessLog(log).start();
    }

    private List<String> lines(Path file) throws Exception {
        return Files.readAllLines(file);
    }

    @TransportTest
    void combinedLinesForEachExchangeWithTheFinalStatus(Transport transport) throws Exception {
        Path file = dir.resolve("access.log");
        Server server = start(transport, AccessLog.file(file));
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET /hello?x=1 HTTP/1.1\r\nHost: localhost\r\nReferer: http://example.test/from\r\n"
                    + "User-Agent: test-agent/1.0\r\n\r\n").read();
            client.send(Requests.get("/teapot")).read();
            client.send(Requests.get("/missing")).read();
        }
        server.stop(Duration.ofSeconds(5)); // writes what is queued
        List<String> lines = lines(file);
        assertThat(lines).hasSize(3);
        String time = "\\[\\d{2}/\\w{3}/\\d{4}:\\d{2}:\\d{2}:\\d{2} [+-]\\d{4}\\]";
        assertThat(lines.get(0)).matches("127\\.0\\.0\\.1 - - " + time
                + " \"GET /hello\\?x=1 HTTP/1\\.1\" 200 10 \"http://example\\.test/from\" \"test-agent/1\\.0\"");
        assertThat(lines.get(1)).matches("127\\.0\\.0\\.1 - - " + time + " \"GET /teapot HTTP/1\\.1\" 418 \\d+ \"-\" \"-\"");
        assertThat(lines.get(2)).matches("127\\.0\\.0\\.1 - - " + time + " \"GET /missing HTTP/1\\.1\" 404 \\d+ \"-\" \"-\"");
    }

    @PlainHttpTransportTest
    void jsonLinesEscapeWhatTheClientSent(Transport transport) throws Exception {
        Path file = dir.resolve("access.json");
        Server server = start(transport, AccessLog.file(file).format(AccessLog.Format.JSON));
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET /hello HTTP/1.1\r\nHost: localhost\r\nUser-Agent: evil\"agent\\x\r\n\r\n").read();
        }
        server.stop(Duration.ofSeconds(5));
        String line = lines(file).getFirst();
        assertThat(line).startsWith("{\"time\":\"").contains("\"remote\":\"127.0.0.1\"", "\"method\":\"GET\"",
                "\"target\":\"/hello\"", "\"protocol\":\"HTTP/1.1\"", "\"scheme\":\"http\"", "\"host\":\"localhost\"",
                "\"status\":200", "\"bytes\":10", "\"referer\":null", "\"user_agent\":\"evil\\\"agent\\\\x\"")
                .containsPattern("\"duration_ms\":\\d+\\.\\d{3}").endsWith("}");
    }

    /**
     * An exchange whose response was cut keeps the status and bytes its client got, and says it
     * is incomplete: a last field in the NCSA formats, {@code "complete":false} in JSON.
     */
    @PlainHttpTransportTest
    void anExchangeCutAfterItsResponseBeganIsLoggedIncomplete(Transport transport) throws Exception {
        for (AccessLog.Format format : AccessLog.Format.values()) {
            Path file = dir.resolve("cut-" + format + ".log");
            Server server = start(transport, AccessLog.file(file).format(format));
            try (RawClient client = RawClient.connect(server)) {
                client.send(Requests.get("/hello")).read();
                client.send(Requests.get("/cut")).readHead();
                client.discardUntilClosed();
            }
            server.stop(Duration.ofSeconds(5));
            List<String> lines = lines(file);
            assertThat(lines).hasSize(2);
            if (format == AccessLog.Format.JSON) {
                assertThat(lines.get(0)).contains("\"status\":200", "\"complete\":true");
                assertThat(lines.get(1)).contains("\"target\":\"/cut\"", "\"status\":200", "\"bytes\":100", "\"complete\":false");
            } else {
                assertThat(lines.get(0)).doesNotContain("incomplete");
                assertThat(lines.get(1)).contains("\"GET /cut HTTP/1.1\" 200 100").endsWith(" incomplete");
            }
        }
    }

    @PlainHttpTransportTest
    void commonFormatAndAjpExchangesWithTheFrontEndsClient(Transport transport) throws Exception {
        Path file = dir.resolve("ajp.log");
        Server server = TestServers.builder(transport, TestServers.config().build(), app())
                .ajp(0, AjpConfig.withSecret(SECRET)).accessLog(AccessLog.file(file).format(AccessLog.Format.COMMON)).start();
        try (AjpClient client = AjpClient.connect(server.ajpAddress())) {
            assertThat(client.send(AjpClient.request("GET", "/hello").remote("198.51.100.23", 50123)
                    .header("Host", "shop.example").secret(SECRET)).status()).isEqualTo(200);
        }
        server.stop(Duration.ofSeconds(5));
        assertThat(lines(file)).anySatisfy(line -> assertThat(line)
                .matches("198\\.51\\.100\\.23 - - \\[[^]]+\\] \"GET /hello HTTP/1\\.1\" 200 10"));
    }

    @PlainHttpTransportTest
    void aFileMovedAwayIsReopened(Transport transport) throws Exception {
        Path file = dir.resolve("access.log");
        Server server = start(transport, AccessLog.file(file).format(AccessLog.Format.COMMON));
        try {
            try (RawClient client = RawClient.connect(server)) {
                client.send(Requests.get("/hello")).read();
            }
            awaitLines(file, 1);
            Path rotated = dir.resolve("access.log.1");
            Files.move(file, rotated); // what logrotate does, then it signals the server
            server.reopenAccessLog();
            awaitExists(file);
            try (RawClient client = RawClient.connect(server)) {
                client.send(Requests.get("/hello?after")).read();
            }
            awaitLines(file, 1);
            assertThat(lines(rotated)).singleElement().asString().contains("GET /hello HTTP/1.1");
            assertThat(lines(file)).singleElement().asString().contains("GET /hello?after HTTP/1.1");
            assertThat(server.accessLogDropped()).isZero();
        } finally {
            server.stop(Duration.ofSeconds(5));
        }
    }

    private static void awaitLines(Path file, int count) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (System.nanoTime() < deadline && (!Files.exists(file) || Files.readAllLines(file).size() < count)) Thread.sleep(10);
        assertThat(Files.readAllLines(file)).hasSizeGreaterThanOrEqualTo(count);
    }

    private static void awaitExists(Path file) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (System.nanoTime() < deadline && !Files.exists(file)) Thread.sleep(10);
        assertThat(file).exists();
    }
}
