package dev.petrel.bench.soak;

import dev.petrel.server.Compression;
import dev.petrel.server.ConnectorMetrics;
import dev.petrel.server.Handler;
import dev.petrel.server.Request;
import dev.petrel.server.Response;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.server.WebSocketHandler;
import dev.petrel.server.WebSocketMessage;
import dev.petrel.server.admin.HealthCheck;
import dev.petrel.server.admin.ResourceAccounting;
import dev.petrel.server.config.AjpConfig;
import dev.petrel.server.config.Connector;
import dev.petrel.server.config.Http2Config;
import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TransportKind;
import dev.petrel.server.config.WebSocketConfig;
import dev.petrel.server.files.StaticFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The Petrel server of the soak scenario: one {@link Server} on the default transport with every
 * protocol on at once, serving {@link SoakContent}'s contract. Listeners ({@link SoakPorts}):
 * HTTP/1.1 and h2c, HTTPS on JSSE and HTTPS on BoringSSL (HTTP/1.1 and h2 by ALPN each), HTTP with
 * the PROXY protocol required from 127.0.0.1 (HAProxy's side), AJP without a secret (httpd's
 * side, on loopback); and an admin listener of its own, as {@code petrel serve --admin-port} has,
 * with {@code /health}, {@code /resources} ({@link ResourceAccounting}) and {@code /stats}, the
 * live connections, WebSocket sessions and outstanding resources the soak samples.
 *
 * <p>Arguments: {@link SoakPorts#arguments()}, {@code --files DIR} (a folder named {@code files},
 * served under {@code /files/}), {@code --cert PEM --key PEM}, {@code --max-connections N}.
 */
public final class SoakPetrel {
    private SoakPetrel() {}

    public static void main(String[] args) throws Exception {
        List<String> arguments = List.of(args);
        SoakPorts ports = SoakPorts.parse(arguments);
        Path files = Path.of(value(arguments, "--files"));
        Path cert = Path.of(value(arguments, "--cert"));
        Path key = Path.of(value(arguments, "--key"));
        int maxConnections = SoakPorts.find(arguments, "--max-connections");

        Server.Builder builder = Server.builder()
                .host("127.0.0.1")
                .maxConnections(maxConnections)
                .metrics(true)
                .http2(Http2Config.ENABLED.withClearText(true))
                .handler(application(files))
                .connector(Connector.http(ports.plain()))
                .connector(Connector.https(ports.tlsJsse(), tls(cert, key, TlsConfig.JSSE)))
                .connector(Connector.http(ports.proxy()).proxyProtocol(true).trustedProxies("127.0.0.1/32"))
                .connector(Connector.ajp(ports.ajp(), AjpConfig.withoutSecret()));
        if (ports.tlsNative() > 0) builder.connector(Connector.https(ports.tlsNative(), tls(cert, key, TlsConfig.NATIVE)));
        Server server = builder.start();
        Server admin = Server.builder().host("127.0.0.1").port(ports.admin()).transport(TransportKind.VIRTUAL)
                .shutdownGrace(Duration.ofSeconds(1))
                .handler(Router.builder()
                        .get("/health", new HealthCheck(server))
                        .get("/resources", new ResourceAccounting())
                        .get("/stats", (request, response) -> response.contentType("application/json").send(stats(server)))
                        .build())
                .start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop(Duration.ofSeconds(5));
            admin.stop(Duration.ZERO);
            stopped.countDown();
        }, "soak-stop"));
        System.out.println("soak-petrel: started on " + server.transport().cliName() + ", TLS engines " + server.tlsEngine());
        stopped.await();
    }

    private static TlsConfig tls(Path cert, Path key, String engine) {
        return TlsConfig.builder().pem(cert, key).engine(engine).build();
    }

    /** The routes of {@link SoakContent}: blocking handlers, which the default transport runs on virtual threads. */
    static Handler application(Path files) throws IOException {
        if (!files.getFileName().toString().equals("files")) throw new IllegalArgumentException("--files must name a folder called files");
        WebSocketConfig echoConfig = WebSocketConfig.DEFAULT.withMaxMessageSize(1 << 20);
        return Router.builder()
                .get("/ping", (request, response) -> response.contentType("text/plain").send("pong"))
                .get("/download", SoakPetrel::download)
                .post("/upload", SoakPetrel::upload)
                .get("/files/*", Compression.gzip(new StaticFiles(files.getParent())))
                .websocket("/ws/echo", echoConfig, ECHO)
                .build();
    }

    private static void download(Request request, Response response) throws IOException {
        long size = SoakContent.parameter(request.query(), "size");
        long seed = SoakContent.parameter(request.query(), "seed");
        if (size < 0 || seed < 0 || size > SoakContent.MAX_BODY) {
            response.status(400).send("size and seed: whole numbers, size at most " + SoakContent.MAX_BODY + "\n");
            return;
        }
        response.contentType("application/octet-stream").send(SoakContent.bytes(seed, (int) size));
    }

    /** Reads the whole body through SHA-256; an incomplete body throws, and Petrel answers or resets as it does for any handler. */
    private static void upload(Request request, Response response) throws IOException {
        String announced = request.header(SoakContent.DIGEST_HEADER);
        if (request.contentLength() > SoakContent.MAX_BODY) {
            response.status(413).send("at most " + SoakContent.MAX_BODY + " bytes\n");
            return;
        }
        MessageDigest digest = SoakContent.digest();
        byte[] buffer = new byte[16384];
        long total = 0;
        try (InputStream body = request.body()) {
            for (int n; (n = body.read(buffer)) >= 0; ) {
                digest.update(buffer, 0, n);
                total += n;
                if (total > SoakContent.MAX_BODY) {
                    response.status(413).send("at most " + SoakContent.MAX_BODY + " bytes\n");
                    return;
                }
            }
        }
        String read = HexFormat.of().formatHex(digest.digest());
        if (read.equals(announced)) response.contentType("text/plain").send(read);
        else response.status(422).contentType("text/plain").send("digest mismatch: read " + total + " bytes, " + read + "\n");
    }

    private static final WebSocketHandler ECHO = socket -> {
        for (WebSocketMessage message; (message = socket.receive()) != null; ) {
            switch (message) {
                case WebSocketMessage.Text text -> socket.sendText(text.text());
                case WebSocketMessage.Binary binary -> socket.sendBinary(binary.bytes());
            }
        }
    };

    /** Live connections over every listener, WebSocket sessions open, requests served and resources outstanding, as JSON. */
    private static String stats(Server server) {
        long sessions = 0;
        long requests = 0;
        for (ConnectorMetrics m : server.metrics()) {
            sessions += m.webSockets().sessionsOpen();
            requests += m.requests();
        }
        StringBuilder json = new StringBuilder("{\"connections\":").append(server.liveConnections())
                .append(",\"websocketSessions\":").append(sessions).append(",\"requests\":").append(requests).append(",\"outstanding\":{");
        String comma = "";
        for (Map.Entry<String, Long> count : ResourceAccounting.outstanding().entrySet()) {
            json.append(comma).append('"').append(count.getKey()).append("\":").append(count.getValue());
            comma = ",";
        }
        return json.append("}}\n").toString();
    }

    private static String value(List<String> args, String name) {
        int i = args.indexOf(name);
        if (i < 0 || i + 1 >= args.size()) throw new IllegalArgumentException(name + " is required");
        return args.get(i + 1);
    }
}
