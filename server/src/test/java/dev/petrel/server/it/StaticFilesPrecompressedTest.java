package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Server;
import dev.petrel.server.files.StaticFiles;
import dev.petrel.server.tls.Tools;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * Precompressed siblings ({@code .br}, {@code .gz}) chosen by {@code Accept-Encoding}, with
 * {@code Content-Encoding}, {@code Vary} and their own entity tags; curl {@code --compressed}
 * gets the original text back. And {@code Cache-Control} by path pattern, which they share.
 */
class StaticFilesPrecompressedTest {
    private static final String TEXT = "body { color: teal; }\n".repeat(50);

    @TempDir
    Path root;
    byte[] gzipped;

    @BeforeEach
    void site() throws Exception {
        Files.writeString(root.resolve("site.css"), TEXT);
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write(TEXT.getBytes(StandardCharsets.UTF_8));
        }
        gzipped = gz.toByteArray();
        Files.write(root.resolve("site.css.gz"), gzipped);
        Files.writeString(root.resolve("both.css"), TEXT);
        Files.write(root.resolve("both.css.gz"), gzipped);
        Files.writeString(root.resolve("both.css.br"), "pretend-brotli"); // its bytes are the build's business
        Files.writeString(root.resolve("plain.txt"), "no siblings");
    }

    private static RawResponse get(Server server, String path, String acceptEncoding) throws Exception {
        try (RawClient client = RawClient.connect(server)) {
            return client.send("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n"
                    + (acceptEncoding == null ? "" : "Accept-Encoding: " + acceptEncoding + "\r\n") + "\r\n").read();
        }
    }

    @PlainHttpTransportTest
    void theSiblingAClientAcceptsIsServed(Transport transport) throws Exception {
        try (Server server = TestServers.start(transport, transport.handler(new StaticFiles(root)))) {
            RawResponse gzip = get(server, "/site.css", "gzip, deflate");
            assertThat(gzip.header("Content-Encoding")).isEqualTo("gzip");
            assertThat(gzip.header("Content-Type")).isEqualTo("text/css;charset=UTF-8");
            assertThat(gzip.header("Vary")).isEqualTo("Accept-Encoding");
            assertThat(gzip.body()).isEqualTo(gzipped);
            RawResponse identity = get(server, "/site.css", null);
            assertThat(identity.header("Content-Encoding")).isNull();
            assertThat(identity.header("Vary")).isEqualTo("Accept-Encoding");
            assertThat(identity.text()).isEqualTo(TEXT);
            assertThat(identity.header("ETag")).isNotEqualTo(gzip.header("ETag"));
            assertThat(get(server, "/both.css", "gzip, br").header("Content-Encoding")).isEqualTo("br");
            assertThat(get(server, "/both.css", "br;q=0, gzip").header("Content-Encoding")).isEqualTo("gzip");
            assertThat(get(server, "/both.css", "*").header("Content-Encoding")).isEqualTo("br");
            assertThat(get(server, "/both.css", "identity").header("Content-Encoding")).isNull();
            RawResponse plain = get(server, "/plain.txt", "gzip");
            assertThat(plain.header("Content-Encoding")).isNull();
            assertThat(plain.header("Vary")).isNull();
            assertThat(get(server, "/site.css.gz", null).body()).as("a sibling is a file too").isEqualTo(gzipped);
        }
    }

    @PlainHttpTransportTest
    void curlCompressedGetsTheOriginalText(Transport transport) throws Exception {
        try (Server server = TestServers.start(transport, transport.handler(new StaticFiles(root)))) {
            Tools.Result curl = Tools.runAllowingFailure(root, List.of("curl", "-sS", "--max-time", "10", "--compressed",
                    "-w", "\n%{http_code} %{size_download}", "http://127.0.0.1:" + server.address().getPort() + "/site.css"), "");
            assertThat(curl.exitCode()).as(curl.output()).isZero();
            assertThat(curl.output()).isEqualTo(TEXT + "\n200 " + gzipped.length);
        }
    }

    @PlainHttpTransportTest
    void cacheControlByPathPattern(Transport transport) throws Exception {
        Files.createDirectories(root.resolve("assets/img"));
        Files.writeString(root.resolve("assets/img/logo.svg"), "<svg/>");
        Files.writeString(root.resolve("index.html"), "<p>home</p>");
        StaticFiles files = new StaticFiles(root).cacheControl("assets/**", "public, max-age=31536000, immutable")
                .cacheControl("*.css", "max-age=60").cacheControl("index.html", "no-cache");
        try (Server server = TestServers.start(transport, transport.handler(files))) {
            assertThat(get(server, "/assets/img/logo.svg", null).header("Cache-Control")).isEqualTo("public, max-age=31536000, immutable");
            RawResponse css = get(server, "/site.css", "gzip");
            assertThat(css.header("Cache-Control")).isEqualTo("max-age=60");
            assertThat(css.header("Content-Encoding")).isEqualTo("gzip");
            assertThat(get(server, "/", null).header("Cache-Control")).as("a folder's index.html").isEqualTo("no-cache");
            assertThat(get(server, "/plain.txt", null).header("Cache-Control")).isNull();
            RawResponse notModified;
            try (RawClient client = RawClient.connect(server)) {
                String etag = get(server, "/site.css", null).header("ETag");
                notModified = client.send("GET /site.css HTTP/1.1\r\nHost: x\r\nIf-None-Match: " + etag + "\r\n\r\n").read();
            }
            assertThat(notModified.status()).isEqualTo(304);
            assertThat(notModified.header("Cache-Control")).as("as the 200 would have").isEqualTo("max-age=60");
        }
    }
}
