package dev.petrel.bench.servers;

import io.helidon.webserver.ListenerConfig;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.common.buffers.BufferData;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.websocket.WsConfig;
import io.helidon.webserver.websocket.WsRouting;
import io.helidon.websocket.WsListener;
import io.helidon.websocket.WsSession;
import java.util.function.Consumer;

/**
 * Helidon SE 4 (virtual thread per connection) with two routes: the page, and everything else.
 * HTTPS, when the lab asks for it, is a second, named listener with the same routes and a TLS
 * configuration built on a JSSE context with the JDK's defaults.
 *
 * <p>Helidon 4 serves HTTP/1.1 only: an HTTP/1.0 request, which is all ab sends, gets
 * {@code 505 HTTP Version Not Supported} and a closed connection, by design (helidon #9648). Measure
 * it with wrk or h2load. Also seen with 4.5.0: after answering a request that carried
 * {@code Connection: close} it sends {@code Connection: close} but leaves the connection open.
 *
 * <p>HTTP/2 is Helidon's module helidon-webserver-http2, which it finds by ServiceLoader on the lab's class
 * path. When the lab asks for it ({@link LabH2}) both listeners discover their protocols as Helidon does by
 * default, so HTTP/2 joins HTTP/1.1: prior knowledge and the {@code Upgrade: h2c} handshake on HTTP,
 * {@code h2} by ALPN on HTTPS. Without the property each listener is given HTTP/1.1 alone, with discovery
 * off, so that the module being on the class path changes nothing in the other scenarios.
 *
 * <p>The WebSocket echo, when the lab asks for it ({@link LabWebSocket}), is Helidon's module
 * helidon-webserver-websocket, an HTTP/1.1 upgrade: a {@link WsRouting} with one endpoint at
 * {@value LabWebSocket#PATH} whose {@link WsListener} sends back each part of a message as it comes
 * (Helidon hands a listener a message's frames as they arrive, each with its {@code last} flag, and
 * sends them the same way), on the connection's virtual thread. The listener is given the
 * protocol's configuration with frames up to 1 MiB (Helidon limits frames, not messages); Helidon
 * negotiates no extension. Seen with 4.5.0 and left as its users get it: Helidon keeps Nagle's
 * algorithm on ({@code SocketOptions.tcpNoDelay} defaults to false), so the last piece of a 64 KiB
 * echo, written in several, waits for the client's delayed ACK: about 44 ms a round trip, 2.5 ms
 * with {@code tcpNoDelay(true)}. The HelloWorld answers go out in one write and never wait.
 */
public final class HelidonHello {
    private HelidonHello() {}

    public static void main(String[] args) throws Exception {
        int port = Hello.port(args, "HelidonHello PORT");
        Hello.quietLogging();
        byte[] page = Hello.page();
        Consumer<HttpRouting.Builder> routes = routing -> routing
                .any(Hello.PAGE_PATH, (request, response) -> {
                    response.header("Content-Type", Hello.HTML_TYPE);
                    response.send(page);
                })
                .any((request, response) -> {
                    response.header("Content-Type", Hello.TEXT_TYPE);
                    response.send(Hello.HELLO);
                });

        boolean h2 = LabH2.fromSystemProperty();
        boolean webSocket = LabWebSocket.fromSystemProperty();
        WebServerConfig.Builder server = WebServer.builder()
                .host(Hello.HOST)
                .port(port)
                .routing(routes);
        if (!h2) http1Only(server);
        if (webSocket) {
            server.addProtocol(WsConfig.builder().maxFrameLength(LabWebSocket.MAX_MESSAGE_BYTES).build())
                    .addRouting(WsRouting.builder().endpoint(LabWebSocket.PATH, new EchoListener()));
        }
        LabTls tls = LabTls.fromSystemProperty(port);
        if (tls != null) {
            server.putSocket("https", socket -> {
                if (!h2) http1Only(socket);
                socket.host(Hello.HOST)
                        .port(tls.port())
                        .tls(t -> t.sslContext(tls.sslContext()))
                        .routing(routes);
            });
        }
        server.build().start();
        Hello.runUntilTerminated("helidon", port, tls);
    }

    /** Sends back each part of every message as it came: text as text, binary as binary. */
    private static final class EchoListener implements WsListener {
        @Override
        public void onMessage(WsSession session, String text, boolean last) {
            session.send(text, last);
        }

        @Override
        public void onMessage(WsSession session, BufferData bytes, boolean last) {
            session.send(bytes, last);
        }
    }

    /** HTTP/1.1 alone on {@code listener}, with the protocols on the class path not discovered. */
    private static void http1Only(ListenerConfig.BuilderBase<?, ?> listener) {
        listener.protocolsDiscoverServices(false).addProtocol(Http1Config.create());
    }
}
