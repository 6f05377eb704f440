package dev.petrel.server.it;

import dev.petrel.server.Cors;
import dev.petrel.server.FormPart;
import dev.petrel.server.Handler;
import dev.petrel.server.HttpStatusException;
import dev.petrel.server.Router;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** The application most tests talk to. */
final class TestApp {
    static final String SECRET_MESSAGE = "boom: see dev.petrel.internal.Secret at line 42";

    private TestApp() {}

    static Handler handler() {
        return routes().build();
    }

    /** The routes of {@link #handler()}, for a test to add its own. */
    static Router.Builder routes() {
        return Router.builder()
                .get("/", (req, res) -> res.send("HelloWorld"))
                .get("/text", (req, res) -> res.header("X-Test", "1").send("hello world"))
                .get("/scheme", (req, res) -> res.send(req.scheme()))
                .post("/echo", (req, res) -> {
                    String type = req.header("Content-Type");
                    if (type != null) res.contentType(type);
                    res.send(req.bodyBytes());
                })
                .route("*", "/ignore", (req, res) -> res.send("ignored"))
                // path templates: a literal wins over a variable; a value that is no number is a 400
                .get("/users/{id}", (req, res) -> res.send("user " + req.pathParameters().getLong("id")))
                .get("/users/me", (req, res) -> res.send("me"))
                .get("/users/{id}/posts/{post}", (req, res) -> res.send("user " + req.pathParameter("id") + " post "
                        + req.pathParameter("post")))
                .get("/tree/{path...}", (req, res) -> res.send("tree [" + req.pathParameter("path") + "]"))
                // multipart/form-data: one line per part, its name, file name, size, SHA-256 and whether it went to a file
                .post("/upload", (req, res) -> {
                    StringBuilder answer = new StringBuilder();
                    for (FormPart part : req.multipart().parts()) {
                        answer.append(part.name()).append(' ').append(part.filename()).append(' ').append(part.size()).append(' ')
                                .append(sha256(part.bytes())).append(part.inFile() ? " file" : " memory").append('\n');
                    }
                    res.send(answer.toString());
                })
                // CORS for one route (any method, so that the preflight's OPTIONS reaches it)
                .route("*", "/cors", Cors.builder().allowOrigins("https://app.example.com").allowMethods("PUT")
                        .exposeHeaders("X-Test").wrap((req, res) -> res.header("X-Test", "1").send("cors " + req.method())))
                // GET /stream?N: N bytes of the pattern in pieces of 100, length not declared
                .get("/stream", (req, res) -> stream(res.body(), Integer.parseInt(req.query())))
                // GET /stream-length?N: the same with the length declared first
                .get("/stream-length", (req, res) -> {
                    int n = Integer.parseInt(req.query());
                    res.contentLength(n);
                    stream(res.body(), n);
                })
                .get("/close", (req, res) -> res.header("Connection", "close").send("bye"))
                .get("/fail", (req, res) -> {
                    throw new IllegalStateException(SECRET_MESSAGE);
                })
                .get("/missing", (req, res) -> {
                    throw new HttpStatusException(404, "no such thing");
                })
                .get("/io-fail", (req, res) -> {
                    throw new java.io.IOException(SECRET_MESSAGE); // e.g. a file or a database, not the client
                })
                .get("/fail-before-commit", (req, res) -> {
                    res.body().write("partial".getBytes(StandardCharsets.US_ASCII));
                    throw new IllegalStateException(SECRET_MESSAGE);
                })
                .get("/fail-after-commit", (req, res) -> {
                    stream(res.body(), 3000);
                    res.body().flush();
                    throw new IllegalStateException(SECRET_MESSAGE);
                });
    }

    static void stream(OutputStream out, int n) throws java.io.IOException {
        byte[] all = Requests.pattern(n).getBytes(StandardCharsets.US_ASCII);
        for (int off = 0; off < n; off += 100) out.write(all, off, Math.min(100, n - off));
    }

    /** The SHA-256 of {@code bytes}, in lower-case hex. */
    static String sha256(byte[] bytes) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
