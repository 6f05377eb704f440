package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.petrel.server.Server;
import dev.petrel.server.demo.DemoSite;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The demo site: its endpoints, and static files under a root that nothing may escape. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StaticFilesTest {
    private static final String SECRET = "TOP-SECRET-CONTENT";
    private static final String HELLO = "Hello, static world!\n";
    private static final Instant MODIFIED = Instant.parse("2024-01-02T03:04:05Z");
    private static final String MODIFIED_HTTP = "Tue, 02 Jan 2024 03:04:05 GMT";

    @TempDir
    Path base;
    Path root;
    boolean symlinks;

    @BeforeEach
    void createSite() throws IOException {
        Files.writeString(base.resolve("secret.txt"), SECRET);
        Files.createDirectories(base.resolve("outside"));
        Files.writeString(base.resolve("outside/secret.txt"), SECRET);
        root = Files.createDirectories(base.resolve("site"));
        Files.writeString(root.resolve("hello.txt"), HELLO);
        Files.setLastModifiedTime(root.resolve("hello.txt"), FileTime.from(MODIFIED));
        Files.createDirectories(root.resolve("dir"));
        Files.writeString(root.resolve("dir/index.html"), "<p>dir index</p>");
        Files.createDirectories(root.resolve("a"));
        Files.writeString(root.resolve(".secret"), SECRET);
        Files.createDirectories(root.resolve(".git"));
        Files.writeString(root.resolve(".git/config"), SECRET);
        Files.createDirectories(root.resolve(".well-known"));
        Files.writeString(root.resolve(".well-known/security.txt"), "Contact: mailto:security@example.org\n");
        try {
            Files.createSymbolicLink(root.resolve("leak.txt"), base.resolve("secret.txt"));
            Files.createSymbolicLink(root.resolve("out"), base.resolve("outside"));
            Files.createSymbolicLink(root.resolve("inner-link.txt"), root.resolve("hello.txt"));
            symlinks = true;
        } catch (UnsupportedOperationException | IOException e) {
            symlinks = false;
        }
    }

    private Server start(Transport kind) throws IOException {
        return TestServers.start(kind, DemoSite.handler(root, InstantSource.system()));
    }

    /** Sent from the file to the socket on nio over plain TCP, copied elsewhere: the same bytes either way. */
    @TransportTest
    void aLargeFileArrivesWholeAndByRangeOnEveryTransport(Transport kind) throws Exception {
        byte[] content = new byte[3 * 1024 * 1024 + 17];
        new java.util.Random(5).nextBytes(content);
        Files.write(root.resolve("large.bin"), content);
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            RawResponse whole = client.send(Requests.get("/large.bin")).read();
            assertThat(whole.status()).isEqualTo(200);
            assertThat(whole.header("Content-Length")).isEqualTo(Integer.toString(content.length));
            assertThat(whole.body()).isEqualTo(content);
            RawResponse range = client.send("GET /large.bin HTTP/1.1\r\nHost: localhost\r\nRange: bytes=1000000-2000999\r\n\r\n").read();
            assertThat(range.status()).isEqualTo(206);
            assertThat(range.body()).isEqualTo(java.util.Arrays.copyOfRange(content, 1_000_000, 2_001_000));
            RawResponse after = client.send(Requests.get("/hello.txt")).read(); // the connection kept its framing
            assertThat(after.text()).isEqualTo(HELLO);
        }
    }

    @TransportTest
    void demoHelloIsExactlyTenBytes(Transport kind) throws Exception {
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(Requests.get("/")).read();
            assertThat(response.statusLine()).isEqualTo("HTTP/1.1 200 OK");
            assertThat(response.body()).isEqualTo("HelloWorld".getBytes(StandardCharsets.US_ASCII));
            assertThat(response.header("Content-Type")).isEqualTo("text/plain;charset=UTF-8");
            assertThat(response.header("Content-Length")).isEqualTo("10");
            assertThat(response.header("Transfer-Encoding")).isNull();
        }
    }

    @TransportTest
    void demoDateIsAnHtmlPage(Transport kind) throws Exception {
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(Requests.get("/date")).read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("Content-Type")).isEqualTo("text/html;charset=UTF-8");
            assertThat(response.header("Content-Length")).isEqualTo(Integer.toString(response.body().length));
            assertThat(response.text()).startsWith("<!DOCTYPE html>").contains("<h1>Current date</h1>").contains(" GMT</p>");
        }
    }

    @TransportTest
    void demoEchoReturnsTheBodyWithItsType(Transport kind) throws Exception {
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            String json = "{\"a\":1}";
            RawResponse response = client.send("POST /echo HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + json.length() + "\r\n\r\n" + json).read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("Content-Type")).isEqualTo("application/json");
            assertThat(response.header("Content-Length")).isEqualTo("7");
            assertThat(response.text()).isEqualTo(json);

            RawResponse chunked = client.send("POST /echo HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "3\r\nabc\r\n0\r\n\r\n").read();
            assertThat(chunked.header("Content-Type")).isEqualTo("application/octet-stream");
            assertThat(chunked.text()).isEqualTo("abc");

            RawResponse empty = client.send("POST /echo HTTP/1.1\r\nHost: test\r\n\r\n").read();
            assertThat(empty.status()).isEqualTo(200);
            assertThat(empty.header("Content-Length")).isEqualTo("0");

            RawResponse get = client.send(Requests.get("/echo")).read();
            assertThat(get.status()).isEqualTo(405);
            assertThat(get.header("Allow")).isEqualTo("OPTIONS, POST");
        }
    }

    @TransportTest
    void fileHasTypeDatesAndValidators(Transport kind) throws Exception {
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            RawResponse response = client.send(Requests.get("/hello.txt")).read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).isEqualTo(HELLO);
            assertThat(response.header("Content-Type")).isEqualTo("text/plain;charset=UTF-8");
            assertThat(response.header("Content-Length")).isEqualTo(Integer.toString(HELLO.length()));
            assertThat(response.header("Last-Modified")).isEqualTo(MODIFIED_HTTP);
            assertThat(response.header("ETag")).matches("\"[^\"]+\"");

            RawResponse head = client.send(Requests.head("/hello.txt")).readForHead();
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("Content-Length")).isEqualTo(Integer.toString(HELLO.length()));
            assertThat(head.header("ETag")).isEqualTo(response.header("ETag"));

            RawResponse missing = client.send(Requests.get("/nothing-here.txt")).read();
            assertThat(missing.status()).isEqualTo(404);

            RawResponse post = client.send(Requests.post("/hello.txt", "x")).read();
            assertThat(post.status()).isEqualTo(405);
            assertThat(post.header("Allow")).isEqualTo("GET, HEAD, OPTIONS");

            RawResponse options = client.send("OPTIONS /hello.txt HTTP/1.1\r\nHost: test\r\n\r\n").read();
            assertThat(options.status()).isEqualTo(204);
            assertThat(options.header("Allow")).isEqualTo("GET, HEAD, OPTIONS");
            assertThat(options.header("Content-Length")).isNull();
        }
    }

    @TransportTest
    void conditionalRequestsGet304(Transport kind) throws Exception {
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            String etag = client.send(Requests.get("/hello.txt")).read().header("ETag");

            RawResponse byTag = client.send(conditional("If-None-Match: " + etag)).read();
            assertThat(byTag.status()).isEqualTo(304);
            assertThat(byTag.header("ETag")).isEqualTo(etag);
            assertThat(byTag.header("Last-Modified")).isEqualTo(MODIFIED_HTTP);
            assertThat(byTag.header("Transfer-Encoding")).isNull();

            assertThat(client.send(conditional("If-None-Match: \"other\", W/" + etag)).read().status()).isEqualTo(304);
            assertThat(client.send(conditional("If-None-Match: *")).read().status()).isEqualTo(304);
            assertThat(client.send(conditional("If-Modified-Since: " + MODIFIED_HTTP)).read().status()).isEqualTo(304);

            RawResponse otherTag = client.send(conditional("If-None-Match: \"other\"")).read();
            assertThat(otherTag.status()).isEqualTo(200);
            assertThat(otherTag.text()).isEqualTo(HELLO);
            assertThat(client.send(conditional("If-Modified-Since: Tue, 02 Jan 2024 03:04:04 GMT")).read().status())
                    .isEqualTo(200);
            // If-None-Match wins over If-Modified-Since (RFC 9110 section 13.2.2)
            assertThat(client.send(conditional("If-None-Match: \"other\"", "If-Modified-Since: " + MODIFIED_HTTP))
                    .read().status()).isEqualTo(200);
            // the connection survived every 304 (no stray body bytes)
            assertThat(client.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");
        }
    }

    @TransportTest
    void changedFileIsServedAgain(Transport kind) throws Exception {
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            String etag = client.send(Requests.get("/hello.txt")).read().header("ETag");
            Files.writeString(root.resolve("hello.txt"), "changed\n");
            Files.setLastModifiedTime(root.resolve("hello.txt"), FileTime.from(MODIFIED.plusSeconds(3600)));

            RawResponse byTag = client.send(conditional("If-None-Match: " + etag)).read();
            assertThat(byTag.status()).isEqualTo(200);
            assertThat(byTag.text()).isEqualTo("changed\n");
            assertThat(byTag.header("ETag")).isNotEqualTo(etag);
            assertThat(byTag.header("Last-Modified")).isEqualTo("Tue, 02 Jan 2024 04:04:05 GMT");

            RawResponse byDate = client.send(conditional("If-Modified-Since: " + MODIFIED_HTTP)).read();
            assertThat(byDate.status()).isEqualTo(200);
            assertThat(byDate.text()).isEqualTo("changed\n");
        }
    }

    @TransportTest
    void directoryServesItsIndexAndRedirectsWithoutSlash(Transport kind) throws Exception {
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            RawResponse index = client.send(Requests.get("/dir/")).read();
            assertThat(index.status()).isEqualTo(200);
            assertThat(index.text()).isEqualTo("<p>dir index</p>");
            assertThat(index.header("Content-Type")).isEqualTo("text/html;charset=UTF-8");

            RawResponse redirect = client.send(Requests.get("/dir")).read();
            assertThat(redirect.status()).isEqualTo(301);
            assertThat(redirect.header("Location")).isEqualTo("/dir/");
            assertThat(redirect.header("Content-Length")).isEqualTo("0");

            RawResponse withQuery = client.send(Requests.get("/dir?x=1")).read();
            assertThat(withQuery.status()).isEqualTo(301);
            assertThat(withQuery.header("Location")).isEqualTo("/dir/?x=1");

            assertThat(client.send(Requests.get("/a/")).read().status()).as("folder without index").isEqualTo(404);
        }
    }

    @TransportTest
    void nothingOutsideTheRootIsReachable(Transport kind) throws Exception {
        List<String> targets = List.of(
                "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt", "/.%2e/secret.txt",
                "/a/%2f..%2fsecret.txt", "/a/%2F..%2F..%2Fsecret.txt", "/a/..%2f..%2fsecret.txt",
                "/..%5csecret.txt", "/..%5C..%5Csecret.txt", "/..\\secret.txt", "/a/..\\..\\secret.txt",
                "/secret.txt%00.txt", "/%00", "/hello.txt%00", "/dir/../../secret.txt", "/./../secret.txt",
                "//../secret.txt", "/..;/secret.txt", "/a/../../secret.txt", "/%c0%ae%c0%ae/secret.txt",
                "http://test/../secret.txt", "/outside/secret.txt", "/site/../secret.txt");
        try (Server server = start(kind)) {
            for (String target : targets) {
                try (RawClient client = RawClient.connect(server)) {
                    RawResponse response = client.send(Requests.get(target)).read();
                    assertThat(response.status()).as(target).isIn(400, 404);
                    assertThat(response.text()).as(target).doesNotContain(SECRET);
                }
            }
        }
    }

    @TransportTest
    void symbolicLinkOutOfTheRootIs404(Transport kind) throws Exception {
        assumeTrue(symlinks, "symbolic links not supported here");
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            RawResponse file = client.send(Requests.get("/leak.txt")).read();
            assertThat(file.status()).isEqualTo(404);
            assertThat(file.text()).doesNotContain(SECRET);
            RawResponse throughFolder = client.send(Requests.get("/out/secret.txt")).read();
            assertThat(throughFolder.status()).isEqualTo(404);
            assertThat(throughFolder.text()).doesNotContain(SECRET);
            // a link that stays inside the root is fine
            RawResponse inner = client.send(Requests.get("/inner-link.txt")).read();
            assertThat(inner.status()).isEqualTo(200);
            assertThat(inner.text()).isEqualTo(HELLO);
        }
    }

    @TransportTest
    void pathsThatCannotNameAFileAre404(Transport kind) throws Exception {
        // the file system refuses these (not a directory, name too long): still just "not found"
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            for (String target : List.of("/hello.txt/x", "/hello.txt/x/y.html", "/" + "n".repeat(300), "/dir/" + "n".repeat(300) + ".txt")) {
                RawResponse response = client.send(Requests.get(target)).read();
                assertThat(response.status()).as(target).isEqualTo(404);
                assertThat(response.header("Connection")).isNull();
            }
            assertThat(client.send(Requests.get("/hello.txt")).read().text()).isEqualTo(HELLO);
        }
    }

    @TransportTest
    void hiddenFileIs404(Transport kind) throws Exception {
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            for (String target : List.of("/.secret", "/%2esecret", "/dir/../.secret")) {
                RawResponse response = client.send(Requests.get(target)).read();
                assertThat(response.status()).as(target).isIn(400, 404);
                assertThat(response.text()).doesNotContain(SECRET);
            }
            assertThat(client.send(Requests.get("/.secret")).read().status()).isEqualTo(404);
        }
    }

    @TransportTest
    void hiddenFolderIs404ButWellKnownIsServed(Transport kind) throws Exception {
        try (Server server = start(kind); RawClient client = RawClient.connect(server)) {
            RawResponse git = client.send(Requests.get("/.git/config")).read();
            assertThat(git.status()).isEqualTo(404);
            assertThat(git.text()).doesNotContain(SECRET);
            RawResponse wellKnown = client.send(Requests.get("/.well-known/security.txt")).read();
            assertThat(wellKnown.status()).isEqualTo(200);
            assertThat(wellKnown.text()).startsWith("Contact:");
        }
    }

    private static String conditional(String... headers) {
        return "GET /hello.txt HTTP/1.1\r\nHost: test\r\n" + String.join("\r\n", headers) + "\r\n\r\n";
    }
}
