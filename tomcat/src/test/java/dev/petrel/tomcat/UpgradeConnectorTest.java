package dev.petrel.tomcat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpUpgradeHandler;
import jakarta.servlet.http.WebConnection;
import jakarta.websocket.CloseReason;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.OnClose;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerContainer;
import jakarta.websocket.server.ServerEndpoint;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * HTTP upgrade through Petrel's connector, each case beside Tomcat's own NIO connector
 * ({@code tomcat-nio}): Jakarta WebSocket on Tomcat's implementation (an internal upgrade handler
 * that works on Tomcat's socket wrapper) and a Servlet {@link HttpUpgradeHandler} (an external one,
 * on Tomcat's upgrade streams), on every transport and over TLS on both engines.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class UpgradeConnectorTest {
    private static final int MAX_MESSAGE = 2 << 20;

    /** Echoes each message; counts the sessions open on the server. */
    @ServerEndpoint("/echo")
    public static class Echo {
        static final AtomicInteger OPEN = new AtomicInteger();
        static final BlockingQueue<Integer> CLOSED = new LinkedBlockingQueue<>();

        @OnOpen
        public void open(Session session) {
            OPEN.incrementAndGet();
        }

        @OnMessage
        public String text(String message) {
            return message;
        }

        @OnMessage
        public ByteBuffer binary(ByteBuffer message) {
            return message;
        }

        @OnClose
        public void close(Session session, CloseReason reason) {
            OPEN.decrementAndGet();
            CLOSED.add(reason.getCloseCode().getCode());
        }
    }

    /** Deploys {@link Echo} once Tomcat's WebSocket container is there (its initializer runs before listeners). */
    public static class DeployEcho implements ServletContextListener {
        @Override
        public void contextInitialized(ServletContextEvent event) {
            ServerContainer container = (ServerContainer) event.getServletContext().getAttribute(ServerContainer.class.getName());
            try {
                container.addEndpoint(Echo.class);
            } catch (DeploymentException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** {@code Upgrade: echo}: the connection echoes every byte until the client ends its side, then closes. */
    private static final class RawEchoServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException, jakarta.servlet.ServletException {
            if (!"echo".equals(req.getHeader("Upgrade"))) {
                res.sendError(426);
                return;
            }
            res.setHeader("Upgrade", "echo");
            res.setHeader("Connection", "Upgrade");
            if (req.getParameter("blocking") != null) req.upgrade(BlockingEcho.class);
            else req.upgrade(RawEcho.class);
        }
    }

    /**
     * An application's upgrade handler that reads blocking, without a read listener: {@code init}
     * reads the first 4 bytes on the thread that calls it and writes them back, then a thread of
     * the application echoes the rest.
     */
    public static class BlockingEcho implements HttpUpgradeHandler {
        @Override
        public void init(WebConnection connection) {
            try {
                ServletInputStream in = connection.getInputStream();
                ServletOutputStream out = connection.getOutputStream();
                // not readNBytes: once it has its bytes it reads 0 more, which Tomcat's upgrade stream takes as a
                // blocking read that waits for the next byte
                byte[] first = new byte[4];
                for (int n = 0, read; n < first.length && (read = in.read(first, n, first.length - n)) > 0; ) n += read;
                out.write(first);
                out.flush();
                Thread.ofVirtual().name("blocking-echo").start(() -> {
                    byte[] chunk = new byte[4096];
                    try (connection) {
                        for (int n; (n = in.read(chunk)) >= 0; ) {
                            out.write(chunk, 0, n);
                            out.flush();
                        }
                    } catch (Exception e) {
                        // the client went away: the connection closes
                    }
                });
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void destroy() {}
    }

    /** An application's upgrade handler: non-blocking reads, each chunk written back as it came. */
    public static class RawEcho implements HttpUpgradeHandler {
        @Override
        public void init(WebConnection connection) {
            try {
                ServletInputStream in = connection.getInputStream();
                ServletOutputStream out = connection.getOutputStream();
                in.setReadListener(new ReadListener() {
                    private final byte[] chunk = new byte[4096];

                    @Override
                    public void onDataAvailable() throws IOException {
                        while (in.isReady()) {
                            int n = in.read(chunk);
                            if (n < 0) return;
                            out.write(chunk, 0, n);
                            out.flush();
                        }
                    }

                    @Override
                    public void onAllDataRead() throws IOException {
                        try {
                            connection.close();
                        } catch (Exception e) {
                            throw new IOException(e);
                        }
                    }

                    @Override
                    public void onError(Throwable t) {}
                });
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void destroy() {}
    }

    @TempDir
    static Path dir;
    private static SelfSignedCertificate certificate;
    private static SSLContext clientTls;

    @BeforeAll
    static void certificate() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/openssl")), "openssl is missing; install with: apt-get install -y openssl");
        certificate = SelfSignedCertificate.create(dir);
        clientTls = certificate.clientContext();
    }

    /** A Tomcat with the echo endpoint and the raw echo servlet; {@code transport} "tomcat-nio" is Tomcat's own connector. */
    private static EmbeddedTomcat start(String transport) throws IOException {
        return start(transport.equals("tomcat-nio") ? null : transport, null);
    }

    private static EmbeddedTomcat start(String transport, String tlsEngine) throws IOException {
        Connector connector = transport == null ? new Connector("HTTP/1.1") : new Connector(new PetrelHttp11Protocol());
        if (transport != null) connector.setProperty("transport", transport);
        if (tlsEngine != null) certificate.serveOn(connector, tlsEngine);
        return EmbeddedTomcat.create(connector)
                .parameter("org.apache.tomcat.websocket.textBufferSize", Integer.toString(MAX_MESSAGE))
                .parameter("org.apache.tomcat.websocket.binaryBufferSize", Integer.toString(MAX_MESSAGE))
                .listener(DeployEcho.class)
                .servlet("/raw", new RawEchoServlet())
                .start();
    }

    @ParameterizedTest
    @ValueSource(strings = {"tomcat-nio", "blocking", "virtual", "nio"})
    void jakartaWebSocketEchoesTextAndBinaryMessages(String transport) throws Exception {
        try (EmbeddedTomcat tomcat = start(transport)) {
            echoes(HttpClient.newHttpClient(), URI.create("ws://127.0.0.1:" + tomcat.port() + "/echo"));
        }
    }

    @ParameterizedTest
    @CsvSource({"blocking,jsse", "nio,jsse", "blocking,native", "nio,native"})
    void jakartaWebSocketEchoesOverTls(String transport, String engine) throws Exception {
        try (EmbeddedTomcat tomcat = start(transport, engine)) {
            PetrelHttp11Protocol protocol = (PetrelHttp11Protocol) tomcat.connector().getProtocolHandler();
            assertThat(protocol.getTlsEngineInUse()).startsWith(engine.equals("native") ? "BoringSSL" : "JSSE");
            echoes(HttpClient.newBuilder().sslContext(clientTls).build(), URI.create("wss://127.0.0.1:" + tomcat.port() + "/echo"));
        }
    }

    /** 50 text messages come back in order, then 1 MiB of binary whole; a close with 1000 reaches the endpoint. */
    private static void echoes(HttpClient http, URI uri) throws Exception {
        Echo.CLOSED.clear();
        WebSocketCollector collector = new WebSocketCollector();
        WebSocket ws = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5)).buildAsync(uri, collector)
                .get(10, TimeUnit.SECONDS);
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            String message = "message " + i + " " + "x".repeat(i * 37);
            sent.add(message);
            ws.sendText(message, true).get(5, TimeUnit.SECONDS);
        }
        List<Object> received = new ArrayList<>();
        for (int i = 0; i < 50; i++) received.add(next(collector));
        assertThat(received).isEqualTo(sent);

        byte[] big = new byte[1 << 20];
        new Random(41).nextBytes(big);
        ws.sendBinary(ByteBuffer.wrap(big), true).get(10, TimeUnit.SECONDS);
        assertThat((byte[]) next(collector)).isEqualTo(big);

        ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(5, TimeUnit.SECONDS);
        assertThat(Echo.CLOSED.poll(10, TimeUnit.SECONDS)).isEqualTo(1000);
        assertThat(collector.closed.get(10, TimeUnit.SECONDS)).isEqualTo(1000);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tomcat-nio", "blocking", "virtual", "nio"})
    void servletUpgradeHandlerEchoesBytesSentWithTheRequestAndAfter(String transport) throws Exception {
        try (EmbeddedTomcat tomcat = start(transport); Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", tomcat.port()), 5000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            // the first bytes of the new protocol ride in the same packet as the request
            out.write(("GET /raw HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\nearly bytes;")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            String head = readHead(in);
            assertThat(head).startsWith("HTTP/1.1 101 ").containsIgnoringCase("upgrade: echo");
            assertThat(new String(in.readNBytes("early bytes;".length()), StandardCharsets.ISO_8859_1)).isEqualTo("early bytes;");
            byte[] more = new byte[200_000];
            new Random(7).nextBytes(more);
            out.write(more);
            out.flush();
            assertThat(in.readNBytes(more.length)).isEqualTo(more);
            socket.shutdownOutput(); // the handler's onAllDataRead closes the connection
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    /**
     * Blocking reads without a read listener: in {@code init}, on the thread serving the
     * connection (which must read the socket itself: nobody else does while it runs), and then on
     * an application's thread while the connection waits.
     */
    @ParameterizedTest
    @ValueSource(strings = {"tomcat-nio", "blocking", "virtual", "nio"})
    void servletUpgradeHandlerReadsBlockingInInitAndOnItsOwnThread(String transport) throws Exception {
        try (EmbeddedTomcat tomcat = start(transport); Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", tomcat.port()), 5000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write("GET /raw?blocking HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            assertThat(readHead(in)).startsWith("HTTP/1.1 101 ");
            Thread.sleep(100); // init is waiting for its bytes by now
            out.write("init".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            assertThat(new String(in.readNBytes(4), StandardCharsets.ISO_8859_1)).isEqualTo("init");
            byte[] more = new byte[100_000];
            new Random(11).nextBytes(more);
            for (int offset = 0; offset < more.length; offset += 10_000) {
                out.write(more, offset, 10_000);
                out.flush();
                assertThat(in.readNBytes(10_000)).isEqualTo(Arrays.copyOfRange(more, offset, offset + 10_000));
                Thread.sleep(5); // the connection goes back to waiting between chunks
            }
            // The application's thread closing its WebConnection does not close the socket, through Tomcat's
            // connector or Petrel's: Tomcat's upgrade processor closes it on the next event it dispatches.
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"tomcat-nio", "blocking", "virtual", "nio"})
    void aClientThatVanishesEndsItsSession(String transport) throws Exception {
        try (EmbeddedTomcat tomcat = start(transport)) {
            int before = Echo.OPEN.get();
            Echo.CLOSED.clear();
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", tomcat.port()), 5000);
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write(("GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                        + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                assertThat(readHead(socket.getInputStream())).startsWith("HTTP/1.1 101 ")
                        .contains("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
                awaitOpen(before + 1); // the endpoint opens once the 101 is out, on the server's thread
            } // gone without a close frame
            assertThat(Echo.CLOSED.poll(10, TimeUnit.SECONDS)).isEqualTo(1006);
            assertThat(Echo.OPEN.get()).isEqualTo(before);
        }
    }

    /**
     * Catalina closes its sessions with 1001 when the webapp stops, before the connectors stop.
     * Tomcat's own NIO connector is left out: in one of three runs here its stop cut the connection first (1006).
     */
    @ParameterizedTest
    @ValueSource(strings = {"blocking", "virtual", "nio"})
    void stoppingTheServerClosesSessionsAsGoingAway(String transport) throws Exception {
        EmbeddedTomcat tomcat = start(transport);
        WebSocketCollector collector = new WebSocketCollector();
        try {
            HttpClient.newHttpClient().newWebSocketBuilder()
                    .buildAsync(URI.create("ws://127.0.0.1:" + tomcat.port() + "/echo"), collector).get(10, TimeUnit.SECONDS);
        } finally {
            tomcat.close();
        }
        assertThat(collector.closed.get(10, TimeUnit.SECONDS)).isEqualTo(1001);
    }

    @Test
    void anAjpRequestCannotUpgrade() {
        PetrelAjpProtocol ajp = new PetrelAjpProtocol();
        assertThat(ajp.carriesUpgrade()).isFalse();
        assertThat(new PetrelHttp11Protocol().carriesUpgrade()).isTrue();
    }

    private static void awaitOpen(int sessions) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (Echo.OPEN.get() != sessions && System.nanoTime() < deadline) Thread.sleep(10);
        assertThat(Echo.OPEN.get()).as("sessions open").isEqualTo(sessions);
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) break;
            head.write(b);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    /** The next whole message the client got, within 10 s. */
    private static Object next(WebSocketCollector collector) throws InterruptedException {
        Object message = collector.next(Duration.ofSeconds(10));
        assertThat(message).as("a message within 10 s").isNotNull();
        return message;
    }
}
