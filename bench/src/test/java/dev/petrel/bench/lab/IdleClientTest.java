package dev.petrel.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.UnixOperatingSystemMXBean;
import dev.petrel.bench.lab.IdleClient.Failure;
import dev.petrel.bench.lab.IdleClient.Round;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Test;

/**
 * The idle client against a small blocking server on 127.0.0.1 that answers as told. Limits are
 * generous upper bounds, never what a test checks: every outcome here is the same on a slow machine.
 */
class IdleClientTest {
    private static final Duration LIMIT = Duration.ofSeconds(30);

    @Test
    void holdsEveryAnsweredConnectionAndHearsFromEachAgain() throws IOException {
        try (TestServer server = new TestServer(Mode.KEEP_ALIVE); IdleClient client = new IdleClient(server.address())) {
            Round open = client.open(40, 8, LIMIT, LIMIT, LIMIT);

            assertThat(open.attempted()).isEqualTo(40);
            assertThat(open.connected()).isEqualTo(40);
            assertThat(open.answered()).isEqualTo(40);
            assertThat(open.failed()).isEmpty();
            assertThat(open.notStarted()).isZero();
            assertThat(open.stopped()).isNull();
            assertThat(client.held()).isEqualTo(40);

            Round again = client.again(LIMIT, LIMIT);

            assertThat(again.answered()).isEqualTo(40);
            assertThat(again.failureText()).isEqualTo("none");
            assertThat(client.held()).isEqualTo(40);
            assertThat(server.requests()).isEqualTo(80);
        }
    }

    @Test
    void asksAgainOnConnectionsIdleTooLongWhileOthersStillOpenAndCountsEachAnswerOnce() throws Exception {
        try (TestServer server = new TestServer(Mode.KEEP_ALIVE); IdleClient client = new IdleClient(server.address())) {
            Round open = client.open(30, 1, LIMIT, LIMIT, Duration.ofMillis(1));

            assertThat(open.answered()).isEqualTo(30);
            assertThat(open.failed()).isEmpty();
            assertThat(open.stopped()).isNull();
            assertThat(client.held()).isEqualTo(30);
            assertThat(server.requests()).as("the first ones were asked again").isGreaterThan(30);
        }
    }

    @Test
    void holdsConnectionsOverTls(@TempDir Path dir) throws Exception {
        LabCertificate certificate = LabCertificate.obtain(dir, Path.of(System.getProperty("java.home"), "bin", "keytool"));
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(certificate.pkcs12())) {
            store.load(in, LabCertificate.PASSWORD.toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, LabCertificate.PASSWORD.toCharArray());
        SSLContext serverTls = SSLContext.getInstance("TLS");
        serverTls.init(keys.getKeyManagers(), null, null);

        try (TestServer server = new TestServer(Mode.KEEP_ALIVE, serverTls);
             IdleClient client = new IdleClient(server.address(), certificate.clientContext())) {
            Round open = client.open(20, 5, LIMIT, LIMIT, LIMIT);
            assertThat(open.answered()).isEqualTo(20);
            assertThat(open.failureText()).isEqualTo("none");

            Round again = client.again(LIMIT, LIMIT);
            assertThat(again.answered()).isEqualTo(20);
            assertThat(server.requests()).isEqualTo(40);
        }
    }

    @Test
    void aFailedHandshakeIsCountedAsSuch(@TempDir Path dir) throws Exception {
        // a TLS client against a plain server: its hello is answered with bytes that are not TLS
        LabCertificate certificate = LabCertificate.obtain(dir, Path.of(System.getProperty("java.home"), "bin", "keytool"));
        try (TestServer server = new TestServer(Mode.KEEP_ALIVE);
             IdleClient client = new IdleClient(server.address(), certificate.clientContext())) {
            Round open = client.open(3, 3, LIMIT, Duration.ofSeconds(2), LIMIT);
            assertThat(open.answered()).isZero();
            assertThat(client.held()).isZero();
            assertThat(open.failures()).isEqualTo(3);
        }
    }

    @Test
    void countsTheConnectionsTheServerClosedWhileIdle() throws IOException {
        try (TestServer server = new TestServer(Mode.CLOSE_AFTER_ONE); IdleClient client = new IdleClient(server.address())) {
            Round open = client.open(10, 10, LIMIT, LIMIT, LIMIT);
            assertThat(open.answered()).isEqualTo(10);

            Round again = client.again(LIMIT, LIMIT);

            // the server's FIN came first; whether the read then sees it or the RST its close answers
            // our second request with is the kernel's race
            assertThat(again.answered()).isZero();
            assertThat(again.failures()).isEqualTo(10);
            assertThat(again.failed().keySet()).isSubsetOf(Failure.CLOSED, Failure.RESET);
            assertThat(client.held()).isZero();
        }
    }

    @Test
    void countsAnswersThatAreNot2xxAsFailures() throws IOException {
        try (TestServer server = new TestServer(Mode.NOT_FOUND); IdleClient client = new IdleClient(server.address())) {
            Round open = client.open(6, 6, LIMIT, LIMIT, LIMIT);

            assertThat(open.connected()).isEqualTo(6);
            assertThat(open.answered()).isZero();
            assertThat(open.failed()).isEqualTo(Map.of(Failure.NOT_2XX, 6));
            assertThat(open.failureText()).isEqualTo("6 not 2xx");
            assertThat(client.held()).isZero();
        }
    }

    @Test
    void countsRefusedConnects() throws IOException {
        InetSocketAddress nobody;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            nobody = new InetSocketAddress("127.0.0.1", closed.getLocalPort());
        }
        try (IdleClient client = new IdleClient(nobody)) {
            Round open = client.open(5, 5, LIMIT, LIMIT, LIMIT);

            assertThat(open.connected()).isZero();
            assertThat(open.failed()).isEqualTo(Map.of(Failure.REFUSED, 5));
        }
    }

    @Test
    void keepsAtMostMaxInFlightWaitingAndGivesUpWhenNothingMoves() throws IOException {
        try (TestServer server = new TestServer(Mode.SILENT); IdleClient client = new IdleClient(server.address())) {
            Round open = client.open(8, 5, LIMIT, Duration.ofMillis(300), LIMIT);

            assertThat(open.attempted()).isEqualTo(5);
            assertThat(open.notStarted()).isEqualTo(3);
            assertThat(open.failed()).isEqualTo(Map.of(Failure.TIMEOUT, 5));
            assertThat(open.stopped()).startsWith("no progress");
            assertThat(client.held()).isZero();
        }
    }

    @Test
    void closeReleasesEveryDescriptor() throws IOException {
        holdAndClose(5); // the JDK opens what it keeps for good (providers, caches) on first use
        long before = openDescriptors();

        holdAndClose(30);

        assertThat(openDescriptors()).isEqualTo(before);
    }

    private static void holdAndClose(int connections) throws IOException {
        try (TestServer server = new TestServer(Mode.KEEP_ALIVE); IdleClient client = new IdleClient(server.address())) {
            assertThat(client.open(connections, connections, LIMIT, LIMIT, LIMIT).answered()).isEqualTo(connections);
            assertThat(client.again(LIMIT, LIMIT).answered()).isEqualTo(connections);
        }
    }

    private static long openDescriptors() {
        return ((UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getOpenFileDescriptorCount();
    }

    private enum Mode { KEEP_ALIVE, CLOSE_AFTER_ONE, NOT_FOUND, SILENT }

    /**
     * A blocking HTTP/1.1 server on 127.0.0.1, a platform thread per connection (no virtual-thread
     * poller, whose descriptors would outlive it). {@link #close()} closes every socket and waits for
     * every thread.
     */
    private static final class TestServer implements AutoCloseable {
        private static final byte[] OK = ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 10\r\n\r\n"
                + "HelloWorld").getBytes(StandardCharsets.US_ASCII);
        private static final byte[] NOT_FOUND = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII);

        private final Mode mode;
        private final ServerSocket listener;
        private final List<Socket> sockets = new ArrayList<>();
        private final List<Thread> threads = new ArrayList<>();
        private int requests;

        TestServer(Mode mode) throws IOException {
            this(mode, null);
        }

        /** Over TLS with {@code tls}'s key when it is not null. */
        TestServer(Mode mode, SSLContext tls) throws IOException {
            this.mode = mode;
            this.listener = tls == null ? new ServerSocket(0, 100, InetAddress.getLoopbackAddress())
                    : tls.getServerSocketFactory().createServerSocket(0, 100, InetAddress.getLoopbackAddress());
            start(this::accept);
        }

        InetSocketAddress address() {
            return new InetSocketAddress("127.0.0.1", listener.getLocalPort());
        }

        synchronized int requests() {
            return requests;
        }

        private synchronized void start(Runnable task) {
            Thread thread = Thread.ofPlatform().daemon().start(task);
            threads.add(thread);
        }

        private void accept() {
            try {
                while (true) {
                    Socket socket = listener.accept();
                    synchronized (this) {
                        sockets.add(socket);
                    }
                    start(() -> serve(socket));
                }
            } catch (IOException closed) {
                // close() closed the listener
            }
        }

        private void serve(Socket socket) {
            try (socket) {
                InputStream in = new BufferedInputStream(socket.getInputStream());
                OutputStream out = socket.getOutputStream();
                while (readHead(in)) {
                    synchronized (this) {
                        requests++;
                    }
                    if (mode == Mode.SILENT) continue;
                    out.write(mode == Mode.NOT_FOUND ? NOT_FOUND : OK);
                    out.flush();
                    if (mode == Mode.CLOSE_AFTER_ONE) return;
                }
            } catch (IOException e) {
                // the client went away, or close() closed the socket
            }
        }

        /** Reads up to the blank line that ends a request head; false at the end of the stream. */
        private static boolean readHead(InputStream in) throws IOException {
            int last4 = 0;
            while (true) {
                int b = in.read();
                if (b < 0) return false;
                last4 = (last4 << 8) | b;
                if (last4 == 0x0d0a0d0a) return true;
            }
        }

        @Override
        public void close() throws IOException {
            listener.close();
            List<Thread> all;
            synchronized (this) {
                for (Socket socket : sockets) socket.close();
                all = List.copyOf(threads);
            }
            for (Thread thread : all) {
                try {
                    thread.join(10_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
