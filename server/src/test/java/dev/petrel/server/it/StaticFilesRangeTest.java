package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Server;
import dev.petrel.server.files.StaticFiles;
import dev.petrel.server.tls.Tools;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * Byte ranges of static files (RFC 9110 section 14): one range, a suffix, an open end, several
 * (multipart/byteranges), If-Range with the entity tag and with the date, what is ignored and
 * what is refused (416), HEAD; and curl resuming a download with {@code -C -}.
 */
class StaticFilesRangeTest {
    private static final String CONTENT = "0123456789".repeat(100); // 1000 bytes: byte i is the digit i % 10

    @TempDir
    Path root;

    @BeforeEach
    void site() throws Exception {
        Files.writeString(root.resolve("digits.txt"), CONTENT);
    }

    private Server start(Transport transport) throws Exception {
        return TestServers.start(transport, transport.handler(new StaticFiles(root)));
    }

    private static RawResponse get(Server server, String... headers) throws Exception {
        return request(server, "GET", headers);
    }

    private static RawResponse request(Server server, String method, String... headers) throws Exception {
        StringBuilder request = new StringBuilder(method + " /digits.txt HTTP/1.1\r\nHost: localhost\r\n");
        for (String header : headers) request.append(header).append("\r\n");
        try (RawClient client = RawClient.connect(server)) {
            client.send(request.append("\r\n").toString());
            return method.equals("HEAD") ? client.readForHead() : client.read();
        }
    }

    @PlainHttpTransportTest
    void singleRangesAnswer206WithTheirBytes(Transport transport) throws Exception {
        try (Server server = start(transport)) {
            RawResponse whole = get(server);
            assertThat(whole.status()).isEqualTo(200);
            assertThat(whole.header("Accept-Ranges")).isEqualTo("bytes");
            RawResponse first = get(server, "Range: bytes=0-9");
            assertThat(first.status()).isEqualTo(206);
            assertThat(first.header("Content-Range")).isEqualTo("bytes 0-9/1000");
            assertThat(first.header("Content-Length")).isEqualTo("10");
            assertThat(first.text()).isEqualTo("0123456789");
            assertThat(get(server, "Range: bytes=995-").text()).isEqualTo("56789");
            assertThat(get(server, "Range: bytes=-3").text()).isEqualTo("789");
            RawResponse clipped = get(server, "Range: bytes=990-5000");
            assertThat(clipped.header("Content-Range")).isEqualTo("bytes 990-999/1000");
            assertThat(clipped.text()).isEqualTo("0123456789");
            RawResponse head = request(server, "HEAD", "Range: bytes=10-19");
            assertThat(head.status()).isEqualTo(206);
            assertThat(head.header("Content-Length")).isEqualTo("10");
            assertThat(head.body()).isEmpty();
        }
    }

    @PlainHttpTransportTest
    void severalRangesAnswerMultipartByteranges(Transport transport) throws Exception {
        try (Server server = start(transport)) {
            RawResponse response = get(server, "Range: bytes=0-2, 10-12, -2");
            assertThat(response.status()).isEqualTo(206);
            Matcher type = Pattern.compile("multipart/byteranges; boundary=(\\S+)").matcher(response.header("Content-Type"));
            assertThat(type.matches()).isTrue();
            String boundary = type.group(1);
            assertThat(response.header("Content-Length")).isEqualTo(Integer.toString(response.body().length));
            assertThat(response.text()).isEqualTo(
                    "--" + boundary + "\r\nContent-Type: text/plain;charset=UTF-8\r\nContent-Range: bytes 0-2/1000\r\n\r\n012"
                    + "\r\n--" + boundary + "\r\nContent-Type: text/plain;charset=UTF-8\r\nContent-Range: bytes 10-12/1000\r\n\r\n012"
                    + "\r\n--" + boundary + "\r\nContent-Type: text/plain;charset=UTF-8\r\nContent-Range: bytes 998-999/1000\r\n\r\n89"
                    + "\r\n--" + boundary + "--\r\n");
        }
    }

    @PlainHttpTransportTest
    void ifRangeIgnoredUnsatisfiableAndMalformed(Transport transport) throws Exception {
        try (Server server = start(transport)) {
            RawResponse whole = get(server);
            String etag = whole.header("ETag");
            String lastModified = whole.header("Last-Modified");
            assertThat(get(server, "Range: bytes=0-0", "If-Range: " + etag).status()).isEqualTo(206);
            assertThat(get(server, "Range: bytes=0-0", "If-Range: " + lastModified).status()).isEqualTo(206);
            RawResponse changed = get(server, "Range: bytes=0-0", "If-Range: \"another\"");
            assertThat(changed.status()).as("a changed file: the whole of it").isEqualTo(200);
            assertThat(changed.body()).hasSize(1000);
            assertThat(get(server, "Range: bytes=0-0", "If-Range: W/" + etag).status()).as("weak tags never match").isEqualTo(200);
            RawResponse unsatisfiable = get(server, "Range: bytes=1000-");
            assertThat(unsatisfiable.status()).isEqualTo(416);
            assertThat(unsatisfiable.header("Content-Range")).isEqualTo("bytes */1000");
            for (String ignored : List.of("Range: lines=1-2", "Range: bytes=5-1", "Range: bytes=abc", "Range: bytes=0-1,"
                    + "2-3,4-5,6-7,8-9,10-11,12-13,14-15,16-17,18-19,20-21,22-23,24-25,26-27,28-29,30-31,32-33")) {
                assertThat(get(server, ignored).status()).as(ignored).isEqualTo(200);
            }
            assertThat(get(server, "Range: bytes=0-0", "If-None-Match: " + etag).status()).as("304 comes first").isEqualTo(304);
        }
    }

    @PlainHttpTransportTest
    void curlResumesADownload(Transport transport) throws Exception {
        try (Server server = start(transport)) {
            Path partial = root.resolve("partial.txt");
            Files.writeString(partial, CONTENT.substring(0, 400)); // an interrupted download
            Tools.Result curl = Tools.runAllowingFailure(root, List.of("curl", "-sS", "--max-time", "10", "-C", "-", "-o",
                    partial.toString(), "http://127.0.0.1:" + server.address().getPort() + "/digits.txt"), "");
            assertThat(curl.exitCode()).as(curl.output()).isZero();
            assertThat(Files.readString(partial, StandardCharsets.US_ASCII)).isEqualTo(CONTENT);
        }
    }
}
