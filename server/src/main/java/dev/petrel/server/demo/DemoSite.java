package dev.petrel.server.demo;

import dev.petrel.http.DateCache;
import dev.petrel.server.Handler;
import dev.petrel.server.Request;
import dev.petrel.server.Response;
import dev.petrel.server.Router;
import dev.petrel.server.WebSocket;
import dev.petrel.server.WebSocketMessage;
import dev.petrel.server.config.WebSocketConfig;
import dev.petrel.server.files.StaticFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Map;

/**
 * The demo site of {@code ./petrel serve}: the applications of the seeds' experiments plus
 * static files.
 * <ul>
 *   <li>{@code GET /}: {@code HelloWorld}, 10 bytes of {@code text/plain;charset=UTF-8}, the app of the latency comparison;</li>
 *   <li>{@code GET /date}: a small HTML page with the current date and time, the JSP of the connector comparison;</li>
 *   <li>{@code POST /echo}: the request body back, with its content type;</li>
 *   <li>{@code POST /upload}: a {@code multipart/form-data} form (the page {@code /upload.html}, or
 *       {@code curl -F}) answered with each part's name, size and SHA-256 (see {@link UploadSummary});</li>
 *   <li>{@code /ws/echo}: a WebSocket that sends every message back, text as text and binary as
 *       binary, up to 32 MiB (Autobahn's test suite sends 16 MiB);</li>
 *   <li>{@code /ws/chat}: the chat room of the page {@code /chat.html} (see {@link ChatRoom});</li>
 *   <li>anything else: a file under the site root.</li>
 * </ul>
 */
public final class DemoSite {
    private static final byte[] HELLO = "HelloWorld".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final String BUNDLED = "site/index.html";
    private static final WebSocketConfig ECHO_LIMITS = WebSocketConfig.DEFAULT.withMaxMessageSize(32 << 20);
    private static final WebSocketConfig CHAT_LIMITS = WebSocketConfig.DEFAULT.withMaxMessageSize(4096);

    private DemoSite() {}

    /** The demo application serving static files from {@code root}. */
    public static Handler handler(Path root, InstantSource clock) throws IOException {
        return handler(new StaticFiles(root), clock);
    }

    /** The demo application with {@code files} for every other path. */
    public static Handler handler(StaticFiles files, InstantSource clock) {
        DateCache dates = new DateCache(clock);
        return Router.builder()
                // answered from memory: on the nio transport these run on the event loop, without a hand-over
                .get("/", Handler.nonBlocking(DemoSite::hello))
                .get("/date", Handler.nonBlocking((request, response) -> date(response, dates)))
                .post("/echo", DemoSite::echo)
                .post("/upload", new UploadSummary())
                .websocket("/ws/echo", ECHO_LIMITS, DemoSite::echoMessage)
                .websocket("/ws/chat", CHAT_LIMITS, new ChatRoom())
                .fallback(files)
                .build();
    }

    /** The folder of the site bundled with Petrel: a directory when run from classes, a zip file system inside a jar. */
    public static Path bundledRoot() throws IOException {
        URL index = DemoSite.class.getResource(BUNDLED);
        if (index == null) throw new IOException("the bundled demo site is missing from the class path");
        try {
            URI uri = index.toURI();
            if ("jar".equals(uri.getScheme())) {
                FileSystem jar;
                try {
                    jar = FileSystems.newFileSystem(uri, Map.of());
                } catch (FileSystemAlreadyExistsException e) {
                    jar = FileSystems.getFileSystem(uri);
                }
                return jar.provider().getPath(uri).getParent();
            }
            return Path.of(uri).getParent();
        } catch (URISyntaxException e) {
            throw new IOException("cannot locate the bundled demo site: " + e.getMessage(), e);
        }
    }

    /** Sends each message back as it came: a listener, so on the nio transport it runs on the event loop. */
    private static void echoMessage(WebSocket socket, WebSocketMessage message) throws IOException {
        switch (message) {
            case WebSocketMessage.Text text -> socket.sendText(text.text());
            case WebSocketMessage.Binary binary -> socket.sendBinary(binary.bytes());
        }
    }

    private static void hello(Request request, Response response) throws IOException {
        response.contentType("text/plain;charset=UTF-8").send(HELLO);
    }

    private static void date(Response response, DateCache dates) throws IOException {
        String now = dates.text();
        response.contentType("text/html;charset=UTF-8").send("""
                <!DOCTYPE html>
                <html lang="en">
                <head><meta charset="utf-8"><title>Petrel: date</title></head>
                <body>
                <h1>Current date</h1>
                <p>%s</p>
                </body>
                </html>
                """.formatted(now));
    }

    private static void echo(Request request, Response response) throws IOException {
        String type = request.header("Content-Type");
        response.contentType(type != null ? type : "application/octet-stream");
        if (request.contentLength() >= 0) response.contentLength(request.contentLength());
        else if (!request.hasBody()) response.contentLength(0);
        try (InputStream in = request.body(); OutputStream out = response.body()) {
            in.transferTo(out);
        }
    }
}
