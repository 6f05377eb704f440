package dev.petrel.bench.servers;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;

/**
 * The JDK's com.sun.net.httpserver with one virtual thread per exchange; HTTPS, when the lab asks
 * for it, is a second server, an {@link HttpsServer} with the same handler and a JSSE context with
 * the JDK's defaults.
 *
 * <p>Settings are the JDK's defaults, as its users get them (the lab's rule for every peer). Among
 * them {@code sun.net.httpserver.maxIdleConnections=200}: a connection that finishes an exchange
 * while 200 others sit idle is closed without a {@code Connection: close}, so load tools with more
 * than 200 keep-alive connections see failed requests (ab) and errors (h2load).
 */
public final class JdkHello {
    private JdkHello() {}

    public static void main(String[] args) throws Exception {
        int port = Hello.port(args, "JdkHello PORT");
        Hello.quietLogging();
        byte[] page = Hello.page();
        LabTls tls = LabTls.fromSystemProperty(port);

        HttpServer server = HttpServer.create(new InetSocketAddress(Hello.HOST, port), 0);
        serve(server, page);
        if (tls != null) {
            HttpsServer https = HttpsServer.create(new InetSocketAddress(Hello.HOST, tls.port()), 0);
            https.setHttpsConfigurator(new HttpsConfigurator(tls.sslContext()));
            serve(https, page);
        }
        Hello.runUntilTerminated("jdk-httpserver", port, tls);
    }

    private static void serve(HttpServer server, byte[] page) {
        server.createContext("/", exchange -> answer(exchange, page));
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.start();
    }

    private static void answer(HttpExchange exchange, byte[] page) throws IOException {
        boolean isPage = Hello.PAGE_PATH.equals(exchange.getRequestURI().getPath());
        byte[] body = isPage ? page : Hello.HELLO;
        exchange.getResponseHeaders().set("Content-Type", isPage ? Hello.HTML_TYPE : Hello.TEXT_TYPE);
        if (exchange.getRequestMethod().equals("HEAD")) {
            exchange.getResponseHeaders().set("Content-Length", Integer.toString(body.length));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
            return;
        }
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
