package dev.petrel.bench.servers;

import io.undertow.Undertow;
import io.undertow.util.Headers;
import java.nio.ByteBuffer;

/** Undertow with one HttpHandler run on the I/O thread: the responses are tiny, so no dispatch. */
public final class UndertowHello {
    private UndertowHello() {}

    public static void main(String[] args) throws Exception {
        int port = Hello.port(args, "UndertowHello PORT");
        Hello.quietLogging();
        byte[] page = Hello.page();

        Undertow server = Undertow.builder()
                .addHttpListener(port, Hello.HOST)
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
        Hello.runUntilTerminated("undertow", port);
    }
}
