package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.petrel.server.config.AjpConfig;
import dev.petrel.server.Server;
import dev.petrel.server.demo.DemoSite;
import dev.petrel.testkit.ApacheHttpd;
import dev.petrel.testkit.ApacheHttpd.AjpModule;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Petrel behind the real front ends: a private Apache httpd from Debian's packages, once with
 * mod_jk and once with mod_proxy_ajp, forwarding to Petrel's AJP listener, on every plain
 * transport. A client talks HTTP to httpd only.
 */
@Timeout(120)
class AjpFrontEndTest {
    private static final String SECRET = "front-end-secret";
    private static final int BIG = 6 * 1024 * 1024 + 123;

    @TempDir
    static Path root;
    private static byte[] bigFile;

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private Server server;
    private ApacheHttpd httpd;

    @BeforeAll
    static void site() throws IOException {
        Optional<String> missing = ApacheHttpd.unavailableReason();
        assumeTrue(missing.isEmpty(), () -> missing.orElse(""));
        // the bundled demo site, plus one large file for a response of several MiB
        try (Stream<Path> files = Files.walk(DemoSite.bundledRoot())) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path target = root.resolve(DemoSite.bundledRoot().relativize(file).toString());
                if (Files.isDirectory(file)) Files.createDirectories(target);
                else Files.copy(file, target);
            }
        }
        bigFile = new byte[BIG];
        new Random(11).nextBytes(bigFile);
        Files.write(root.resolve("big.bin"), bigFile);
    }

    @AfterEach
    void stop() {
        if (httpd != null) httpd.close();
        if (server != null) server.stop(Duration.ofSeconds(1));
    }

    static Stream<Arguments> modulesAndTransports() {
        return Arrays.stream(AjpModule.values()).flatMap(module -> Stream.of(Transport.BLOCKING, Transport.VIRTUAL, Transport.NIO,
                Transport.NIO_INLINE).map(transport -> Arguments.of(module, transport)));
    }

    private void start(AjpModule module, Transport transport, String frontEndSecret) throws IOException {
        server = Server.builder().host("127.0.0.1").port(0).transport(transport.kind())
                .handler(transport.handler(DemoSite.handler(root, InstantSource.system())))
                .ajp(0, AjpConfig.withSecret(SECRET)).shutdownGrace(Duration.ofSeconds(1)).start();
        httpd = ApacheHttpd.builder(module).backend("127.0.0.1", server.ajpAddress().getPort()).secret(frontEndSecret).start();
    }

    private HttpResponse<byte[]> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return client.send(request.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private HttpRequest.Builder to(String path) {
        return HttpRequest.newBuilder(httpd.uri(path));
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("modulesAndTransports")
    void servesTheDemoSiteThroughTheFrontEnd(AjpModule module, Transport transport) throws Exception {
        start(module, transport, SECRET);

        HttpResponse<byte[]> hello = send(to("/"));
        assertThat(hello.statusCode()).isEqualTo(200);
        assertThat(new String(hello.body())).isEqualTo("HelloWorld");

        HttpResponse<byte[]> date = send(to("/date"));
        assertThat(date.statusCode()).isEqualTo(200);
        assertThat(new String(date.body())).contains("<html");

        HttpResponse<byte[]> head = send(to("/").method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();

        HttpResponse<byte[]> missing = send(to("/no/such/file"));
        assertThat(missing.statusCode()).isEqualTo(404);

        HttpResponse<byte[]> big = send(to("/big.bin"));
        assertThat(big.statusCode()).isEqualTo(200);
        assertThat(big.body()).isEqualTo(bigFile);
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("modulesAndTransports")
    void forwardsRequestBodiesOfKnownAndUnknownLength(AjpModule module, Transport transport) throws Exception {
        start(module, transport, SECRET);

        HttpResponse<byte[]> small = send(to("/echo").POST(HttpRequest.BodyPublishers.ofString("hello over AJP")));
        assertThat(new String(small.body())).isEqualTo("hello over AJP");

        HttpResponse<byte[]> declared = send(to("/echo").POST(HttpRequest.BodyPublishers.ofByteArray(bigFile)));
        assertThat(declared.statusCode()).isEqualTo(200);
        assertThat(declared.body()).isEqualTo(bigFile);

        // an InputStream of unknown length goes out chunked: the front end forwards it with get-body-chunk
        HttpResponse<byte[]> chunked = send(to("/echo").POST(
                HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bigFile))));
        assertThat(chunked.statusCode()).isEqualTo(200);
        assertThat(chunked.body()).isEqualTo(bigFile);
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("modulesAndTransports")
    void anUploadCutShortAtTheFrontEndNeverReachesTheHandlerAsComplete(AjpModule module, Transport transport) throws Exception {
        BodySpy spy = new BodySpy();
        server = Server.builder().host("127.0.0.1").port(0).transport(transport.kind())
                .handler(transport.handler(dev.petrel.server.Router.builder().post("/upload", spy.handler()).build()))
                .ajp(0, AjpConfig.withSecret(SECRET)).shutdownGrace(Duration.ofSeconds(1)).start();
        httpd = ApacheHttpd.builder(module).backend("127.0.0.1", server.ajpAddress().getPort()).secret(SECRET).start();

        try (java.net.Socket socket = new java.net.Socket(httpd.uri("/").getHost(), httpd.uri("/").getPort())) {
            socket.setSoTimeout(20_000);
            socket.getOutputStream().write(("POST /upload HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nhello\r\n8\r\nwor").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            socket.shutdownOutput(); // the client is gone in the middle of its second chunk
            String answer = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
            assertThat(answer).as("what httpd answered the client").doesNotStartWith("HTTP/1.1 200");
        }
        Throwable seen = spy.awaitFailure();
        assertThat(seen).as("what the handler's read threw, having read \"%s\"", spy.seen())
                .isInstanceOf(dev.petrel.server.IncompleteBodyException.class);
        assertThat(spy.seen()).isIn("", "hello", "hellowor");
    }

    /** What goes wrong after the response to a request has begun, for {@link #aRequestThatFailsAfterItsResponseBeganFailsForTheClient}. */
    enum LateFailure { BODY_TOO_LARGE, HANDLER_THROWS }

    static Stream<Arguments> modulesTransportsAndLateFailures() {
        return modulesAndTransports().flatMap(args -> Arrays.stream(LateFailure.values())
                .map(failure -> Arguments.of(args.get()[0], args.get()[1], failure)));
    }

    /**
     * A request that fails once its response has begun (its body grows past the limit while the
     * handler echoes it; the handler throws after it flushed part of its answer) is cut over AJP:
     * the connection closes without an end-response, all a backend can say. What the client sees
     * is the front end's doing:
     * <ul>
     *   <li>mod_proxy_ajp closes its client's connection without the last chunk: the client sees
     *       the failure.</li>
     *   <li>mod_jk logs that part of the response had been sent, and ends its client's response as
     *       if whole. In mod_jk 1.2 only an error on the client's own connection aborts it
     *       ({@code JK_CLIENT_ERROR}); no packet from the backend does. Tomcat's AJP connector
     *       meets the same. docs/operations.md says so; this test holds both, so a change on either side shows.</li>
     * </ul>
     */
    @ParameterizedTest(name = "{0} on {1}: {2}")
    @MethodSource("modulesTransportsAndLateFailures")
    void aRequestThatFailsAfterItsResponseBeganFailsForTheClient(AjpModule module, Transport transport, LateFailure failure)
            throws Exception {
        var config = TestServers.config().responseBufferSize(1024)
                .limits(dev.petrel.http.HttpLimits.DEFAULT.withMaxBodySize(64 * 1024)).build();
        dev.petrel.server.Handler echo = (req, res) -> {
            try (var in = req.body(); var out = res.body()) {
                in.transferTo(out);
            }
        };
        dev.petrel.server.Handler failing = (req, res) -> {
            try (var out = res.body()) {
                out.write(new byte[32 * 1024]);
                out.flush();
                throw new IllegalStateException("the handler failed after its response began");
            }
        };
        server = Server.builder().host("127.0.0.1").port(0).transport(transport.kind()).config(config)
                .handler(transport.handler(dev.petrel.server.Router.builder().post("/upload", echo).get("/fail", failing).build()))
                .ajp(0, AjpConfig.withSecret(SECRET)).shutdownGrace(Duration.ofSeconds(1)).start();
        httpd = ApacheHttpd.builder(module).backend("127.0.0.1", server.ajpAddress().getPort()).secret(SECRET).start();

        try (RawClient client = RawClient.connect(httpd.port())) {
            if (failure == LateFailure.BODY_TOO_LARGE) {
                client.send("POST /upload HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n");
                byte[] piece = new byte[16 * 1024];
                String size = Integer.toHexString(piece.length) + "\r\n";
                try {
                    for (int i = 0; i < 8; i++) { // 128 KiB, twice the limit
                        client.send(size).send(piece).send("\r\n");
                    }
                    client.send("0\r\n\r\n");
                } catch (IOException e) {
                    // the front end may close while the upload is still going: its answer says the rest
                }
            } else {
                client.send("GET /fail HTTP/1.1\r\nHost: test\r\n\r\n");
            }
            FrontEndAnswer answer = FrontEndAnswer.read(client);
            if (module == AjpModule.MOD_PROXY_AJP) {
                assertThat(answer.wholeSuccess()).as("mod_proxy_ajp told its client: " + answer).isFalse();
            } else {
                TestServers.awaitCondition("mod_jk's log of the backend cutting a response it had begun", Duration.ofSeconds(5),
                        () -> httpd.errorLog().contains("Part of the response has already been sent to the client"));
                assertThat(answer.wholeSuccess()).as("mod_jk ends its client's response as whole: when it no longer does,"
                        + " docs/operations.md's note on mod_jk is out of date; it told its client " + answer).isTrue();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(AjpModule.class)
    void reusesItsConnectionsForManyRequests(AjpModule module) throws Exception {
        start(module, Transport.NIO, SECRET);
        for (int i = 0; i < 300; i++) {
            HttpResponse<byte[]> response = send(to("/"));
            assertThat(response.statusCode()).as("request %d", i).isEqualTo(200);
        }
        // every request went over a connection the front end kept: they are still open, and few
        assertThat(server.liveConnections()).isBetween(1, 10);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(AjpModule.class)
    void aFrontEndWithTheWrongSecretIsRefused(AjpModule module) throws Exception {
        start(module, Transport.NIO, "not-the-secret");
        HttpResponse<byte[]> response = send(to("/"));
        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(new String(response.body())).doesNotContain("HelloWorld");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(AjpModule.class)
    void survivesAFrontEndRestart(AjpModule module) throws Exception {
        start(module, Transport.NIO, SECRET);
        assertThat(send(to("/")).statusCode()).isEqualTo(200);
        assertThat(server.liveConnections()).isPositive();
        httpd.restart();
        TestServers.awaitLiveConnections(server, 0); // the old front end's connections closed, and Petrel let them go
        for (int i = 0; i < 20; i++) {
            HttpResponse<byte[]> response = send(to("/"));
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(new String(response.body())).isEqualTo("HelloWorld");
        }
    }
}
