package dev.petrel.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.server.WebSocketHandler;
import dev.petrel.server.WebSocketMessage;
import dev.petrel.server.config.Connector;
import dev.petrel.server.config.Http2Config;
import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.WebSocketConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every fault once against a Petrel server in this JVM that serves the soak's contract on a plain
 * port (HTTP/1.1 and h2c), HTTPS on JSSE and HTTPS on BoringSSL: each returns within its bound
 * whatever Petrel does, its connections are gone from the server afterwards, and Petrel answers
 * {@code GET /ping} on every listener. Then one against a server that never reads: cut at the
 * injector's bound.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FaultInjectorTest {
    private static final long SEED = 20_240_611L;
    private static final int MAX_CONNECTIONS = 100;
    private static final char[] PASSWORD = "soak-faults".toCharArray();
    /** The injector's bound, and a little for the slowest of machines. */
    private static final long BOUND_MILLIS = FaultInjector.BOUND.plus(FaultInjector.GRACE).toMillis() + 500;

    @TempDir
    static Path dir;
    private static Server server;
    private static SoakPorts ports;
    private static FaultInjector injector;

    @BeforeAll
    static void startServer() throws Exception {
        Path keystore = selfSigned(dir);
        TlsConfig jsse = TlsConfig.builder().pkcs12(keystore, PASSWORD).engine(TlsConfig.JSSE).build();
        TlsConfig boringSsl = TlsConfig.builder().pkcs12(keystore, PASSWORD).engine(TlsConfig.NATIVE).build();
        server = Server.builder()
                .host(FaultSockets.HOST)
                .port(0)
                .https(0, jsse)
                .connector(Connector.https(0, boringSsl))
                .http2(Http2Config.ENABLED.withClearText(true))
                .maxConnections(MAX_CONNECTIONS)
                .shutdownGrace(Duration.ofSeconds(1))
                .handler(soakRoutes())
                .start();
        // the shortcuts' connectors come first: plain, then HTTPS, then the one added
        List<InetSocketAddress> addresses = server.addresses();
        ports = new SoakPorts(addresses.get(0).getPort(), addresses.get(1).getPort(), addresses.get(2).getPort(), -1, -1, -1);
        injector = new FaultInjector(ports, MAX_CONNECTIONS, SEED);
        System.out.println("soak faults: seed " + SEED + ", " + ports);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) server.stop(Duration.ofSeconds(1));
    }

    @ParameterizedTest
    @EnumSource(FaultKind.class)
    void eachFaultReturnsWithinItsBoundAndThePetrelServerServesAfterwards(FaultKind kind) throws Exception {
        FaultRecord record = injector.inject(kind);
        System.out.println(record);

        assertThat(record.kind()).isEqualTo(kind);
        assertThat(Listener.of(ports)).filteredOn(kind::aimsAt).extracting(Listener::name).contains(record.listener());
        assertThat(record.end() - record.start()).isPositive();
        assertThat(record.millis()).isLessThan(BOUND_MILLIS);
        assertThat(record.detail()).isNotBlank().doesNotContain("cut at");
        assertThat(record.covers(record.listener(), record.start() + (record.end() - record.start()) / 2)).isTrue();
        // the burst included: its connections over the limit, reset while h2c's preface check waited, once stayed open on nio
        assertThat(liveConnectionsWithin(Duration.ofSeconds(5))).as("connections left open by " + kind).isZero();
        for (Listener listener : Listener.of(ports)) {
            assertThat(ping(listener)).as("GET /ping on " + listener + " after " + kind).startsWith("HTTP/1.1 200").endsWith("pong");
        }
    }

    @Test
    void aFaultAgainstAServerThatNeverReadsIsCutAtTheBound() throws Exception {
        List<Socket> accepted = new CopyOnWriteArrayList<>();
        ServerSocket deaf = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = Thread.ofVirtual().start(() -> {
            try {
                while (true) accepted.add(deaf.accept());
            } catch (IOException e) {
                // closed: the test is over
            }
        });
        try {
            FaultInjector deafInjector = new FaultInjector(new SoakPorts(deaf.getLocalPort(), -1, -1, -1, -1, -1), 10, SEED);

            // 64 MB of CONTINUATION frames: the writes block once the socket buffers are full
            FaultRecord record = deafInjector.inject(FaultKind.H2_CONTINUATION_FLOOD);
            System.out.println(record);

            assertThat(record.millis()).isBetween(FaultInjector.BOUND.toMillis(), BOUND_MILLIS);
            assertThat(record.detail()).startsWith("cut at " + FaultInjector.BOUND.toSeconds() + " s");
        } finally {
            deaf.close();
            acceptor.join(Duration.ofSeconds(5));
            for (Socket socket : accepted) socket.close();
        }
    }

    @Test
    void aServerWithoutTlsOrAPlainPortGetsOnlyTheFaultsItsPortsAllow() {
        assertThat(new FaultInjector(new SoakPorts(8080, -1, -1, -1, -1, -1), 10, 1).applicable())
                .doesNotContain(FaultKind.TLS_GARBAGE, FaultKind.TLS_HANDSHAKE_CUT)
                .contains(FaultKind.H2_RAPID_RESET, FaultKind.HALF_CLOSE, FaultKind.CONNECTION_BURST, FaultKind.SLOWLORIS_HEAD);
        assertThat(new FaultInjector(new SoakPorts(-1, 8443, -1, -1, -1, -1), 10, 1).applicable())
                .containsExactly(FaultKind.BODY_RESET_UPLOAD, FaultKind.BODY_RESET_DOWNLOAD, FaultKind.TRUNCATED_CHUNKED,
                        FaultKind.SLOWLORIS_HEAD, FaultKind.SLOWLORIS_BODY, FaultKind.TLS_GARBAGE, FaultKind.TLS_HANDSHAKE_CUT);
        assertThat(new FaultInjector(new SoakPorts(-1, -1, -1, 8081, -1, -1), 10, 1).applicable())
                .contains(FaultKind.HALF_CLOSE).doesNotContain(FaultKind.H2_RAPID_RESET, FaultKind.WEBSOCKET_VANISH);
        assertThatThrownBy(() -> new FaultInjector(new SoakPorts(-1, 8443, -1, -1, -1, -1), 10, 1).inject(FaultKind.HALF_CLOSE))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** The server's live connections once none is left, or when {@code limit} has passed. */
    private static int liveConnectionsWithin(Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (server.liveConnections() > 0 && System.nanoTime() < deadline) Thread.sleep(20);
        return server.liveConnections();
    }

    /** The soak's contract ({@link SoakContent}), served plainly. */
    private static Router soakRoutes() {
        WebSocketHandler echo = socket -> {
            try {
                for (WebSocketMessage message; (message = socket.receive()) != null; ) {
                    switch (message) {
                        case WebSocketMessage.Text text -> socket.sendText(text.text());
                        case WebSocketMessage.Binary binary -> socket.sendBinary(binary.bytes());
                    }
                }
            } catch (IOException e) {
                // a vanished client: receive() throws, and Petrel would log a handler that lets it
                // out as failed, stack and all, once per WebSocket of WEBSOCKET_VANISH
            }
        };
        return Router.builder()
                .get("/ping", (request, response) -> response.contentType("text/plain").send("pong"))
                .get("/download", (request, response) -> {
                    long size = SoakContent.parameter(request.query(), "size");
                    long seed = SoakContent.parameter(request.query(), "seed");
                    response.contentType("application/octet-stream").send(SoakContent.bytes(seed, (int) size));
                })
                .post("/upload", (request, response) -> {
                    MessageDigest digest = SoakContent.digest();
                    try (InputStream body = request.body(); OutputStream sink = new DigestOutputStream(OutputStream.nullOutputStream(), digest)) {
                        body.transferTo(sink);
                    }
                    String read = HexFormat.of().formatHex(digest.digest());
                    response.status(read.equals(request.header(SoakContent.DIGEST_HEADER)) ? 200 : 422).send(read);
                })
                .websocket("/ws/echo", WebSocketConfig.DEFAULT.withCompression(false), echo)
                .build();
    }

    /** {@code GET /ping} on {@code listener}: the status line, then the body. */
    private static String ping(Listener listener) throws IOException {
        try (Socket tcp = new Socket()) {
            tcp.connect(new InetSocketAddress(FaultSockets.HOST, listener.port()), 2_000);
            tcp.setSoTimeout(5_000);
            Socket socket = tcp;
            if (listener.tls()) {
                SSLSocket tls = (SSLSocket) TrustingTls.socketFactory().createSocket(tcp, FaultSockets.HOST, listener.port(), true);
                tls.startHandshake();
                socket = tls;
            }
            socket.getOutputStream().write(("GET /ping HTTP/1.1\r\n" + RequestHeads.host(listener) + "Connection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            return answer.lines().findFirst().orElse("") + answer.substring(answer.indexOf("\r\n\r\n") + 4);
        }
    }

    /** A self-signed EC certificate for 127.0.0.1 in a PKCS#12 store, made by this JDK's keytool. */
    private static Path selfSigned(Path dir) throws IOException, InterruptedException {
        Path store = dir.resolve("soak.p12");
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process process = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "soak", "-keyalg", "EC", "-groupname",
                "secp256r1", "-dname", "CN=localhost", "-ext", "san=dns:localhost,ip:127.0.0.1", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", new String(PASSWORD), "-noprompt")
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("keytool.log").toFile())
                .start();
        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0 || !Files.isRegularFile(store)) {
            process.destroyForcibly();
            throw new IOException("keytool made no certificate: " + Files.readString(dir.resolve("keytool.log")));
        }
        return store;
    }
}
