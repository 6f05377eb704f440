package dev.petrel.bench.soak;

import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerContainer;
import jakarta.websocket.server.ServerEndpointConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serial;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.servlets.DefaultServlet;
import org.apache.catalina.startup.Tomcat;
import org.apache.coyote.ajp.AjpNioProtocol;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.coyote.http2.Http2Protocol;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.apache.tomcat.websocket.server.WsSci;

/**
 * The Tomcat anchor of the soak scenario: an embedded Apache Tomcat on its own NIO connectors
 * ({@link Http11NioProtocol}, {@link AjpNioProtocol}) serving the same contract as the Petrel soak
 * server ({@link SoakContent}), so that the same long-running traffic can be sent to both and any
 * difference (errors, leaks, growth) shows up against a known-good server.
 *
 * <p>Arguments: the ports of {@link SoakPorts#arguments()} ({@code --plain}, {@code --tls-jsse},
 * {@code --ajp}; Tomcat serves no {@code --tls-native}, {@code --proxy} or {@code --admin}), plus
 * {@code --files DIR} (written by {@link SoakContent#writeFiles}), {@code --cert PEM --key PEM}
 * (the TLS certificate and its PKCS#8 key) and {@code --max-connections N}.
 *
 * <ul>
 *   <li>plain port: HTTP/1.1, and h2c (prior knowledge or {@code Upgrade}) through {@link Http2Protocol};</li>
 *   <li>TLS port: JSSE with the PEM files, HTTP/1.1 and h2 by ALPN;</li>
 *   <li>AJP port: AJP/1.3 without a secret, for httpd's mod_jk on the same host.</li>
 * </ul>
 *
 * <p>Everything else is left at Tomcat's defaults, as its users get them. Prints {@code
 * soak-tomcat: started} once every connector listens, and stops Tomcat on SIGTERM.
 */
public final class SoakTomcat {
    private static final String HOST = "127.0.0.1";
    private static final String WS_PATH = "/ws/echo";
    private static final String FILES_PATH = "/files";
    private static final String USAGE = "SoakTomcat --plain P --tls-jsse P --ajp P --files DIR --cert PEM --key PEM --max-connections N";

    private SoakTomcat() {}

    public static void main(String[] args) throws Exception {
        List<String> arguments = List.of(args);
        SoakPorts ports = SoakPorts.parse(arguments);
        if (ports.tlsNative() > 0 || ports.proxy() > 0 || ports.admin() > 0) {
            // traffic sent there would find nobody listening: better to fail now than hours into the soak
            throw new IllegalArgumentException("Tomcat serves no --tls-native, --proxy or --admin port; " + USAGE);
        }
        Path files = Path.of(required(arguments, "--files"));
        int maxConnections = SoakPorts.find(arguments, "--max-connections");
        quietLogging();

        Path base = Files.createTempDirectory("soak-tomcat-");
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        tomcat.setSilent(true);

        List<Connector> connectors = new ArrayList<>();
        if (ports.plain() > 0) connectors.add(http(ports.plain(), maxConnections));
        if (ports.tlsJsse() > 0) {
            connectors.add(https(ports.tlsJsse(), maxConnections,
                    Path.of(required(arguments, "--cert")), Path.of(required(arguments, "--key"))));
        }
        if (ports.ajp() > 0) connectors.add(ajp(ports.ajp()));
        if (connectors.isEmpty()) throw new IllegalArgumentException("no port to listen on; " + USAGE);
        for (Connector connector : connectors) tomcat.getService().addConnector(connector);
        // otherwise getConnector() would add a default HTTP connector on 8080
        tomcat.setConnector(connectors.getFirst());

        addRootContext(tomcat, base);
        addFilesContext(tomcat, files);

        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(tomcat, base), "soak-tomcat-stop"));
        tomcat.start();
        for (Connector connector : connectors) {
            // a port that could not be bound leaves its connector FAILED while Tomcat carries on
            if (connector.getState() != LifecycleState.STARTED || connector.getLocalPort() <= 0) {
                System.err.println("soak-tomcat: connector on port " + connector.getPort() + " is not listening");
                System.exit(1);
            }
        }
        System.out.println("soak-tomcat: started");
        System.out.flush();
        Thread.currentThread().join(); // until SIGTERM, which runs the shutdown hook
    }

    /** HTTP/1.1 and h2c on NIO, with gzip for the text file. */
    private static Connector http(int port, int maxConnections) {
        Connector connector = new Connector(Http11NioProtocol.class.getName());
        connector.setPort(port);
        set(connector, "address", HOST);
        if (maxConnections > 0) set(connector, "maxConnections", Integer.toString(maxConnections));
        // only the HTML page is worth compressing; it is about 120 KiB, far above compressionMinSize (2 KiB)
        set(connector, "compression", "on");
        set(connector, "compressibleMimeType", "text/html");
        set(connector, "compressionMinSize", "2048");
        // with Http2Protocol Tomcat also takes the h2 connection preface (prior knowledge), not only Upgrade: h2c
        connector.addUpgradeProtocol(new Http2Protocol());
        return connector;
    }

    /** {@link #http} with JSSE and the PEM pair; Http2Protocol then offers h2 by ALPN. */
    private static Connector https(int port, int maxConnections, Path cert, Path key) {
        Connector connector = http(port, maxConnections);
        connector.setScheme("https");
        connector.setSecure(true);
        set(connector, "SSLEnabled", "true");
        SSLHostConfig host = new SSLHostConfig();
        // UNDEFINED: whatever key type the PEM holds (the soak's may be RSA or EC)
        SSLHostConfigCertificate certificate = new SSLHostConfigCertificate(host, SSLHostConfigCertificate.Type.UNDEFINED);
        certificate.setCertificateFile(cert.toAbsolutePath().toString());
        certificate.setCertificateKeyFile(key.toAbsolutePath().toString());
        host.addCertificate(certificate);
        connector.addSslHostConfig(host);
        return connector;
    }

    /** AJP/1.3 on NIO for mod_jk, which sends no secret: only reachable from this host. */
    private static Connector ajp(int port) {
        Connector connector = new Connector(AjpNioProtocol.class.getName());
        connector.setPort(port);
        set(connector, "address", HOST);
        set(connector, "secretRequired", "false");
        return connector;
    }

    /** Sets an attribute as server.xml would, failing loudly on one this Tomcat does not know. */
    private static void set(Connector connector, String name, String value) {
        if (!connector.setProperty(name, value)) {
            throw new IllegalStateException("Tomcat connector attribute not accepted: " + name + "=" + value);
        }
    }

    /** The context at "": /ping, /download, /upload and the WebSocket echo. */
    private static void addRootContext(Tomcat tomcat, Path base) {
        Context context = tomcat.addContext("", base.toString());
        Tomcat.addServlet(context, "ping", new PingServlet());
        context.addServletMappingDecoded("/ping", "ping");
        Tomcat.addServlet(context, "download", new DownloadServlet());
        context.addServletMappingDecoded("/download", "download");
        Tomcat.addServlet(context, "upload", new UploadServlet());
        context.addServletMappingDecoded("/upload", "upload");
        // Tomcat runs a context's filters only for a request mapped to a servlet, and the WebSocket
        // handshake is done by WsSci's filter: without a servlet at "/", /ws/echo would be a 404
        Tomcat.addServlet(context, "not-found", new NotFoundServlet());
        context.addServletMappingDecoded("/", "not-found");
        // WsSci first: it puts the ServerContainer into the servlet context, where the echo is added
        context.addServletContainerInitializer(new WsSci(), null);
        context.addServletContainerInitializer(ADD_ECHO, null);
    }

    /**
     * A context at /files over the files folder, served by Tomcat's own DefaultServlet (ranges,
     * conditional requests, no listings), so /files/data.bin is DIR/data.bin.
     */
    private static void addFilesContext(Tomcat tomcat, Path files) {
        Context context = tomcat.addContext(FILES_PATH, files.toAbsolutePath().toString());
        // addContext, unlike addWebapp, knows no MIME types: page.html needs text/html to be compressed
        Tomcat.addDefaultMimeTypeMappings(context);
        Wrapper servlet = Tomcat.addServlet(context, "default", new DefaultServlet());
        servlet.addInitParameter("listings", "false");
        // Tomcat sends files above 48 KiB with sendfile on NIO, and sendfile wins over compression:
        // the page would then never be gzipped
        servlet.addInitParameter("sendfileSize", "-1");
        context.addServletMappingDecoded("/", "default");
    }

    private static void stop(Tomcat tomcat, Path base) {
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (Exception e) {
            System.err.println("soak-tomcat: stop failed: " + e);
        }
        try (Stream<Path> paths = Files.walk(base)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary folder left behind does no harm
        }
    }

    /** Warnings and errors only: a soak runs for hours, and Tomcat's INFO lines say nothing new. */
    private static void quietLogging() {
        Logger root = Logger.getLogger("");
        root.setLevel(Level.WARNING);
        for (Handler handler : root.getHandlers()) handler.setLevel(Level.WARNING);
    }

    private static String required(List<String> args, String name) {
        int i = args.indexOf(name);
        if (i < 0 || i + 1 >= args.size()) throw new IllegalArgumentException("missing " + name + "; " + USAGE);
        return args.get(i + 1);
    }

    private static void text(HttpServletResponse response, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType("text/plain;charset=UTF-8");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    /** {@code GET /ping}: 200 {@code pong}. */
    private static final class PingServlet extends HttpServlet {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            text(response, 200, "pong");
        }
    }

    /** Every path of the context that no other servlet serves. */
    private static final class NotFoundServlet extends HttpServlet {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
            response.sendError(404);
        }
    }

    /** {@code GET /download?size=N&seed=S}: the N bytes of {@link SoakContent#bytes}. */
    private static final class DownloadServlet extends HttpServlet {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            String query = request.getQueryString();
            long size = SoakContent.parameter(query, "size");
            long seed = SoakContent.parameter(query, "seed");
            if (size < 0 || size > SoakContent.MAX_BODY || seed < 0) {
                text(response, 400, "size (0.." + SoakContent.MAX_BODY + ") and seed wanted");
                return;
            }
            byte[] body = SoakContent.bytes(seed, (int) size);
            response.setStatus(200);
            response.setContentType("application/octet-stream");
            response.setContentLength(body.length);
            response.getOutputStream().write(body);
        }
    }

    /**
     * {@code POST /upload}: the body's SHA-256, computed as it streams in. An I/O error while
     * reading (the client reset or cut its chunked body short) propagates, so Tomcat answers or
     * closes as it does for any broken request, and never with a 200.
     */
    private static final class UploadServlet extends HttpServlet {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
            if (request.getContentLengthLong() > SoakContent.MAX_BODY) {
                text(response, 413, "body above " + SoakContent.MAX_BODY + " bytes");
                return;
            }
            MessageDigest digest = SoakContent.digest();
            byte[] buffer = new byte[16 * 1024];
            long total = 0;
            try (InputStream in = request.getInputStream()) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    total += n;
                    // a chunked body announces no length: count it
                    if (total > SoakContent.MAX_BODY) {
                        text(response, 413, "body above " + SoakContent.MAX_BODY + " bytes");
                        return;
                    }
                    digest.update(buffer, 0, n);
                }
            }
            String read = HexFormat.of().formatHex(digest.digest());
            if (read.equalsIgnoreCase(request.getHeader(SoakContent.DIGEST_HEADER))) {
                text(response, 200, read);
            } else {
                text(response, 422, "digest mismatch: read " + total + " bytes with SHA-256 " + read);
            }
        }
    }

    /** Adds the echo endpoint to the ServerContainer that {@link WsSci} put in the servlet context. */
    private static final ServletContainerInitializer ADD_ECHO = (classes, servletContext) -> {
        ServerContainer container = (ServerContainer) servletContext.getAttribute(ServerContainer.class.getName());
        try {
            container.addEndpoint(ServerEndpointConfig.Builder.create(EchoEndpoint.class, WS_PATH).build());
        } catch (DeploymentException e) {
            throw new IllegalStateException("cannot deploy the WebSocket echo at " + WS_PATH, e);
        }
    };

    /**
     * Sends every message back as it came: text as text, binary as binary. Partial handlers, each
     * part echoed as it arrives, so messages of 1 MiB (and more) pass with Tomcat's 8 KiB message
     * buffers: whole-message handlers would need the buffers raised to 1 MiB, which Tomcat
     * allocates for every session when it opens (1 MiB of bytes and 1 Mi chars), idle or not.
     */
    public static final class EchoEndpoint extends Endpoint {
        @Override
        public void onOpen(Session session, EndpointConfig config) {
            RemoteEndpoint.Basic remote = session.getBasicRemote();
            session.addMessageHandler(String.class, (MessageHandler.Partial<String>) (part, last) -> {
                try {
                    remote.sendText(part, last);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            session.addMessageHandler(ByteBuffer.class, (MessageHandler.Partial<ByteBuffer>) (part, last) -> {
                try {
                    remote.sendBinary(part, last);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
