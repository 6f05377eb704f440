package dev.petrel.bench.servers;

import io.undertow.Handlers;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import io.undertow.util.Headers;
import io.undertow.websockets.WebSocketConnectionCallback;
import io.undertow.websockets.core.AbstractReceiveListener;
import io.undertow.websockets.core.BufferedBinaryMessage;
import io.undertow.websockets.core.BufferedTextMessage;
import io.undertow.websockets.core.WebSocketCallback;
import io.undertow.websockets.core.WebSocketChannel;
import io.undertow.websockets.core.WebSockets;
import java.nio.ByteBuffer;
import org.xnio.Pooled;

/**
 * Undertow with one HttpHandler run on the I/O thread: the responses are tiny, so no dispatch.
 * HTTPS, when the lab asks for it, is a second listener ({@code addHttpsListener}) on a JSSE context
 * with the JDK's defaults, the handler the same. HTTP/2, when the lab asks for it ({@link LabH2}), is
 * Undertow's {@code ENABLE_HTTP2} server option: {@code h2} by ALPN on the HTTPS listener, and on the HTTP
 * listener prior knowledge (and the {@code Upgrade: h2c} handshake).
 *
 * <p>The WebSocket echo, when the lab asks for it ({@link LabWebSocket}), is Undertow's own
 * {@code io.undertow.websockets}: {@link Handlers#websocket} on the exact path {@value LabWebSocket#PATH}
 * (a path handler sends everything else to the HelloWorld handler), and an
 * {@link AbstractReceiveListener} that sends each whole message back with {@link WebSockets}, on the
 * I/O thread as the HTTP handler runs. Its buffers for a text or binary message are limited to
 * 1 MiB (Undertow's default is no limit); no extension is added to the handshake handler, so none
 * is negotiated.
 */
public final class UndertowHello {
    private UndertowHello() {}

    public static void main(String[] args) throws Exception {
        int port = Hello.port(args, "UndertowHello PORT");
        Hello.quietLogging();
        byte[] page = Hello.page();
        LabTls tls = LabTls.fromSystemProperty(port);

        HttpHandler hello = exchange -> {
            boolean isPage = Hello.PAGE_PATH.equals(exchange.getRequestPath());
            byte[] body = isPage ? page : Hello.HELLO;
            exchange.getResponseHeaders()
                    .put(Headers.CONTENT_TYPE, isPage ? Hello.HTML_TYPE : Hello.TEXT_TYPE)
                    .put(Headers.CONTENT_LENGTH, body.length);
            exchange.getResponseSender().send(ByteBuffer.wrap(body));
        };
        Undertow.Builder builder = Undertow.builder().addHttpListener(port, Hello.HOST);
        if (tls != null) builder.addHttpsListener(tls.port(), Hello.HOST, tls.sslContext());
        if (LabH2.fromSystemProperty()) builder.setServerOption(UndertowOptions.ENABLE_HTTP2, true);
        Undertow server = builder
                .setHandler(LabWebSocket.fromSystemProperty()
                        ? Handlers.path(hello).addExactPath(LabWebSocket.PATH, Handlers.websocket(ECHO)) : hello)
                .build();
        server.start();
        Hello.runUntilTerminated("undertow", port, tls);
    }

    /** Each new session gets the echo as its receive listener. */
    private static final WebSocketConnectionCallback ECHO = (exchange, channel) -> {
        channel.getReceiveSetter().set(new EchoListener());
        channel.resumeReceives();
    };

    /** Sends every whole message back: text as text, binary as binary. */
    private static final class EchoListener extends AbstractReceiveListener {
        @Override
        protected void onFullTextMessage(WebSocketChannel channel, BufferedTextMessage message) {
            WebSockets.sendText(message.getData(), channel, null);
        }

        @Override
        protected void onFullBinaryMessage(WebSocketChannel channel, BufferedBinaryMessage message) {
            // the message's pooled buffers go back to the pool once the echo has been written
            Pooled<ByteBuffer[]> data = message.getData();
            WebSockets.sendBinary(data.getResource(), channel, new WebSocketCallback<Void>() {
                @Override
                public void complete(WebSocketChannel c, Void context) {
                    data.free();
                }

                @Override
                public void onError(WebSocketChannel c, Void context, Throwable failure) {
                    data.free();
                }
            });
        }

        @Override
        protected long getMaxTextBufferSize() {
            return LabWebSocket.MAX_MESSAGE_BYTES;
        }

        @Override
        protected long getMaxBinaryBufferSize() {
            return LabWebSocket.MAX_MESSAGE_BYTES;
        }
    }
}
