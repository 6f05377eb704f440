package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http.HttpLimits;
import dev.petrel.server.config.AjpConfig;
import dev.petrel.server.Handler;
import dev.petrel.server.Server;
import dev.petrel.server.TlsDetails;
import dev.petrel.testkit.AjpClient;
import dev.petrel.testkit.AjpClient.Response;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The AJP listener against a front end written in the test ({@link AjpClient}), on every plain
 * transport: the protocol, the forwarded client details a handler sees, the security defaults, and
 * what happens to bytes a real front end would never send. {@code AjpFrontEndTest} runs the real
 * mod_jk and mod_proxy_ajp.
 */
@Timeout(30)
class AjpTest {
    private static final String SECRET = "t0p-s3cret";
    private Server server;

    @AfterEach
    void stop() {
        if (server != null) server.stop(java.time.Duration.ofSeconds(1));
    }

    private static Handler app() {
        return TestApp.routes().get("/whoami", (req, res) -> {
            TlsDetails tls = req.tls();
            res.send(req.method() + " " + req.target() + " path=" + req.path() + " query=" + req.query() + "\n"
                    + "remote=" + req.remoteAddress().getAddress().getHostAddress() + ":" + req.remoteAddress().getPort() + "\n"
                    + "scheme=" + req.scheme() + " host=" + req.host() + " version=" + req.version() + "\n"
                    + "tls=" + (tls == null ? "none" : tls.protocol() + "," + tls.cipherSuite() + "," + tls.keySize() + ","
                            + tls.sessionId() + "," + tls.clientCertificates().size()) + "\n"
                    + "attributes=" + req.attributes() + "\n"
                    + "agent=" + req.header("User-Agent"));
        }).route("OPTIONS", "/whoami", (req, res) -> res.send("options"))
          .route("PROPFIND", "/whoami", (req, res) -> res.send("propfind"))
          .route("BREW", "/whoami", (req, res) -> res.send("brew"))
          .post("/length", (req, res) -> res.send(Long.toString(req.body().transferTo(OutputStream.nullOutputStream()))))
          .post("/ignore-body", (req, res) -> res.send("not read"))
          .get("/head", (req, res) -> res.send("twelve bytes"))
          .get("/flush", (req, res) -> {
              OutputStream out = res.body();
              out.write("first".getBytes(StandardCharsets.US_ASCII));
              out.flush();
              out.write("second".getBytes(StandardCharsets.US_ASCII));
          }).build();
    }

    private Server start(Transport transport, AjpConfig ajp) throws IOException {
        server = TestServers.builder(transport, TestServers.config().build(), app()).ajp(0, ajp).start();
        return server;
    }

    private AjpClient client() throws IOException {
        return AjpClient.connect(server.ajpAddress());
    }

    /** Issue 43's handler features ride the one exchange, so AJP carries them as HTTP does: templates, uploads, CORS. */
    @PlainHttpTransportTest
    void pathTemplatesUploadsAndCorsWorkOverAjp(Transport transport) throws IOException {
        start(transport, AjpConfig.withSecret(SECRET));
        try (AjpClient client = client()) {
            assertThat(client.send(AjpClient.request("GET", "/users/42").secret(SECRET)).text()).isEqualTo("user 42");
            assertThat(client.send(AjpClient.request("GET", "/users/abc").secret(SECRET)).status()).isEqualTo(400);

            byte[] big = new byte[100_000]; // past the memory threshold: through a temporary file
            new java.util.Random(3).nextBytes(big);
            java.io.ByteArrayOutputStream form = new java.io.ByteArrayOutputStream();
            form.writeBytes("--xyz\r\nContent-Disposition: form-data; name=\"f\"; filename=\"f.bin\"\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            form.writeBytes(big);
            form.writeBytes("\r\n--xyz--\r\n".getBytes(StandardCharsets.US_ASCII));
            Response upload = client.send(AjpClient.request("POST", "/upload").secret(SECRET)
                    .header("Content-Type", "multipart/form-data; boundary=xyz").body(form.toByteArray()));
            assertThat(upload.text()).isEqualTo("f f.bin 100000 " + TestApp.sha256(big) + " file\n");

            Response cors = client.send(AjpClient.request("GET", "/cors").secret(SECRET).header("Origin", "https://app.example.com"));
            assertThat(cors.header("Access-Control-Allow-Origin")).isEqualTo("https://app.example.com");
            assertThat(client.send(AjpClient.request("GET", "/cors").secret(SECRET).header("Origin", "https://evil.example"))
                    .status()).isEqualTo(403);
        }
    }

    @PlainHttpTransportTest
    void servesTheSameHandlerAsHttpWithTheFrontEndsView(Transport transport) throws IOException {
        start(transport, AjpConfig.withSecret(SECRET));
        try (AjpClient client = client()) {
            Response response = client.send(AjpClient.request("GET", "/who%61mi").query("a=1&b=%20")
                    .remote("198.51.100.23", 50123).server("shop.example", 443)
                    .header("Host", "shop.example").header("User-Agent", "curl/8").secret(SECRET));
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.reuse()).isTrue();
            assertThat(response.text()).isEqualTo("""
                    GET /who%61mi?a=1&b=%20 path=/whoami query=a=1&b=%20
                    remote=198.51.100.23:50123
                    scheme=http host=shop.example version=HTTP/1.1
                    tls=none
                    attributes={}
                    agent=curl/8""");
            assertThat(response.header("Content-Length")).isEqualTo(Integer.toString(response.body().length));
            assertThat(response.header("Content-Type")).isEqualTo("text/plain;charset=UTF-8");
            assertThat(response.reason()).isEqualTo("OK");
        }
    }

    @PlainHttpTransportTest
    void reportsTheTlsTheFrontEndNegotiated(Transport transport) throws IOException {
        start(transport, AjpConfig.withSecret(SECRET));
        try (AjpClient client = client()) {
            Response response = client.send(AjpClient.request("GET", "/whoami").secret(SECRET)
                    .ssl("TLSv1.3", "TLS_AES_256_GCM_SHA384", "ab12", 256, null));
            assertThat(response.text()).contains("scheme=https").contains("tls=TLSv1.3,TLS_AES_256_GCM_SHA384,256,ab12,0")
                    .contains("attributes={AJP_SSL_PROTOCOL=TLSv1.3}");
        }
    }

    /**
     * A front end that resets a pooled connection between requests: the server lets it go at once,
     * not at the idle timeout (see {@code IdleConnectionsTest}: on the event loop a failed read
     * once left a connection taken for read dry, and the loop met the reset again and again).
     */
    @PlainHttpTransportTest
    void anIdleConnectionItsFrontEndResetsIsFreedAtOnce(Transport transport) throws Exception {
        server = TestServers.builder(transport, TestServers.config().idleTimeout(java.time.Duration.ofSeconds(60)).build(), app())
                .ajp(0, AjpConfig.withSecret(SECRET)).start();
        AjpClient client = client();
        assertThat(client.send(AjpClient.request("GET", "/").secret(SECRET)).text()).isEqualTo("HelloWorld");
        Thread.sleep(50); // the server is back to waiting for the next request
        client.reset();
        TestServers.awaitLiveConnections(server, 0);
    }

    @PlainHttpTransportTest
    void reusesTheConnectionForManyRequestsAndAnswersCPing(Transport transport) throws IOException {
        start(transport, AjpConfig.withSecret(SECRET));
        try (AjpClient client = client()) {
            for (int i = 0; i < 50; i++) {
                assertThat(client.cping()).isTrue();
                Response response = client.send(AjpClient.request("GET", "/").secret(SECRET));
                assertThat(response.text()).isEqualTo("HelloWorld");
                assertThat(response.reuse()).isTrue();
            }
        }
    }

    @PlainHttpTransportTest
    void encodesAndStoresMethods(Transport transport) throws IOException {
        start(transport, AjpConfig.withSecret(SECRET));
        try (AjpClient client = client()) {
            assertThat(client.send(AjpClient.request("OPTIONS", "/whoami").secret(SECRET)).text()).isEqualTo("options");
            assertThat(client.send(AjpClient.request("PROPFIND", "/whoami").secret(SECRET)).text()).isEqualTo("propfind");
            assertThat(client.send(AjpClient.request("BREW", "/whoami").secret(SECRET)).text()).isEqualTo("brew"); // stored method
        }
    }

    @PlainHttpTransportTest
    void readsBodiesOfDeclaredAndUnknownLength(Transport transport) throws IOException {
        start(transport, AjpConfig.withSecret(SECRET));
        byte[] big = new byte[3 * 1024 * 1024 + 17];
        new Random(7).nextBytes(big);
        try (AjpClient client = client()) {
            Response small = client.send(AjpClient.request("POST", "/echo").secret(SECRET).body("hello".getBytes()));
            assertThat(small.text()).isEqualTo("hello");
            assertThat(small.bodyRequests()).isZero(); // the first chunk came unasked and held it all

            Response declared = client.send(AjpClient.request("POST", "/echo").secret(SECRET).body(big));
            assertThat(declared.body()).isEqualTo(big);
            assertThat(declared.bodyRequests()).isGreaterThan(300); // asked chunk by chunk, 8 KiB each

            Response chunked = client.send(AjpClient.request("POST", "/echo").secret(SECRET).chunkedBody(big));
            assertThat(chunked.body()).isEqualTo(big);
            assertThat(chunked.reuse()).isTrue();

            assertThat(client.send(AjpClient.request("GET", "/").secret(SECRET)).text()).isEqualTo("HelloWorld");
        }
    }

    @PlainHttpTransportTest
    void anUnreadBodyIsSettledAndTheConnectionReused(Transport transport) throws IOException {
        start(transport, AjpConfig.withSecret(SECRET));
        byte[] big = new byte[100_000];
        try (AjpClient client = client()) {
            Response response = client.send(AjpClient.request("POST", "/ignore-body").secret(SECRET).body(big));
            assertThat(response.text()).isEqualTo("not read");
            assertThat(response.reuse()).isTrue();
            assertThat(response.bodyRequests()).isZero(); // only the unasked chunk was read, and dropped
            assertThat(client.send(AjpClient.request("GET", "/").secret(SECRET)).text()).isEqualTo("HelloWorld");
        }
    }

    @PlainHttpTransportTest
    void sendsLargeResponsesInChunksThatFitThePacket(Transport transport) throws IOException {
        start(transport, AjpConfig.withSecret(SECRET));
        try (AjpClient client = client()) {
            Response streamed = client.send(AjpClient.request("GET", "/stream").query("5000000").secret(SECRET));
            assertThat(streamed.body()).hasSize(5_000_000);
            assertThat(streamed.chunks()).isGreaterThanOrEqualTo(5_000_000 / 8184);
            assertThat(streamed.header("Content-Length")).isNull(); // not declared: the front end frames it
            Response declared = client.send(AjpClient.request("GET", "/stream-length").query("5000000").secret(SECRET));
            assertThat(declared.body()).hasSize(5_000_000);
            assertThat(declared.header("Content-Length")).isEqualTo("5000000");
            assertThat(declared.reuse()).isTrue();
        }
    }

    @PlainHttpTransportTest
    void headAnswersTheLengthWithoutTheBody(Transport transport) throws IOException {
        start(transport, AjpConfig.withSecret(SECRET));
        try (AjpClient client = client()) {
            Response response = client.send(AjpClient.request("HEAD", "/head").secret(SECRET));
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("Content-Length")).isEqualTo("12");
            assertThat(response.body()).isEmpty();
            assertThat(response.chunks()).isZero();
        }
    }

    @PlainHttpTransportTest
    void flushSendsWhatIsWrittenAndAnEmptyChunk(Transport transport) throws IOException {
        start(transport, AjpConfig.withSecret(SECRET));
        try (AjpClient client = client()) {
            Response response = client.send(AjpClient.request("GET", "/flush").secret(SECRET));
            assertThat(response.text()).isEqualTo("firstsecond");
            assertThat(response.chunks()).isEqualTo(3); // "first", the empty flush chunk, "second"
        }
    }

    @PlainHttpTransportTest
    void handlerFailuresAreAnsweredAndTheConnectionKept(Transport transport) throws IOException {
        start(transport, AjpConfig.withSecret(SECRET));
        try (AjpClient client = client()) {
            Response failed = client.send(AjpClient.request("GET", "/fail").secret(SECRET));
            assertThat(failed.status()).isEqualTo(500);
            assertThat(failed.text()).doesNotContain("Exception").doesNotContain("at dev.");
            assertThat(failed.reuse()).isTrue();
            Response missing = client.send(AjpClient.request("GET", "/nowhere").secret(SECRET));
            assertThat(missing.status()).isEqualTo(404);
            assertThat(client.send(AjpClient.request("GET", "/").secret(SECRET)).text()).isEqualTo("HelloWorld");
        }
    }

    @PlainHttpTransportTest
    void aMissingOrWrongSecretGets403AndTheConnectionCloses(Transport transport) throws IOException {
        start(transport, AjpConfig.withSecret(SECRET));
        for (AjpClient.Request request : new AjpClient.Request[] {
                AjpClient.request("GET", "/"), AjpClient.request("GET", "/").secret("t0p-s3creT"),
                AjpClient.request("GET", "/").secret("")}) {
            try (AjpClient client = client()) {
                Response response = client.send(request);
                assertThat(response.status()).isEqualTo(403);
                assertThat(response.text()).isEqualTo("Forbidden\n");
                assertThat(response.reuse()).isFalse();
                assertThat(client.closedByPeer()).isTrue();
            }
        }
    }

    @PlainHttpTransportTest
    void anAttributeOutsideTheAllowListGets403(Transport transport) throws IOException {
        start(transport, AjpConfig.withSecret(SECRET).withAllowedAttributes("SSL_CLIENT_S_DN"));
        try (AjpClient client = client()) {
            Response allowed = client.send(AjpClient.request("GET", "/whoami").secret(SECRET)
                    .attribute("JK_LB_ACTIVATION", "ACT").attribute("AJP_LOCAL_ADDR", "192.0.2.1")
                    .attribute("SSL_CLIENT_S_DN", "CN=alice"));
            assertThat(allowed.text()).contains("attributes={JK_LB_ACTIVATION=ACT, SSL_CLIENT_S_DN=CN=alice}");
        }
        try (AjpClient client = client()) { // Ghostcat: an include attribute names a file to read
            Response refused = client.send(AjpClient.request("GET", "/whoami").secret(SECRET)
                    .attribute("javax.servlet.include.request_uri", "/").attribute("javax.servlet.include.path_info", "WEB-INF/web.xml"));
            assertThat(refused.status()).isEqualTo(403);
            assertThat(refused.text()).doesNotContain("WEB-INF");
            assertThat(client.closedByPeer()).isTrue();
        }
    }

    @PlainHttpTransportTest
    void withoutASecretWhenExplicitlyTurnedOff(Transport transport) throws IOException {
        start(transport, AjpConfig.withoutSecret());
        try (AjpClient client = client()) {
            assertThat(client.send(AjpClient.request("GET", "/")).text()).isEqualTo("HelloWorld");
            assertThat(client.send(AjpClient.request("GET", "/").secret("anything")).text()).isEqualTo("HelloWorld");
        }
    }

    @PlainHttpTransportTest
    void aShutdownRequestIsRefusedByClosing(Transport transport) throws IOException {
        start(transport, AjpConfig.withSecret(SECRET));
        try (AjpClient client = client()) {
            client.writeRaw(new byte[] {0x12, 0x34, 0, 1, 7});
            assertThat(client.closedByPeer()).isTrue();
        }
        try (AjpClient client = client()) { // and the server is still there
            assertThat(client.send(AjpClient.request("GET", "/").secret(SECRET)).text()).isEqualTo("HelloWorld");
        }
    }

    @PlainHttpTransportTest
    void bytesThatAreNotAjpCloseTheConnection(Transport transport) throws IOException {
        start(transport, AjpConfig.withSecret(SECRET));
        byte[][] garbage = {
            "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII), // HTTP to the AJP port
            {0x12, 0x34, (byte) 0xFF, (byte) 0xF0},                              // longer than the packet size
            {0x12, 0x34, 0, 1, 42},                                                // unknown type
            {0x12, 0x34, 0, 0},                                                    // empty packet where a request is due
        };
        for (byte[] bytes : garbage) {
            try (AjpClient client = client()) {
                client.writeRaw(bytes);
                assertThat(client.closedByPeer()).as(Arrays.toString(bytes)).isTrue();
            }
        }
    }

    @PlainHttpTransportTest
    void aForwardRequestThatCannotBeUsedGets400AndCloses(Transport transport) throws IOException {
        start(transport, AjpConfig.withSecret(SECRET));
        byte[] packet = AjpClient.request("GET", "/").secret(SECRET).packet();
        byte[] cut = Arrays.copyOf(packet, packet.length - 6); // the length says less: the attributes end early
        cut[2] = (byte) ((cut.length - 4) >>> 8);
        cut[3] = (byte) (cut.length - 4);
        try (AjpClient client = client()) {
            client.writeRaw(cut);
            byte[] head = client.readPacket();
            assertThat(head[0]).isEqualTo((byte) 4);
            assertThat(((head[1] & 0xFF) << 8) | (head[2] & 0xFF)).isEqualTo(400);
        }
        try (AjpClient client = client()) {
            Response response = client.send(AjpClient.request("GET", "/").protocol("HTTP/2.0").secret(SECRET));
            assertThat(response.status()).isEqualTo(505);
            assertThat(response.reuse()).isFalse();
        }
    }

    @PlainHttpTransportTest
    void aBodyOfUnknownLengthOverTheLimitGets413(Transport transport) throws IOException {
        server = TestServers.builder(transport, TestServers.config().limits(HttpLimits.DEFAULT.withMaxBodySize(100_000)).build(),
                        app())
                .ajp(0, AjpConfig.withSecret(SECRET)).start();
        try (AjpClient client = client()) {
            Response response = client.send(AjpClient.request("POST", "/length").secret(SECRET).chunkedBody(new byte[300_000]));
            assertThat(response.status()).isEqualTo(413);
            assertThat(response.reuse()).isFalse();
        }
        try (AjpClient client = client()) {
            Response response = client.send(AjpClient.request("POST", "/length").secret(SECRET).body(new byte[300_000]));
            assertThat(response.status()).isEqualTo(413);
        }
    }

    @Test
    void largerPacketsWhenConfigured() throws IOException {
        start(Transport.NIO, AjpConfig.withSecret(SECRET).withPacketSize(65536));
        try (AjpClient client = AjpClient.connect(server.ajpAddress(), 65536)) {
            byte[] body = new byte[200_000];
            new Random(3).nextBytes(body);
            Response response = client.send(AjpClient.request("POST", "/echo").secret(SECRET).body(body));
            assertThat(response.body()).isEqualTo(body);
            assertThat(response.bodyRequests()).isLessThan(5); // 64 KiB at a time
            assertThat(response.chunks()).isLessThanOrEqualTo(4);
        }
    }

    @Test
    void oneSlotServesTheFirstClientOfEitherListener() throws Exception {
        // An acceptor used to take its slot before accept(): with one slot shared by two listeners,
        // the idle one held it and the other turned its first client away with a 503.
        for (boolean ajpFirst : new boolean[] {true, false}) {
            server = TestServers.builder(Transport.NIO, TestServers.config().build(), app()).maxConnections(1)
                    .queueTimeout(java.time.Duration.ZERO).ajp(0, AjpConfig.withSecret(SECRET)).start();
            if (ajpFirst) {
                try (AjpClient client = client()) {
                    assertThat(client.send(AjpClient.request("GET", "/").secret(SECRET)).text()).isEqualTo("HelloWorld");
                }
            } else {
                try (RawClient http = RawClient.connect(server.address().getPort())) {
                    assertThat(http.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");
                }
            }
            server.stop(java.time.Duration.ofSeconds(1));
            server = null;
        }
    }

    @Test
    void listensOnLoopbackUnlessToldOtherwise() throws IOException {
        server = TestServers.builder(Transport.NIO, TestServers.config().build(), app()).host("0.0.0.0")
                .ajp(0, AjpConfig.withSecret(SECRET)).start();
        assertThat(server.ajpAddress().getAddress().isLoopbackAddress()).isTrue();
        assertThat(server.address().getAddress().isAnyLocalAddress()).isTrue();
    }

    @Test
    void httpRequestsCannotForgeWhatAjpForwards() throws IOException {
        start(Transport.NIO, AjpConfig.withSecret(SECRET));
        try (RawClient http = RawClient.connect(server.address().getPort())) {
            http.send("GET /whoami HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 198.51.100.1\r\nX-Forwarded-Proto: https\r\n"
                    + "AJP_REMOTE_PORT: 1\r\n\r\n");
            RawResponse response = http.read();
            assertThat(response.text()).contains("remote=127.0.0.1:").contains("scheme=http ").contains("tls=none")
                    .contains("attributes={}");
        }
    }

    @Test
    void idleConnectionsStayOpenForTheFrontEnd() throws Exception {
        // the HTTP idle timeout of the test config is 4 s; an AJP connection outlives it by default
        start(Transport.NIO, AjpConfig.withSecret(SECRET));
        try (AjpClient client = client()) {
            assertThat(client.send(AjpClient.request("GET", "/").secret(SECRET)).reuse()).isTrue();
            Thread.sleep(5_000);
            assertThat(client.send(AjpClient.request("GET", "/").secret(SECRET)).text()).isEqualTo("HelloWorld");
        }
    }
}
