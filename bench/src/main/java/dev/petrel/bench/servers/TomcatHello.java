package dev.petrel.bench.servers;

import dev.petrel.tomcat.PetrelAjpProtocol;
import dev.petrel.tomcat.PetrelHttp11Protocol;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.Extension;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerContainer;
import jakarta.websocket.server.ServerEndpointConfig;
import java.io.IOException;
import java.io.Serial;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.coyote.ProtocolHandler;
import org.apache.coyote.ajp.AjpNio2Protocol;
import org.apache.coyote.ajp.AjpNioProtocol;
import org.apache.coyote.http2.Http2Protocol;
import org.apache.coyote.http11.Http11Nio2Protocol;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.apache.tomcat.websocket.server.WsSci;

/**
 * Embedded Tomcat with one servlet. Modes: {@code nio} (Http11NioProtocol), {@code nio2}
 * (Http11Nio2Protocol) and {@code virtual} (NIO with the connector's virtual-thread executor);
 * {@code petrel-blocking}, {@code petrel-virtual} and {@code petrel-nio}: Petrel's connector
 * ({@code PetrelHttp11Protocol}, {@code PetrelAjpProtocol}) on that transport, the same Catalina
 * and servlet above it, at its Tomcat-like defaults.
 * No access log, no JSP, no default servlet; the base folder is a temporary one. HTTPS, when the
 * lab asks for it, is a second connector of the same protocol and mode with an {@link SSLHostConfig}
 * holding the lab's PEM files (JSSE: Tomcat uses OpenSSL only with its native library or FFM
 * listener, neither of which is set up here).
 *
 * <p>AJP, when the lab asks for it ({@link LabAjp}), is a third connector, what server.xml's
 * {@code <Connector protocol="AJP/1.3" address="127.0.0.1" secret="...">} sets up: the AJP protocol
 * of the same mode ({@link AjpNioProtocol} for {@code nio} and {@code virtual}, the latter with
 * virtual threads, {@link AjpNio2Protocol} for {@code nio2}), with {@code address} and {@code secret}
 * set and everything else at Tomcat's defaults ({@code secretRequired=true}, {@code packetSize=8192},
 * {@code maxThreads=200}, {@code connectionTimeout} none). The servlet is the same one, so the
 * front end gets the same HelloWorld.
 *
 * <p>Connector settings are Tomcat's defaults, as its users get them (the lab's rule for every
 * peer): among them {@code maxKeepAliveRequests=100}, so a keep-alive client reconnects every 100
 * requests, and {@code maxThreads=200}.
 *
 * <p>Tomcat sends no reason phrase ({@code HTTP/1.1 200 }), and has no switch for one since 9.0.
 * h2load 1.52 counts such responses as "failed" with no status code, though they are complete 200s
 * ("errored" stays 0).
 *
 * <p>HTTP/2, when the lab asks for it ({@link LabH2}), is what server.xml's {@code <UpgradeProtocol
 * className="org.apache.coyote.http2.Http2Protocol"/>} inside each connector sets up, at its defaults: on
 * the HTTPS connector {@code h2} by ALPN (JSSE), on the HTTP one the {@code Upgrade: h2c} handshake and
 * prior knowledge (Tomcat takes the connection preface when the connector has Http2Protocol). On Petrel's
 * connector ({@code petrel-*} modes) the same element turns on Petrel's own HTTP/2: {@code h2} by ALPN, and
 * {@code h2c} with prior knowledge.
 *
 * <p>The WebSocket echo, when the lab asks for it ({@link LabWebSocket}), is Tomcat's Jakarta
 * WebSocket (tomcat-embed-websocket): its {@link WsSci} on the context, as a web application gets
 * it, and a programmatic {@link Endpoint} added to the {@link ServerContainer} at
 * {@value LabWebSocket#PATH}, whose configurator negotiates no extension (Tomcat would accept
 * {@code permessage-deflate} when offered). The endpoint echoes with {@link MessageHandler.Partial}
 * handlers, each part sent as it comes on the basic remote: Tomcat allocates a session's
 * message buffers whole when it opens (its binary buffer in bytes, its text buffer in chars), so a
 * 1 MiB limit with whole-message handlers would cost 3 MiB of heap per session, and 10,000 idle
 * sessions could never fit in the lab's heap. With partial handlers the buffers stay at Tomcat's
 * 8 KiB defaults and messages of any size are echoed: a message longer than a buffer goes back in
 * more frames than it came. On Petrel's connector the same endpoint runs over Petrel's HTTP upgrade.
 */
public final class TomcatHello {
    private TomcatHello() {}

    public static void main(String[] args) throws Exception {
        String usage = "TomcatHello PORT MODE (nio, nio2, virtual, petrel-blocking, petrel-virtual, petrel-nio)";
        int port = Hello.port(args, usage);
        String mode = Hello.mode(args, usage, "nio", "nio2", "virtual", "petrel-blocking", "petrel-virtual", "petrel-nio");
        Hello.quietLogging();
        byte[] page = Hello.page();

        Path base = Files.createTempDirectory("petrel-tomcat-");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteQuietly(base)));
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        tomcat.setSilent(true);

        Connector connector = connector(mode, port);
        tomcat.getService().addConnector(connector);
        tomcat.setConnector(connector);
        LabTls tls = LabTls.fromSystemProperty(port);
        Connector https = tls == null ? null : httpsConnector(mode, tls);
        if (https != null) tomcat.getService().addConnector(https);
        if (LabH2.fromSystemProperty()) {
            connector.addUpgradeProtocol(new Http2Protocol());
            if (https != null) https.addUpgradeProtocol(new Http2Protocol());
        }
        int ajpPort = LabAjp.portFromSystemProperty();
        if (ajpPort > 0) tomcat.getService().addConnector(ajpConnector(mode, ajpPort));

        Context context = tomcat.addContext("", base.toString());
        if (LabWebSocket.fromSystemProperty()) {
            // in this order: WsSci puts the ServerContainer into the context, then the echo is added to it
            context.addServletContainerInitializer(new WsSci(), null);
            context.addServletContainerInitializer(ADD_ECHO, null);
        }
        Tomcat.addServlet(context, "hello", new HelloServlet(page));
        context.addServletMappingDecoded("/", "hello");
        tomcat.start();
        Hello.runUntilTerminated("tomcat-" + mode, port, tls, ajpPort);
    }

    private static Connector connector(String mode, int port) {
        if (mode.startsWith("petrel-")) return petrel(new PetrelHttp11Protocol(), mode, port);
        String protocol = mode.equals("nio2") ? Http11Nio2Protocol.class.getName() : Http11NioProtocol.class.getName();
        Connector connector = new Connector(protocol);
        connector.setPort(port);
        set(connector, "address", Hello.HOST);
        if (mode.equals("virtual")) set(connector, "useVirtualThreads", "true");
        return connector;
    }

    /** What server.xml's {@code <Connector protocol="AJP/1.3">} sets up with an address and a secret. */
    private static Connector ajpConnector(String mode, int port) {
        if (mode.startsWith("petrel-")) {
            Connector connector = petrel(new PetrelAjpProtocol(), mode, port);
            set(connector, "secret", LabAjp.SECRET);
            return connector;
        }
        String protocol = mode.equals("nio2") ? AjpNio2Protocol.class.getName() : AjpNioProtocol.class.getName();
        Connector connector = new Connector(protocol);
        connector.setPort(port);
        set(connector, "address", Hello.HOST);
        set(connector, "secret", LabAjp.SECRET);
        if (mode.equals("virtual")) set(connector, "useVirtualThreads", "true");
        return connector;
    }

    /** What server.xml's {@code <Connector protocol="dev.petrel.tomcat.Petrel..." transport="...">} sets up. */
    private static Connector petrel(ProtocolHandler protocol, String mode, int port) {
        Connector connector = new Connector(protocol);
        connector.setPort(port);
        set(connector, "address", Hello.HOST);
        set(connector, "transport", mode.substring("petrel-".length()));
        return connector;
    }

    /** What server.xml's {@code <Connector SSLEnabled="true">} with one {@code <Certificate>} sets up. */
    private static Connector httpsConnector(String mode, LabTls tls) {
        Connector connector = connector(mode, tls.port());
        connector.setScheme("https");
        connector.setSecure(true);
        set(connector, "SSLEnabled", "true");
        SSLHostConfig host = new SSLHostConfig();
        SSLHostConfigCertificate certificate = new SSLHostConfigCertificate(host, SSLHostConfigCertificate.Type.EC);
        certificate.setCertificateFile(tls.certificatePem().toString());
        certificate.setCertificateKeyFile(tls.privateKeyPem().toString());
        host.addCertificate(certificate);
        connector.addSslHostConfig(host);
        return connector;
    }

    /** Sets a connector attribute as server.xml would, failing loudly on a name this Tomcat does not know. */
    private static void set(Connector connector, String name, String value) {
        if (!connector.setProperty(name, value)) {
            throw new IllegalStateException("Tomcat connector attribute not accepted: " + name + "=" + value);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary folder left behind is harmless
        }
    }

    /** Adds the echo endpoint to the context's WebSocket container, which {@link WsSci} made. */
    private static final ServletContainerInitializer ADD_ECHO = (classes, servletContext) -> {
        ServerContainer container = (ServerContainer) servletContext.getAttribute(ServerContainer.class.getName());
        try {
            container.addEndpoint(ServerEndpointConfig.Builder.create(EchoEndpoint.class, LabWebSocket.PATH)
                    .configurator(new NoExtensions()).build());
        } catch (jakarta.websocket.DeploymentException e) {
            throw new IllegalStateException("the WebSocket echo could not be deployed", e);
        }
    };

    /** The default configurator, except that it accepts none of the extensions a client offers. */
    public static final class NoExtensions extends ServerEndpointConfig.Configurator {
        @Override
        public List<Extension> getNegotiatedExtensions(List<Extension> installed, List<Extension> requested) {
            return List.of();
        }
    }

    /** Sends every message back as it arrives, part by part: text as text, binary as binary. */
    public static final class EchoEndpoint extends Endpoint {
        @Override
        public void onOpen(Session session, EndpointConfig config) {
            RemoteEndpoint.Basic remote = session.getBasicRemote();
            session.addMessageHandler(String.class, (MessageHandler.Partial<String>) (text, last) -> {
                try {
                    remote.sendText(text, last);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            session.addMessageHandler(ByteBuffer.class, (MessageHandler.Partial<ByteBuffer>) (bytes, last) -> {
                try {
                    remote.sendBinary(bytes, last);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    /** Answers every method: the page on /page, HelloWorld elsewhere. */
    private static final class HelloServlet extends HttpServlet {
        @Serial
        private static final long serialVersionUID = 1L;
        private final byte[] page;

        HelloServlet(byte[] page) {
            this.page = page;
        }

        @Override
        protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
            boolean isPage = Hello.PAGE_PATH.equals(request.getRequestURI());
            byte[] body = isPage ? page : Hello.HELLO;
            response.setStatus(200);
            response.setContentType(isPage ? Hello.HTML_TYPE : Hello.TEXT_TYPE);
            response.setContentLength(body.length);
            response.getOutputStream().write(body);
        }
    }
}
