package dev.petrel.bench.servers;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.websocket.core.CloseStatus;
import org.eclipse.jetty.websocket.core.Configuration;
import org.eclipse.jetty.websocket.core.CoreSession;
import org.eclipse.jetty.websocket.core.Frame;
import org.eclipse.jetty.websocket.core.FrameHandler;
import org.eclipse.jetty.websocket.core.OpCode;
import org.eclipse.jetty.websocket.core.server.WebSocketUpgradeHandler;

/**
 * Jetty 12 with a core {@link Handler.Abstract} (no servlet), on the default thread pool. The one
 * change from the defaults: no {@code Server: Jetty(...)} header, so that the headers match the
 * other servers'. HTTPS, when the lab asks for it, is a second connector as Jetty's documentation
 * builds one: {@link SslConnectionFactory} (JSSE, Jetty's default protocols and cipher exclusions)
 * in front of HTTP/1.1, with a {@link SecureRequestCustomizer}.
 *
 * <p>HTTP/2, when the lab asks for it ({@link LabH2}), as Jetty's documentation sets it up: the HTTP
 * connector gets an {@link HTTP2CServerConnectionFactory} after HTTP/1.1 (prior knowledge, and the
 * {@code Upgrade: h2c} handshake), the HTTPS one {@link ALPNServerConnectionFactory} (jetty-alpn-java-server:
 * the JDK's own ALPN) choosing between {@link HTTP2ServerConnectionFactory} and HTTP/1.1, HTTP/1.1 the
 * default; Jetty's HTTP/2 defaults otherwise.
 *
 * <p>The WebSocket echo, when the lab asks for it ({@link LabWebSocket}), is Jetty's core WebSocket
 * (jetty-websocket-core-server, the lightest of Jetty's own: no servlet, no annotations, no
 * message API): a {@link WebSocketUpgradeHandler} in front of the HelloWorld handler, mapping
 * {@value LabWebSocket#PATH} to a {@link FrameHandler} that sends each data frame back as it came
 * (opcode and FIN kept, so a fragmented message returns fragmented), with the frame and message
 * limits raised to 1 MiB (Jetty's default frame limit is 64 KiB) and no extension accepted. Jetty
 * answers pings and the close handshake itself.
 */
public final class JettyHello {
    private JettyHello() {}

    public static void main(String[] args) throws Exception {
        int port = Hello.port(args, "JettyHello PORT");
        Hello.quietLogging();
        byte[] page = Hello.page();

        Server server = new Server();
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        boolean h2 = LabH2.fromSystemProperty();
        ServerConnector connector = h2
                ? new ServerConnector(server, new HttpConnectionFactory(http), new HTTP2CServerConnectionFactory(http))
                : new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setHost(Hello.HOST);
        connector.setPort(port);
        server.addConnector(connector);
        LabTls tls = LabTls.fromSystemProperty(port);
        if (tls != null) server.addConnector(httpsConnector(server, http, tls, h2));
        Handler hello = new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                boolean isPage = Hello.PAGE_PATH.equals(request.getHttpURI().getPath());
                byte[] body = isPage ? page : Hello.HELLO;
                response.setStatus(200);
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, isPage ? Hello.HTML_TYPE : Hello.TEXT_TYPE);
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
                response.write(true, ByteBuffer.wrap(body), callback);
                return true;
            }
        };
        server.setHandler(LabWebSocket.fromSystemProperty() ? echoInFrontOf(hello) : hello);
        server.start();
        Hello.runUntilTerminated("jetty", port, tls);
    }

    /** The WebSocket echo at {@value LabWebSocket#PATH}; every other request goes on to {@code next}. */
    private static Handler echoInFrontOf(Handler next) {
        WebSocketUpgradeHandler upgrade = new WebSocketUpgradeHandler();
        Configuration limits = upgrade.getConfiguration();
        limits.setMaxFrameSize(LabWebSocket.MAX_MESSAGE_BYTES);
        limits.setMaxTextMessageSize(LabWebSocket.MAX_MESSAGE_BYTES);
        limits.setMaxBinaryMessageSize(LabWebSocket.MAX_MESSAGE_BYTES);
        upgrade.addMapping(LabWebSocket.PATH, (request, response, callback) -> {
            response.setExtensions(List.of()); // no permessage-deflate, whatever the client offers
            return new EchoFrames();
        });
        upgrade.setHandler(next);
        return upgrade;
    }

    /**
     * Sends every data frame back unchanged but unmasked. Jetty lends the payload until the frame's
     * callback completes, so the callback completes when the echo has been written, and only then
     * is the next frame asked for ({@link CoreSession#demand()}): one frame in flight per session.
     */
    private static final class EchoFrames implements FrameHandler {
        private CoreSession session;

        @Override
        public void onOpen(CoreSession coreSession, Callback callback) {
            session = coreSession;
            callback.succeeded();
            session.demand();
        }

        @Override
        public void onFrame(Frame frame, Callback callback) {
            if (!frame.isDataFrame()) {
                // pings and the close are answered by Jetty once the callback completes
                callback.succeeded();
                if (frame.getOpCode() != OpCode.CLOSE) session.demand();
                return;
            }
            Frame echo = new Frame(frame.getOpCode(), frame.isFin(),
                    frame.hasPayload() ? frame.getPayload() : BufferUtil.EMPTY_BUFFER);
            session.sendFrame(echo, Callback.from(() -> {
                callback.succeeded();
                session.demand();
            }, callback::failed), false);
        }

        @Override
        public void onError(Throwable cause, Callback callback) {
            callback.succeeded();
        }

        @Override
        public void onClosed(CloseStatus closeStatus, Callback callback) {
            callback.succeeded();
        }
    }

    private static ServerConnector httpsConnector(Server server, HttpConfiguration http, LabTls tls, boolean h2) {
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStorePath(tls.pkcs12().toString());
        ssl.setKeyStoreType("PKCS12");
        ssl.setKeyStorePassword(new String(tls.password()));
        HttpConfiguration https = new HttpConfiguration(http);
        https.addCustomizer(new SecureRequestCustomizer());
        HttpConnectionFactory http11 = new HttpConnectionFactory(https);
        List<ConnectionFactory> factories = new ArrayList<>();
        if (h2) {
            ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory();
            alpn.setDefaultProtocol(http11.getProtocol());
            factories.addAll(List.of(new SslConnectionFactory(ssl, alpn.getProtocol()), alpn,
                    new HTTP2ServerConnectionFactory(https), http11));
        } else {
            factories.addAll(List.of(new SslConnectionFactory(ssl, http11.getProtocol()), http11));
        }
        ServerConnector connector = new ServerConnector(server, factories.toArray(ConnectionFactory[]::new));
        connector.setHost(Hello.HOST);
        connector.setPort(tls.port());
        return connector;
    }
}
