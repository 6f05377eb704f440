package dev.petrel.nativetls;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.server.Handler;
import dev.petrel.server.Server;
import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TransportKind;
import dev.petrel.server.engine.connection.SlotPool;
import dev.petrel.server.tls.SelfSignedCertificate;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A server on the native engine, on every transport: it answers over TLS and frees each
 * connection's {@code SSL} once the connection is gone, whether it ended well, failed its
 * handshake, or spoke plain HTTP to the port; and it says which engine serves TLS.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NativeEngineServerTest {
    @TempDir
    static Path dir;
    static SelfSignedCertificate certificate;
    static SSLContext trusting;

    @BeforeAll
    static void certificate() throws Exception {
        certificate = SelfSignedCertificate.obtain(dir);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("server", certificate.certificate());
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        trusting = SSLContext.getInstance("TLS");
        trusting.init(null, factory.getTrustManagers(), null);
    }

    @ParameterizedTest
    @EnumSource(TransportKind.class)
    void everyConnectionsEngineIsFreedWhenItCloses(TransportKind transport) throws Exception {
        long before = NativeEngines.liveEngines();
        Server server = httpsOnNativeEngine(transport, (request, response) -> response.send("HelloWorld"));
        try {
            assertThat(server.tlsEngine()).startsWith("BoringSSL");
            URI uri = URI.create("https://localhost:" + server.httpsAddress().getPort() + "/");
            for (int i = 0; i < 5; i++) {
                // a client of its own each time: a connection each, closed with the client
                try (HttpClient client = HttpClient.newBuilder().sslContext(trusting).version(HttpClient.Version.HTTP_1_1).build()) {
                    HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
                    assertThat(response.body()).isEqualTo("HelloWorld");
                }
            }
            assertThat(plainHttpTo(server.httpsAddress().getPort())).startsWith("HTTP/1.1 400");
            try (Socket silent = new Socket("127.0.0.1", server.httpsAddress().getPort())) {
                silent.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x00, 0x05, 0x01, 0, 0, 0, 0}); // a broken hello
                silent.setSoTimeout(5_000);
                assertThat(silent.getInputStream().readAllBytes().length).as("an alert at most").isLessThan(16);
            }
            awaitLiveEngines(before, Duration.ofSeconds(10));
        } finally {
            server.stop(Duration.ofSeconds(2));
        }
        assertThat(NativeEngines.liveEngines()).isEqualTo(before);
    }

    /**
     * A server that stops while handshakes are under way (a client that sent nothing, one that
     * sent half a record) frees their engines: on {@code nio} the loop holds them between the
     * client's flights, and no thread is there to notice the close.
     */
    @ParameterizedTest
    @EnumSource(TransportKind.class)
    void connectionsStoppedMidHandshakeFreeTheirEngines(TransportKind transport) throws Exception {
        long before = NativeEngines.liveEngines();
        Server server = httpsOnNativeEngine(transport, (request, response) -> response.send("HelloWorld"));
        boolean stopped = false;
        try (Socket silent = new Socket("127.0.0.1", server.httpsAddress().getPort());
             Socket halfway = new Socket("127.0.0.1", server.httpsAddress().getPort())) {
            halfway.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x02}); // a record's header, cut short
            awaitLiveEngines(before + 2, Duration.ofSeconds(10));
            stopped = true;
            server.stop(Duration.ofSeconds(2));
            awaitLiveEngines(before, Duration.ofSeconds(10));
        } finally {
            if (!stopped) server.stop(Duration.ofSeconds(2));
        }
    }

    /**
     * On {@code nio} BoringSSL computes inside its unwrap, so the event loop runs the whole
     * handshake, as Netty's does, and a handler that never blocks answers the first request
     * there too: no thread is handed the connection.
     */
    @org.junit.jupiter.api.Test
    void onNioTheHandshakeAndTheFirstRequestOfANonBlockingHandlerRunOnTheEventLoop() throws Exception {
        Server server = httpsOnNativeEngine(TransportKind.NIO,
                Handler.nonBlocking((request, response) -> response.send(Thread.currentThread().getName())));
        try {
            URI uri = URI.create("https://localhost:" + server.httpsAddress().getPort() + "/");
            for (int i = 0; i < 3; i++) {
                try (HttpClient client = HttpClient.newBuilder().sslContext(trusting).version(HttpClient.Version.HTTP_1_1).build()) {
                    HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
                    assertThat(response.body()).as("the thread that answered a new connection").startsWith("petrel-nio-loop-");
                }
            }
        } finally {
            server.stop(Duration.ofSeconds(2));
        }
    }

    /**
     * On {@code nio} an idle TLS connection holds no native record buffer: the engine's ciphertext
     * and the plaintext a write copies into native memory go back to the listener's pool between
     * requests. One buffer kept per connection was 16 KiB of native memory each, which no heap
     * figure shows; here the direct memory held with many idle connections stays within what the
     * pool keeps free, whatever their number.
     */
    @org.junit.jupiter.api.Test
    void onNioAnIdleConnectionHoldsNoNativeRecordBuffer() throws Exception {
        int connections = 4 * SlotPool.capacityForProcessors();
        Server server = httpsOnNativeEngine(TransportKind.NIO, (request, response) -> response.send("HelloWorld"));
        List<SSLSocket> idle = new ArrayList<>();
        try {
            long before = directMemoryAfterGc();
            int packet = 0;
            for (int i = 0; i < connections; i++) {
                SSLSocket socket = (SSLSocket) trusting.getSocketFactory().createSocket("127.0.0.1", server.httpsAddress().getPort());
                idle.add(socket);
                socket.setSoTimeout(5_000);
                socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                assertThat(readResponse(socket.getInputStream())).endsWith("HelloWorld");
                packet = socket.getSession().getPacketBufferSize();
            }
            long held = directMemoryAfterGc() - before;
            assertThat(held).as("direct memory held with %d idle connections", connections)
                    .isLessThanOrEqualTo((long) (SlotPool.capacityForProcessors() + 3) * packet);
        } finally {
            for (SSLSocket socket : idle) socket.close();
            server.stop(Duration.ofSeconds(2));
        }
    }

    /** One response with a body that ends in "HelloWorld", read to its end. */
    private static String readResponse(InputStream in) throws IOException {
        StringBuilder text = new StringBuilder();
        byte[] chunk = new byte[1024];
        while (!text.toString().endsWith("HelloWorld")) {
            int n = in.read(chunk);
            if (n < 0) break;
            text.append(new String(chunk, 0, n, StandardCharsets.US_ASCII));
        }
        return text.toString();
    }

    /** The JDK's direct buffers in use after full collections, their cleaners having run. */
    private static long directMemoryAfterGc() throws InterruptedException {
        BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(pool -> pool.getName().equals("direct")).findFirst().orElseThrow();
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return direct.getMemoryUsed();
    }

    /** A server with HTTPS only, on the native engine, on {@code transport}, serving {@code handler}. */
    private static Server httpsOnNativeEngine(TransportKind transport, Handler handler) throws IOException {
        return Server.builder().host("127.0.0.1").port(0).transport(transport).plainHttp(false)
                .https(0, TlsConfig.builder().certificate(certificate.source()).engine(TlsConfig.NATIVE).build())
                .handler(handler).start();
    }

    private static String plainHttpTo(int port) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }

    private static void awaitLiveEngines(long expected, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (NativeEngines.liveEngines() != expected) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("native engines not freed: " + NativeEngines.liveEngines() + " live, expected " + expected);
            }
            Thread.sleep(20);
        }
    }

    /** The engine that cannot load stops the start with one line; never a quiet fall-back to JSSE. */
    @org.junit.jupiter.api.Test
    void whenBoringSslCannotLoadTheCommandLineSaysSoInOneLineAndExits1() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(List.of(java.toString(), "-Dio.netty.handler.ssl.noOpenSsl=true",
                "-cp", System.getProperty("java.class.path"), "dev.petrel.server.cli.Main", "serve", "--port", "0", "--no-http",
                "--https-port", "0", "--tls-dir", dir.toString(), "--tls-engine", "native"))
                .redirectErrorStream(true).start();
        try {
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("exited").isTrue();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.exitValue()).as(output).isEqualTo(1);
            List<String> errors = output.lines().filter(line -> line.startsWith("petrel:")).toList();
            assertThat(errors).as(output).hasSize(1);
            assertThat(errors.getFirst()).startsWith("petrel: cannot serve HTTPS: TLS: the native engine cannot load BoringSSL")
                    .endsWith("; use --tls-engine jsse");
            assertThat(output).doesNotContain("Exception\n\tat ", "ready");
        } finally {
            process.destroyForcibly();
        }
    }
}
