package dev.petrel.bench.servers;

import dev.petrel.server.config.AjpConfig;
import dev.petrel.server.Handler;
import dev.petrel.server.config.Http2Config;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.server.WebSocketHandler;
import dev.petrel.server.WebSocketListener;
import dev.petrel.server.WebSocketMessage;
import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TransportKind;
import dev.petrel.server.config.WebSocketConfig;
import java.util.Arrays;

/**
 * Petrel's own server and router on the transport named on the command line; with the argument
 * {@code inline}, the handlers are marked non-blocking, which the {@code nio} transport runs on its
 * event loops instead of on virtual threads. HTTPS, when the lab asks for it, is
 * {@code Server.Builder.https} with the lab's PEM files and {@link TlsConfig}'s defaults, on the TLS
 * engine the argument {@code tls-engine=NAME} names ({@link TlsConfig#JSSE} without it;
 * {@link TlsConfig#NATIVE} is BoringSSL, from {@code petrel-tls-native} on the lab's class path).
 * The engine is named on the command line rather than left to the {@value TlsConfig#ENGINE_PROPERTY}
 * property, so that the lab's command says which engine a server runs. AJP, when
 * the lab asks for it ({@link LabAjp}), is {@code Server.Builder.ajp} on the same transport and
 * handler with {@code AjpConfig.withSecret} and its defaults otherwise (127.0.0.1, 8 KiB packets,
 * no idle timeout). HTTP/2, when the lab asks for it ({@link LabH2}), is
 * {@code Server.Builder.http2(Http2Config.ENABLED.withClearText(true))}: {@code h2} by ALPN on HTTPS, prior
 * knowledge on HTTP, Petrel's HTTP/2 defaults otherwise. The WebSocket echo, when the lab asks for
 * it ({@link LabWebSocket}), is a {@code Router.Builder.websocket} route whose handler echoes each
 * message it receives, as the demo site's {@code /ws/echo} does, with {@code permessage-deflate}
 * off and Petrel's WebSocket defaults otherwise. Without {@code inline} it is a blocking
 * {@code WebSocketHandler}: a session runs on a thread of its own (a virtual thread on {@code
 * virtual} and {@code nio}); with it, a {@code WebSocketListener}, which {@code nio} calls inline on
 * its event loops, as the HTTP handlers marked non-blocking are.
 */
public final class PetrelHello {
    /** The argument that names the TLS engine, e.g. {@code tls-engine=native}. */
    static final String ENGINE_ARGUMENT = "tls-engine=";

    /** Sends every message back as it came: text as text, binary as binary. */
    private static final WebSocketHandler ECHO = socket -> {
        for (WebSocketMessage message; (message = socket.receive()) != null; ) {
            switch (message) {
                case WebSocketMessage.Text text -> socket.sendText(text.text());
                case WebSocketMessage.Binary binary -> socket.sendBinary(binary.bytes());
            }
        }
    };

    /** The same echo as a listener, called back with each message: inline on {@code nio}'s event loops. */
    private static final WebSocketListener ECHO_INLINE = (socket, message) -> {
        switch (message) {
            case WebSocketMessage.Text text -> socket.sendText(text.text());
            case WebSocketMessage.Binary binary -> socket.sendBinary(binary.bytes());
        }
    };

    private PetrelHello() {}

    public static void main(String[] args) throws Exception {
        String usage = "PetrelHello PORT TRANSPORT (" + TransportKind.names() + ") [inline] [" + ENGINE_ARGUMENT + "NAME]";
        int port = Hello.port(args, usage);
        if (args.length < 2) {
            System.err.println("usage: " + usage);
            System.exit(2);
        }
        TransportKind transport = TransportKind.fromCliName(args[1]);
        boolean inline = false;
        String engine = TlsConfig.JSSE;
        for (String option : Arrays.asList(args).subList(2, args.length)) {
            if (option.equals("inline")) {
                inline = true;
            } else if (option.startsWith(ENGINE_ARGUMENT)) {
                engine = option.substring(ENGINE_ARGUMENT.length());
            } else {
                System.err.println("unknown argument '" + option + "'; usage: " + usage);
                System.exit(2);
            }
        }
        Hello.quietLogging();
        byte[] page = Hello.page();
        Handler pageHandler = (request, response) -> response.contentType(Hello.HTML_TYPE).send(page);
        Handler hello = (request, response) -> response.contentType(Hello.TEXT_TYPE).send(Hello.HELLO);
        Router.Builder routes = Router.builder().route("*", Hello.PAGE_PATH, pageHandler);
        if (LabWebSocket.fromSystemProperty()) {
            WebSocketConfig echoConfig = WebSocketConfig.DEFAULT.withMaxMessageSize(LabWebSocket.MAX_MESSAGE_BYTES)
                    .withCompression(false);
            if (inline) routes.websocket(LabWebSocket.PATH, echoConfig, ECHO_INLINE);
            else routes.websocket(LabWebSocket.PATH, echoConfig, ECHO);
        }
        Router router = routes.fallback(hello).build();
        LabTls tls = LabTls.fromSystemProperty(port);
        Server.Builder server = Server.builder()
                .host(Hello.HOST)
                .port(port)
                .transport(transport)
                .handler(inline ? Handler.nonBlocking(router) : router);
        if (tls != null) {
            server.https(tls.port(), TlsConfig.builder().pem(tls.certificatePem(), tls.privateKeyPem()).engine(engine).build());
        }
        // without the lab asking, HTTP/1.1 only, as the peers are set up: HTTPS offers no h2 by ALPN
        server.http2(LabH2.fromSystemProperty() ? Http2Config.ENABLED.withClearText(true) : Http2Config.DISABLED);
        int ajpPort = LabAjp.portFromSystemProperty();
        if (ajpPort > 0) server.ajp(ajpPort, AjpConfig.withSecret(LabAjp.SECRET));
        Server started = server.start();
        // the lab's name for it: the native engine's servers are petrel-nio-native and the like
        String name = "petrel-" + transport.cliName() + (inline ? "-inline" : "") + (engine.equals(TlsConfig.JSSE) ? "" : "-" + engine);
        // the log says which engine serves HTTPS, as Petrel itself describes it
        Hello.runUntilTerminated(tls == null ? name : name + " (TLS engine: " + started.tlsEngine() + ")", port, tls, ajpPort);
    }
}
