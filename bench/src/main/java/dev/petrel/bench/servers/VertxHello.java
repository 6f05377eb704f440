package dev.petrel.bench.servers;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.PemKeyCertOptions;

/**
 * Vert.x with one HttpServer on the default event loops. The bodies are Buffers made once. HTTPS,
 * when the lab asks for it, is a second HttpServer with {@code ssl} on and the lab's PEM files
 * (Vert.x's default engine: the JDK's; it takes OpenSSL only when the JDK cannot do ALPN, so
 * netty-tcnative on the lab's class path leaves it on JSSE).
 *
 * <p>HTTP/2, when the lab asks for it ({@link LabH2}): {@code setUseAlpn(true)} on the HTTPS server, so that
 * it offers {@code h2} before {@code http/1.1}, and {@code setHttp2ClearTextEnabled(true)} on the HTTP one
 * (prior knowledge and the {@code Upgrade: h2c} handshake), which is Vert.x's default anyway: the HTTP
 * server is the same with or without the property.
 *
 * <p>The WebSocket echo, when the lab asks for it ({@link LabWebSocket}), on the HTTP server: a
 * {@code webSocketHandshakeHandler} that accepts the handshake on {@value LabWebSocket#PATH} and
 * rejects it elsewhere, and a {@code webSocketHandler} whose {@code textMessageHandler} and
 * {@code binaryMessageHandler} write each whole message back, on the connection's event loop.
 * Frames and messages up to 1 MiB (Vert.x's defaults: 64 KiB frames, 256 KiB messages), and
 * {@code permessage-deflate} and {@code deflate-frame} not supported (Vert.x's default is to accept
 * them when offered), so none is negotiated.
 */
public final class VertxHello {
    private VertxHello() {}

    public static void main(String[] args) throws Exception {
        int port = Hello.port(args, "VertxHello PORT");
        Hello.quietLogging();
        Buffer page = Buffer.buffer(Hello.page());
        Buffer hello = Buffer.buffer(Hello.HELLO);
        Handler<HttpServerRequest> handler = request -> {
            boolean isPage = Hello.PAGE_PATH.equals(request.path());
            request.response()
                    .putHeader("Content-Type", isPage ? Hello.HTML_TYPE : Hello.TEXT_TYPE)
                    .end(isPage ? page : hello);
        };

        Vertx vertx = Vertx.vertx();
        boolean h2 = LabH2.fromSystemProperty();
        HttpServerOptions http = new HttpServerOptions();
        if (h2) http.setHttp2ClearTextEnabled(true);
        if (LabWebSocket.fromSystemProperty()) {
            http.setMaxWebSocketFrameSize(LabWebSocket.MAX_MESSAGE_BYTES)
                    .setMaxWebSocketMessageSize(LabWebSocket.MAX_MESSAGE_BYTES)
                    .setPerMessageWebSocketCompressionSupported(false)
                    .setPerFrameWebSocketCompressionSupported(false);
            HttpServer server = vertx.createHttpServer(http)
                    .requestHandler(handler)
                    .webSocketHandshakeHandler(handshake -> {
                        if (LabWebSocket.PATH.equals(handshake.path())) handshake.accept();
                        else handshake.reject(404);
                    })
                    .webSocketHandler(VertxHello::echo);
            server.listen(port, Hello.HOST).toCompletionStage().toCompletableFuture().get();
        } else {
            listen(vertx, http, handler, port);
        }
        LabTls tls = LabTls.fromSystemProperty(port);
        if (tls != null) {
            HttpServerOptions https = new HttpServerOptions().setSsl(true).setKeyCertOptions(new PemKeyCertOptions()
                    .setCertPath(tls.certificatePem().toString()).setKeyPath(tls.privateKeyPem().toString()));
            if (h2) https.setUseAlpn(true);
            listen(vertx, https, handler, tls.port());
        }
        Hello.runUntilTerminated("vertx", port, tls);
    }

    /** Sends every whole message back on {@code socket}: text as text, binary as binary. */
    private static void echo(ServerWebSocket socket) {
        socket.textMessageHandler(socket::writeTextMessage);
        socket.binaryMessageHandler(socket::writeBinaryMessage);
    }

    private static void listen(Vertx vertx, HttpServerOptions options, Handler<HttpServerRequest> handler, int port)
            throws Exception {
        vertx.createHttpServer(options)
                .requestHandler(handler)
                .listen(port, Hello.HOST)
                .toCompletionStage().toCompletableFuture().get();
    }
}
