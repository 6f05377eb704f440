package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Compression;
import dev.petrel.server.Handler;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.server.files.StaticFiles;
import dev.petrel.server.tls.Tools;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Compression#gzip}: what is compressed (compressible 200s above the threshold, sent or
 * streamed, static files without a precompressed sibling) and what is left alone (small, other
 * types, HEAD, a client that does not accept gzip, a body already encoded), with {@code Vary} and
 * weak entity tags; curl {@code --compressed} reads it back.
 */
class CompressionTest {
    private static final String TEXT = "{\"greeting\":\"hello\"}\n".repeat(200); // 4,200 bytes of JSON

    @TempDir
    Path root;

    private Handler app() throws Exception {
        Files.writeString(root.resolve("app.css"), "a { color: red; }\n".repeat(100));
        Files.writeString(root.resolve("pre.css"), "b { color: blue; }\n".repeat(100));
        Files.writeString(root.resolve("pre.css.gz"), "pretend-gzip");
        return Compression.gzip(Router.builder()
                .get("/json", (request, response) -> response.contentType("application/json").send(TEXT))
                .get("/small", (request, response) -> response.contentType("application/json").send("{}"))
                .get("/png", (request, response) -> response.contentType("image/png").send(new byte[5000]))
                .get("/encoded", (request, response) -> response.contentType("text/plain").header("Content-Encoding", "br")
                        .send(new byte[5000]))
                .get("/stream", (request, response) -> {
                    response.contentType("text/event-stream");
                    try (OutputStream out = response.body()) {
                        for (int i = 0; i < 50; i++) {
                            out.write(("data: event " + i + "\n\n").getBytes(StandardCharsets.UTF_8));
                            if (i % 10 == 0) out.flush(); // a streaming handler's flushes leave as sync flushes
                        }
                    }
                })
                .get("/later", (request, response) -> {
                    dev.petrel.server.Detached later = response.detach(java.time.Duration.ofSeconds(10));
                    Thread.ofVirtual().start(() -> {
                        try {
                            response.contentType("application/json");
                            response.body().write(TEXT.getBytes(StandardCharsets.UTF_8)); // left open, as handlers may
                            later.complete();
                        } catch (Exception e) {
                            later.fail(e);
                        }
                    });
                })
                .fallback(new StaticFiles(root))
                .build());
    }

    private static RawResponse get(Server server, String method, String path, String acceptEncoding) throws Exception {
        try (RawClient client = RawClient.connect(server)) {
            client.send(method + " " + path + " HTTP/1.1\r\nHost: x\r\n"
                    + (acceptEncoding == null ? "" : "Accept-Encoding: " + acceptEncoding + "\r\n") + "\r\n");
            return method.equals("HEAD") ? client.readForHead() : client.read();
        }
    }

    private static String gunzip(byte[] body) throws Exception {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @PlainHttpTransportTest
    void compressesWhatPaysAndLeavesTheRestAlone(Transport transport) throws Exception {
        try (Server server = TestServers.start(transport, transport.handler(app()))) {
            RawResponse json = get(server, "GET", "/json", "gzip, br");
            assertThat(json.header("Content-Encoding")).isEqualTo("gzip");
            assertThat(json.header("Vary")).isEqualTo("Accept-Encoding");
            assertThat(json.body().length).isLessThan(TEXT.length() / 5);
            assertThat(gunzip(json.body())).isEqualTo(TEXT);
            RawResponse plain = get(server, "GET", "/json", null);
            assertThat(plain.header("Content-Encoding")).isNull();
            assertThat(plain.header("Vary")).isEqualTo("Accept-Encoding");
            assertThat(plain.text()).isEqualTo(TEXT);
            assertThat(get(server, "GET", "/json", "gzip;q=0").header("Content-Encoding")).isNull();
            assertThat(get(server, "GET", "/small", "gzip").header("Content-Encoding")).isNull();
            RawResponse png = get(server, "GET", "/png", "gzip");
            assertThat(png.header("Content-Encoding")).isNull();
            assertThat(png.header("Vary")).isNull();
            assertThat(get(server, "GET", "/encoded", "gzip").header("Content-Encoding")).isEqualTo("br");
            RawResponse head = get(server, "HEAD", "/json", "gzip");
            assertThat(head.header("Content-Encoding")).isNull();
            assertThat(head.header("Content-Length")).isEqualTo(Integer.toString(TEXT.length()));
        }
    }

    @PlainHttpTransportTest
    void streamedBodiesAndStaticFiles(Transport transport) throws Exception {
        try (Server server = TestServers.start(transport, transport.handler(app()))) {
            RawResponse stream = get(server, "GET", "/stream", "gzip");
            assertThat(stream.header("Content-Encoding")).isEqualTo("gzip");
            assertThat(stream.header("Transfer-Encoding")).isEqualTo("chunked");
            assertThat(gunzip(stream.body())).startsWith("data: event 0\n\n").endsWith("data: event 49\n\n");
            if (!transport.toString().contains("inline")) { // an event loop's handler cannot detach
                RawResponse later = get(server, "GET", "/later", "gzip");
                assertThat(later.header("Content-Encoding")).isEqualTo("gzip");
                assertThat(gunzip(later.body())).as("a detached response, finished by complete()").isEqualTo(TEXT);
            }
            RawResponse css = get(server, "GET", "/app.css", "gzip");
            assertThat(css.header("Content-Encoding")).isEqualTo("gzip");
            assertThat(css.header("ETag")).startsWith("W/\"");
            assertThat(gunzip(css.body())).isEqualTo("a { color: red; }\n".repeat(100));
            RawResponse pre = get(server, "GET", "/pre.css", "gzip");
            assertThat(pre.text()).as("the precompressed sibling, untouched").isEqualTo("pretend-gzip");
            RawResponse range;
            try (RawClient client = RawClient.connect(server)) {
                range = client.send("GET /app.css HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nRange: bytes=0-9\r\n\r\n").read();
            }
            assertThat(range.status()).isEqualTo(206);
            assertThat(range.header("Content-Encoding")).as("ranges are never compressed").isNull();
        }
    }

    @PlainHttpTransportTest
    void curlCompressedReadsItBack(Transport transport) throws Exception {
        try (Server server = TestServers.start(transport, transport.handler(app()))) {
            Tools.Result curl = Tools.runAllowingFailure(root, List.of("curl", "-sS", "--max-time", "10", "--compressed",
                    "http://127.0.0.1:" + server.address().getPort() + "/json"), "");
            assertThat(curl.exitCode()).as(curl.output()).isZero();
            assertThat(curl.output()).isEqualTo(TEXT);
        }
    }
}
