package dev.petrel.server.it;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http.MultipartLimits;
import dev.petrel.server.Handler;
import dev.petrel.server.Server;
import dev.petrel.server.tls.Tools;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code multipart/form-data} uploads ({@link dev.petrel.server.MultipartForm}) as clients send
 * them: a browser's form with fields and files, {@code curl -F}; and the bodies that must be
 * refused without a trace: cut short by the client, malformed, past a limit, not multipart at all.
 * Large parts go to temporary files, and none is left once the exchange has ended.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MultipartTest {
    private static final String BOUNDARY = "----WebKitFormBoundary7MA4YWxkTrZu0gW";
    private static final Path TMP = Path.of(System.getProperty("java.io.tmpdir"));

    @TempDir
    static Path dir;
    private static byte[] big;   // past the memory threshold: a temporary file
    private static byte[] small;

    @BeforeAll
    static void bodies() {
        big = new byte[300_000];
        new Random(7).nextBytes(big);
        small = "a small file\r\n--not a boundary\r\n".getBytes(ISO_8859_1);
    }

    private static Handler app() {
        return TestApp.routes()
                .post("/upload-two-parts-at-most", (req, res) -> {
                    int n = req.multipart(new MultipartLimits(2, 16 * 1024, 1 << 20, 1L << 30)).parts().size();
                    res.send(n + " parts");
                })
                .build();
    }

    /** A body as Chromium sends a form with a text field and two file inputs. */
    private static byte[] browserForm() {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        write(body, "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nholiday \u00e9t\u00e9\r\n");
        write(body, "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"beach.jpg\"\r\n"
                + "Content-Type: image/jpeg\r\n\r\n");
        body.writeBytes(big);
        write(body, "\r\n--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"notes\"; filename=\"notes.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\n");
        body.writeBytes(small);
        write(body, "\r\n--" + BOUNDARY + "--\r\n");
        return body.toByteArray();
    }

    private static void write(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private static String head(String path, long length) {
        return "POST " + path + " HTTP/1.1\r\nHost: test\r\nContent-Type: multipart/form-data; boundary=" + BOUNDARY
                + "\r\nContent-Length: " + length + "\r\n\r\n";
    }

    /** One request on a connection of its own: a refused body may end its connection. */
    private static RawResponse exchange(Server server, String head, byte[] body) throws IOException {
        try (RawClient client = RawClient.connect(server)) {
            return client.send(head).send(body).read();
        }
    }

    private static List<Path> uploadFiles() throws IOException {
        try (Stream<Path> files = Files.list(TMP)) {
            return files.filter(file -> file.getFileName().toString().startsWith("petrel-upload-")).toList();
        }
    }

    private static void awaitNoUploadFiles(List<Path> before) throws Exception {
        TestServers.awaitCondition("the upload's temporary files removed", java.time.Duration.ofSeconds(5), () -> {
            try {
                List<Path> now = new ArrayList<>(uploadFiles());
                now.removeAll(before);
                return now.isEmpty();
            } catch (IOException e) {
                return false;
            }
        });
    }

    @TransportTest
    void aBrowsersFormIsReadPartByPartTheLargeOneFromAFileThatIsGoneAfterTheExchange(Transport kind) throws Exception {
        List<Path> before = uploadFiles();
        byte[] form = browserForm();
        try (Server server = TestServers.start(kind, app()); RawClient client = RawClient.connect(server)) {
            client.send(head("/upload", form.length));
            client.send(form);
            RawResponse response = client.read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo(
                    "title null " + "holiday \u00e9t\u00e9".getBytes(java.nio.charset.StandardCharsets.UTF_8).length + " "
                            + TestApp.sha256("holiday \u00e9t\u00e9".getBytes(java.nio.charset.StandardCharsets.UTF_8)) + " memory\n"
                            + "photo beach.jpg 300000 " + TestApp.sha256(big) + " file\n"
                            + "notes notes.txt " + small.length + " " + TestApp.sha256(small) + " memory\n");
            awaitNoUploadFiles(before);
            assertThat(client.send(Requests.get("/")).read().text()).as("the connection goes on").isEqualTo("HelloWorld");
        }
    }

    @PlainHttpTransportTest
    void curlDashFUploadsFieldsAndAFile(Transport kind) throws Exception {
        Path file = Files.write(dir.resolve("upload-" + kind + ".bin"), big);
        try (Server server = TestServers.start(kind, app())) {
            Tools.Result result = Tools.runAllowingFailure(dir, List.of("curl", "-sS", "--max-time", "20", "-F", "a=1",
                    "-F", "file=@" + file + ";type=application/octet-stream", "http://127.0.0.1:" + server.address().getPort() + "/upload"), "");
            assertThat(result.output()).isEqualTo("a null 1 " + TestApp.sha256("1".getBytes(ISO_8859_1)) + " memory\n"
                    + "file upload-" + kind + ".bin 300000 " + TestApp.sha256(big) + " file\n");
        }
    }

    @PlainHttpTransportTest
    void theDemoSiteAnswersEachPartAsJsonOrAsText(Transport kind) throws Exception {
        byte[] form = browserForm();
        Handler demo = dev.petrel.server.demo.DemoSite.handler(dev.petrel.server.demo.DemoSite.bundledRoot(),
                java.time.InstantSource.system());
        try (Server server = TestServers.start(kind, demo); RawClient client = RawClient.connect(server)) {
            RawResponse json = client.send(head("/upload", form.length).replace("\r\n\r\n", "\r\nAccept: application/json\r\n\r\n"))
                    .send(form).read();
            assertThat(json.header("Content-Type")).isEqualTo("application/json");
            assertThat(json.text()).isEqualTo("{\"parts\":[{\"name\":\"title\",\"filename\":null,\"size\":13,\"sha256\":\""
                    + TestApp.sha256("holiday \u00e9t\u00e9".getBytes(java.nio.charset.StandardCharsets.UTF_8)) + "\"},"
                    + "{\"name\":\"photo\",\"filename\":\"beach.jpg\",\"size\":300000,\"sha256\":\"" + TestApp.sha256(big) + "\"},"
                    + "{\"name\":\"notes\",\"filename\":\"notes.txt\",\"size\":" + small.length + ",\"sha256\":\""
                    + TestApp.sha256(small) + "\"}]}\n");
            RawResponse text = client.send(head("/upload", form.length)).send(form).read();
            assertThat(text.text()).startsWith("title: 13 bytes, sha256 ").contains("photo (beach.jpg): 300000 bytes, sha256 " + TestApp.sha256(big));
            assertThat(client.send(Requests.get("/upload.html")).read().text()).contains("enctype=\"multipart/form-data\"");
        }
    }

    @TransportTest
    void aBodyCutShortInsideALargePartLeavesNoFileAndTheServerServesOn(Transport kind) throws Exception {
        List<Path> before = uploadFiles();
        byte[] form = browserForm();
        try (Server server = TestServers.start(kind, app())) {
            try (RawClient client = RawClient.connect(server)) {
                client.send(head("/upload", form.length));
                client.send(java.util.Arrays.copyOf(form, 200_000)); // inside the photo, past the memory threshold
                TestServers.awaitCondition("the photo's temporary file being written", java.time.Duration.ofSeconds(5), () -> {
                    try {
                        return !before.containsAll(uploadFiles());
                    } catch (IOException e) {
                        return false;
                    }
                });
            } // the client goes away
            awaitNoUploadFiles(before);
            try (RawClient next = RawClient.connect(server)) {
                assertThat(next.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");
            }
        }
    }

    @TransportTest
    void refusedBodiesAreAnsweredWithTheirStatusAndLeaveNoFile(Transport kind) throws Exception {
        List<Path> before = uploadFiles();
        byte[] form = browserForm();
        try (Server server = TestServers.start(kind, app())) {
            // three parts where two are allowed: 413, after the first file was written
            RawResponse tooMany = exchange(server, head("/upload-two-parts-at-most", form.length), form);
            assertThat(tooMany.status()).isEqualTo(413);
            assertThat(tooMany.text()).contains("parts");

            // no close delimiter: 400
            byte[] open = java.util.Arrays.copyOf(form, form.length - (BOUNDARY.length() + 6));
            RawResponse cut = exchange(server, head("/upload", open.length), open);
            assertThat(cut.status()).isEqualTo(400);
            assertThat(cut.text()).contains("close delimiter");

            // not multipart: 415
            RawResponse plain = exchange(server, "POST /upload HTTP/1.1\r\nHost: test\r\nContent-Type: text/plain\r\n"
                    + "Content-Length: 2\r\n\r\n", "hi".getBytes(ISO_8859_1));
            assertThat(plain.status()).isEqualTo(415);

            // a part without a name: 400
            byte[] nameless = ("--" + BOUNDARY + "\r\nContent-Disposition: form-data\r\n\r\nx\r\n--" + BOUNDARY + "--\r\n")
                    .getBytes(ISO_8859_1);
            RawResponse bad = exchange(server, head("/upload", nameless.length), nameless);
            assertThat(bad.status()).isEqualTo(400);
        }
        awaitNoUploadFiles(before);
    }
}
