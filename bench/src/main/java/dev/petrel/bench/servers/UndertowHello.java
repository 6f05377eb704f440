package dev.petrel.bench.servers;

import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.util.Headers;
import java.nio.ByteBuffer;

/**
 * Undertow with one HttpHandler run on the I/O thread: the responses are tiny, so no dispatch.
 * HTTPS, when the lab asks for it, is a second listener ({@code addHttpsListener}) on a JSSE context
 * with the JDK's defaults, the handler the same. HTTP/2, when the lab asks for it ({@link LabH2}), is
 * Undertow's {@code ENABLE_HTTP2} server option: {@code h2} by ALPN on the HTTPS listener, and on the HTTP
 * listener prior knowledge (and the {@code Upgrade: h2c} handshake).
 */
public final class UndertowHello {
    private UndertowHello() {}

    public static void main(String[] args) throws Exception {
        int port = Hello.port(args, "UndertowHello PORT");
        Hello.quietLogging();
        byte[] page = Hello.page();
        LabTls tls = LabTls.fromSystemProperty(port);

        Undertow.Builder builder = Undertow.builder().addHttpListener(port, Hello.HOST);
        if (tls != null) builder.addHttpsListener(tls.port(), Hello.HOST, tls.sslContext());
        if (LabH2.fromSystemProperty()) builder.setServerOption(UndertowOptions.ENABLE_HTTP2, true);
        Undertow server = builder
                .setHandler(exchange -> {
                    boolean isPage = Hello.PAGE_PATH.equals(exchange.getRequestPath());
                    byte[] body = isPage ? page : Hello.HELLO;
                    exchange.getResponseHeaders()
                            .put(Headers.CONTENT_TYPE, isPage ? Hello.HTML_TYPE : Hello.TEXT_TYPE)
                            .put(Headers.CONTENT_LENGTH, body.length);
                    exchange.getResponseSender().send(ByteBuffer.wrap(body));
                })
                .build();
        server.start();
        Hello.runUntilTerminated("undertow", port, tls);
    }
}
