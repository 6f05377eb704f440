package dev.petrel.server.tls;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.http.DateCache;
import dev.petrel.server.config.ServerConfig;
import dev.petrel.server.http1.Http1Protocol;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link TlsEndpoint} over real loopback sockets against real clients: the JDK's
 * {@link SSLSocket}, curl, and plain sockets sending clear text, garbage or half a handshake.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsEndpointSocketTest {
    private static final int HANDSHAKE_MILLIS = 30_000; // long: a failure must come from the bytes, not from waiting
    private static final int READ_MILLIS = 10_000;
    private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("1994-11-06T08:49:37Z"));

    @TempDir
    static Path keyDir;
    private static TlsEndpointKeys keys;

    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private ServerSocket listener;

    @BeforeAll
    static void generateKeys() throws Exception {
        keys = TlsEndpointKeys.generate(keyDir);
    }

    @BeforeEach
    void listen() throws IOException {
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        listener.setSoTimeout(READ_MILLIS);
    }

    @AfterEach
    void stop() throws IOException {
        listener.close();
        threads.shutdownNow();
    }

    /** What the server side of a test does with its accepted connection. */
    private interface ServerSide<T> {
        T run(TlsEndpointSocketRaw raw) throws Exception;
    }

    /** Accepts one connection on a server thread and runs {@code side} on it; the socket is closed afterwards. */
    private <T> Future<T> serve(ServerSide<T> side) {
        return threads.submit(() -> {
            try (Socket accepted = listener.accept()) {
                return side.run(new TlsEndpointSocketRaw(accepted));
            }
        });
    }

    private SSLSocket client(String protocol) throws IOException {
        SSLSocket socket = (SSLSocket) keys.clientContext().getSocketFactory()
                .createSocket(InetAddress.getLoopbackAddress(), listener.getLocalPort());
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setProtocols(new String[] {protocol});
        parameters.setApplicationProtocols(new String[] {TlsEndpointKeys.ALPN});
        parameters.setServerNames(List.of(new SNIHostName("petrel.test")));
        socket.setSSLParameters(parameters);
        socket.setSoTimeout(READ_MILLIS);
        return socket;
    }

    private static Socket plainClient(int port) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(READ_MILLIS);
        return socket;
    }

    private static byte[] readFully(InputStream in, int n) throws IOException {
        byte[] bytes = in.readNBytes(n);
        assertThat(bytes).hasSize(n);
        return bytes;
    }

    /** Echoes everything until the client's close_notify, then closes; what was negotiated. */
    private static String echo(TlsEndpoint tls, int total) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(8192);
        int echoed = 0;
        while (echoed < total) {
            int n = tls.read(buffer.clear(), READ_MILLIS);
            if (n < 0) throw new IOException("end of stream after " + echoed);
            tls.write(buffer.array(), 0, n);
            echoed += n;
        }
        tls.shutdownOutput();                                                      // close_notify
        int end = tls.read(buffer.clear(), READ_MILLIS);                           // the client's
        tls.close();
        return tls.protocol() + " " + tls.applicationProtocol() + " " + tls.serverName() + " end=" + end;
    }

    /** In native memory too: the records then go through direct buffers (the JDK's engine takes them as well). */
    @ParameterizedTest
    @CsvSource({"TLSv1.3, HEAP", "TLSv1.2, HEAP", "TLSv1.3, DIRECT", "TLSv1.2, DIRECT"})
    void anSslSocketEchoesAMebibyteBothWaysAndSeesCloseNotifyAsTheEnd(String protocol, TlsEndpoint.Buffers buffers) throws Exception {
        byte[] data = new byte[1024 * 1024];
        new Random(9).nextBytes(data);
        Future<String> server = serve(raw -> {
            TlsEndpoint tls = new TlsEndpoint(raw, keys.serverEngine(), engine -> { }, HandshakeLane.shared(), buffers);
            tls.handshake(HANDSHAKE_MILLIS);
            return echo(tls, data.length);
        });

        try (SSLSocket client = client(protocol)) {
            client.startHandshake();
            Future<?> send = threads.submit(() -> {
                OutputStream out = client.getOutputStream();
                for (int off = 0; off < data.length; off += 10_000) out.write(data, off, Math.min(10_000, data.length - off));
                return null;
            });
            InputStream in = client.getInputStream();
            assertThat(Arrays.mismatch(readFully(in, data.length), data)).as("first differing byte").isEqualTo(-1);
            assertThat(in.read()).as("close_notify reads as the end").isEqualTo(-1);
            send.get(READ_MILLIS, TimeUnit.MILLISECONDS);
            assertThat(client.getSession().getProtocol()).isEqualTo(protocol);
            assertThat(client.getApplicationProtocol()).isEqualTo("http/1.1");
        }
        assertThat(server.get(READ_MILLIS, TimeUnit.MILLISECONDS)).isEqualTo(protocol + " http/1.1 petrel.test end=-1");
    }

    @Test
    void keyUpdatesFromATls13ClientAreAnsweredAndTheConnectionGoesOn() throws Exception {
        int rounds = 3;
        Future<String> server = serve(raw -> {
            TlsEndpoint tls = new TlsEndpoint(raw, keys.serverEngine());
            tls.handshake(HANDSHAKE_MILLIS);
            return echo(tls, rounds * 4);
        });

        try (SSLSocket client = client("TLSv1.3")) {
            client.startHandshake();
            for (int i = 0; i < rounds; i++) {
                client.startHandshake(); // on an established TLS 1.3 connection the JDK sends a KeyUpdate
                client.getOutputStream().write(ascii("ping"));
                assertThat(new String(readFully(client.getInputStream(), 4), US_ASCII)).isEqualTo("ping");
            }
            assertThat(client.getInputStream().read()).isEqualTo(-1);
        }
        assertThat(server.get(READ_MILLIS, TimeUnit.MILLISECONDS)).startsWith("TLSv1.3");
    }

    @Test
    void renegotiationOnTls12ClosesTheConnection() throws Exception {
        Future<Throwable> server = serve(raw -> {
            TlsEndpoint tls = new TlsEndpoint(raw, keys.serverEngine());
            tls.handshake(HANDSHAKE_MILLIS);
            ByteBuffer buffer = ByteBuffer.allocate(64);
            tls.read(buffer, READ_MILLIS);
            tls.write(ascii("pong"), 0, 4);
            try {
                tls.read(buffer.clear(), READ_MILLIS);
                return null;
            } catch (IOException e) {
                return e;
            }
        });

        try (SSLSocket client = client("TLSv1.2")) {
            client.startHandshake();
            client.getOutputStream().write(ascii("ping"));
            assertThat(new String(readFully(client.getInputStream(), 4), US_ASCII)).isEqualTo("pong");

            Throwable refused = null;
            try {
                client.startHandshake(); // on TLS 1.2: renegotiation
                client.getOutputStream().write(ascii("again"));
                assertThat(client.getInputStream().read()).as("connection closed").isEqualTo(-1);
            } catch (IOException e) {
                refused = e; // the JDK client may report the closed connection as an error instead
            }
            if (refused != null) assertThat(refused).isNotInstanceOf(SocketTimeoutException.class);
        }
        assertThat(server.get(READ_MILLIS, TimeUnit.MILLISECONDS))
                .isInstanceOf(SSLHandshakeException.class)
                .hasMessage("TLS renegotiation refused");
    }

    @Test
    void plainHttpGetsTheClearText400AndTheConnectionCloses() throws Exception {
        Future<Throwable> server = serve(raw -> {
            TlsEndpoint tls = new TlsEndpoint(raw, keys.serverEngine());
            try {
                tls.handshake(HANDSHAKE_MILLIS);
                return null;
            } catch (TlsEndpoint.PlainHttpOnTlsPortException e) {
                TlsEndpoint.rejectPlainHttp(raw, new Http1Protocol((request, response) -> response.send("unused"), ServerConfig.DEFAULT, new DateCache(CLOCK)).clearTextOnTlsPortAnswer());
                return e;
            }
        });

        String answer;
        try (Socket client = plainClient(listener.getLocalPort())) {
            client.getOutputStream().write(ascii("GET / HTTP/1.1\r\nHost: localhost\r\nUser-Agent: curl/8\r\n\r\n"));
            answer = new String(client.getInputStream().readAllBytes(), US_ASCII); // until the server closes
        }

        assertThat(answer).isEqualTo("HTTP/1.1 400 Bad Request\r\n"
                + "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
                + "Content-Type: text/plain;charset=UTF-8\r\n"
                + "Content-Length: 37\r\n"
                + "Connection: close\r\n"
                + "\r\n"
                + "This port speaks HTTPS; use https://\n");
        assertThat(server.get(READ_MILLIS, TimeUnit.MILLISECONDS)).isInstanceOf(TlsEndpoint.PlainHttpOnTlsPortException.class);
    }

    @ParameterizedTest
    @ValueSource(bytes = {0x16, 0x00})
    void garbageFailsTheHandshakeWithoutWaitingForTheTimeout(byte first) throws Exception {
        Future<Throwable> server = serve(raw -> {
            TlsEndpoint tls = new TlsEndpoint(raw, keys.serverEngine());
            try {
                tls.handshake(HANDSHAKE_MILLIS);
                return null;
            } catch (IOException e) {
                return e;
            }
        });
        byte[] garbage = new byte[300];
        new Random(13).nextBytes(garbage);
        garbage[0] = first;
        garbage[1] = 0x03;
        garbage[2] = 0x01;
        garbage[3] = 0x01;
        garbage[4] = 0x00;

        try (Socket client = plainClient(listener.getLocalPort())) {
            client.getOutputStream().write(garbage);
            assertThat(server.get(READ_MILLIS, TimeUnit.MILLISECONDS))
                    .isInstanceOf(SSLException.class)
                    .isNotInstanceOf(TlsEndpoint.PlainHttpOnTlsPortException.class);
        }
    }

    @Test
    void aClientThatStopsHalfwayThroughTheHandshakeTimesOut() throws Exception {
        Future<Throwable> server = serve(raw -> {
            TlsEndpoint tls = new TlsEndpoint(raw, keys.serverEngine());
            try {
                tls.handshake(300);
                return null;
            } catch (IOException e) {
                return e;
            }
        });
        TlsEndpointMemoryClient hello = new TlsEndpointMemoryClient(keys.clientEngine("TLSv1.3", null), null, null);
        hello.engine().beginHandshake();
        byte[] clientHello = hello.wrapHandshake();

        try (Socket client = plainClient(listener.getLocalPort())) {
            client.getOutputStream().write(clientHello, 0, clientHello.length / 2);
            assertThat(server.get(READ_MILLIS, TimeUnit.MILLISECONDS))
                    .isInstanceOf(SocketTimeoutException.class)
                    .hasMessage("TLS handshake not completed within 300 ms");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void curlGetsAnAnswer(String protocol) throws Exception {
        Path curl = onPath("curl");
        Assumptions.assumeTrue(curl != null, "curl is not installed");
        String body = "hello over TLS\n";
        Future<String> server = serve(raw -> {
            TlsEndpoint tls = new TlsEndpoint(raw, keys.serverEngine());
            tls.handshake(HANDSHAKE_MILLIS);
            String head = readHead(tls);
            byte[] response = ascii("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + body.length()
                    + "\r\nConnection: close\r\n\r\n" + body);
            tls.write(response, 0, response.length);
            tls.closeGracefully(2000, 64 * 1024);
            return tls.protocol() + " " + tls.applicationProtocol() + " " + head.lines().findFirst().orElse("");
        });

        List<String> command = new ArrayList<>(List.of(curl.toString(), "-sS", "-k", "--max-time", "20"));
        command.addAll(protocol.equals("TLSv1.3") ? List.of("--tlsv1.3") : List.of("--tlsv1.2", "--tls-max", "1.2"));
        command.add("https://localhost:" + listener.getLocalPort() + "/hello");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), US_ASCII);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();

        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).isEqualTo(body);
        assertThat(server.get(READ_MILLIS, TimeUnit.MILLISECONDS)).isEqualTo(protocol + " http/1.1 GET /hello HTTP/1.1");
    }

    /** Reads a request head up to its empty line. */
    private static String readHead(TlsEndpoint tls) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        ByteBuffer buffer = ByteBuffer.allocate(1024);
        while (!head.toString(US_ASCII).contains("\r\n\r\n")) {
            int n = tls.read(buffer.clear(), READ_MILLIS);
            if (n < 0) throw new IOException("end of stream in the head");
            head.write(buffer.array(), 0, n);
        }
        return head.toString(US_ASCII);
    }

    private static Path onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, tool);
            if (Files.isExecutable(candidate)) return candidate;
        }
        return null;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(US_ASCII);
    }
}
