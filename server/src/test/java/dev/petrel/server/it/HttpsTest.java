package dev.petrel.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.server.Server;
import dev.petrel.server.config.TlsConfig;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Timeout;

/**
 * What only a TLS port does, on every transport: clear text answered with a 400, bad and stalled
 * handshakes closed (never a hang), overload and the connection limit as a TLS client meets
 * them, and plain HTTP beside HTTPS on one server. The rest of the suite runs over TLS too (see
 * {@link Transport}).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HttpsTest {
    private static final int TLS_HANDSHAKE = 22;
    private static final int TLS_ALERT = 21;

    private static Server start(Transport kind, Duration handshakeTimeout) throws IOException {
        TlsConfig tls = TestCertificate.get().serverConfig().toBuilder().handshakeTimeout(handshakeTimeout).build();
        return TestServers.builder(kind, TestServers.config().build(), TestApp.handler())
                .plainHttp(false).https(0, tls).start();
    }

    /** A plain TCP connection to the server's TLS port, for sending what no TLS client would. */
    private static Socket tcp(Server server) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", server.httpsAddress().getPort()), 5_000);
        socket.setSoTimeout(5_000);
        return socket;
    }

    /** Reads until the server closes (end of stream or reset); fails if it has not within 5 s. */
    private static byte[] readUntilClosed(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        java.io.ByteArrayOutputStream received = new java.io.ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) received.write(buffer, 0, n);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server did not close the connection within 5 s; received " + received.size() + " bytes");
        } catch (java.net.SocketException e) {
            // reset: closed too
        }
        return received.toByteArray();
    }

    @HttpsTransportTest
    void plainHttpOnTheHttpsPortGetsA400InClearTextThenClose(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, TestApp.handler());
             RawClient client = RawClient.connect(server.httpsAddress().getPort())) {
            RawResponse response = client.send(Requests.get("/")).read();
            assertThat(response.statusLine()).isEqualTo("HTTP/1.1 400 Bad Request");
            assertThat(response.headers("Connection")).containsExactly("close");
            assertThat(response.header("Content-Type")).startsWith("text/plain");
            assertThat(response.text()).isEqualTo("This port speaks HTTPS; use https://\n");
            client.assertClosedByServer();
            TestServers.awaitLiveConnections(server, 0);
        }
    }

    @HttpsTransportTest
    void requestsOverTlsHaveTheHttpsScheme(Transport kind) throws Exception {
        try (Server server = TestServers.start(kind, TestApp.handler()); RawClient client = RawClient.connect(server)) {
            assertThat(client.send(Requests.get("/scheme")).read().text()).isEqualTo("https");
        }
    }

    @HttpsTransportTest
    void garbageInsteadOfAHandshakeIsClosedWithoutWaitingForTheTimeout(Transport kind) throws Exception {
        try (Server server = start(kind, Duration.ofSeconds(20)); Socket socket = tcp(server)) {
            byte[] garbage = new byte[64];
            new java.util.Random(5).nextBytes(garbage);
            garbage[0] = 0x00; // no TLS record type, no HTTP method
            socket.getOutputStream().write(garbage);
            long start = System.nanoTime();
            readUntilClosed(socket);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("closed before the 20 s handshake timeout")
                    .isLessThan(Duration.ofSeconds(5));
            TestServers.awaitLiveConnections(server, 0);
        }
    }

    @HttpsTransportTest
    void malformedHandshakeRecordIsAnsweredWithAnAlertThenClose(Transport kind) throws Exception {
        try (Server server = start(kind, Duration.ofSeconds(20)); Socket socket = tcp(server)) {
            // a handshake record of 5 bytes whose message is no ClientHello
            socket.getOutputStream().write(new byte[] {TLS_HANDSHAKE, 3, 1, 0, 5, 9, 9, 9, 9, 9});
            byte[] answer = readUntilClosed(socket);
            assertThat(answer).as("a TLS alert record").isNotEmpty();
            assertThat(answer[0]).isEqualTo((byte) TLS_ALERT);
            TestServers.awaitLiveConnections(server, 0);
        }
    }

    @HttpsTransportTest
    void truncatedHandshakeIsCutAtTheHandshakeTimeoutAndFreesItsSlot(Transport kind) throws Exception {
        try (Server server = start(kind, Duration.ofMillis(500)); Socket socket = tcp(server)) {
            // the header of a 512-byte handshake record, then only 3 bytes of it
            socket.getOutputStream().write(new byte[] {TLS_HANDSHAKE, 3, 1, 2, 0, 1, 0, 1});
            TestServers.awaitLiveConnections(server, 1);
            readUntilClosed(socket);
            TestServers.awaitLiveConnections(server, 0);
        }
    }

    @HttpsTransportTest
    void clientTurnedAwayForOverloadSeesItsHandshakeEndAndTheServerRecovers(Transport kind) throws Exception {
        try (Server server = TestServers.builder(kind, TestServers.config().build(), TestApp.handler())
                .maxConnections(1).queueTimeout(Duration.ZERO).start()) {
            try (RawClient holder = RawClient.connect(server)) {
                assertThat(holder.send(Requests.get("/")).read().status()).isEqualTo(200);
                // no clear-text 503 on a TLS port: the connection closes during the handshake
                assertThatThrownBy(() -> RawClient.connect(server).close()).isInstanceOf(SSLException.class);
            }
            TestServers.awaitLiveConnections(server, 0);
            try (RawClient later = RawClient.connect(server)) {
                assertThat(later.send(Requests.get("/")).read().text()).isEqualTo("HelloWorld");
            }
        }
    }

    @HttpsTransportTest
    void clientWaitingForASlotCompletesItsHandshakeOnceOneFrees(Transport kind) throws Exception {
        try (Server server = TestServers.builder(kind, TestServers.config().build(), TestApp.handler())
                .maxConnections(1).queueTimeout(Duration.ofSeconds(10)).start();
             RawClient first = RawClient.connect(server)) {
            assertThat(first.send(Requests.get("/")).read().status()).isEqualTo(200);
            // the handshake needs the server to accept: it waits in the backlog meanwhile
            CompletableFuture<RawClient> second = CompletableFuture.supplyAsync(() -> {
                try {
                    return RawClient.connect(server);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            assertThatThrownBy(() -> second.get(300, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
            first.disconnect();
            try (RawClient client = second.get(5, TimeUnit.SECONDS)) {
                assertThat(client.send(Requests.get("/text")).read().text()).isEqualTo("hello world");
            }
        }
    }

    @HttpsTransportTest
    void plainHttpAndHttpsServedSideBySideShareOneConnectionLimit(Transport kind) throws Exception {
        try (Server server = TestServers.builder(kind, TestServers.config().build(), TestApp.handler())
                .plainHttp(true).maxConnections(1).queueTimeout(Duration.ZERO).start()) {
            assertThat(server.address().getPort()).isNotEqualTo(server.httpsAddress().getPort());
            try (RawClient plain = RawClient.connect(server.address().getPort())) {
                assertThat(plain.send(Requests.get("/scheme")).read().text()).isEqualTo("http");
                assertThatThrownBy(() -> secureClient(server).close()).isInstanceOf(SSLException.class);
            }
            TestServers.awaitLiveConnections(server, 0);
            try (SSLSocket secure = secureClient(server)) {
                secure.getOutputStream().write(Requests.getAndClose("/scheme").getBytes(StandardCharsets.US_ASCII));
                String response = new String(secure.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                assertThat(response).startsWith("HTTP/1.1 200 OK").endsWith("\r\n\r\nhttps");
            }
        }
    }

    private static SSLSocket secureClient(Server server) throws IOException {
        SSLSocket socket = (SSLSocket) TestCertificate.get().clientContext().getSocketFactory()
                .createSocket("127.0.0.1", server.httpsAddress().getPort());
        socket.setSoTimeout(5_000);
        socket.startHandshake();
        return socket;
    }

    @HttpsTransportTest
    void stopClosesAConnectionStillInItsHandshake(Transport kind) throws Exception {
        Server server = start(kind, Duration.ofSeconds(20));
        try (Socket socket = tcp(server)) {
            socket.getOutputStream().write(new byte[] {TLS_HANDSHAKE, 3, 1, 2, 0, 1}); // and stalls
            TestServers.awaitLiveConnections(server, 1);
            long start = System.nanoTime();
            assertThat(server.stop(Duration.ofSeconds(5))).as("stopped cleanly: a handshake is no exchange to wait for").isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
            readUntilClosed(socket);
        }
    }
}
