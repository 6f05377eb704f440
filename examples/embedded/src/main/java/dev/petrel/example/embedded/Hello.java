package dev.petrel.example.embedded;

import dev.petrel.server.FormPart;
import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.server.config.TransportKind;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * An embedded Petrel server: a {@link Router} with a few routes, one a path template and one
 * an upload, on a virtual-thread transport.
 * Built against {@code dev.petrel:petrel-server} by its Maven coordinates (see this folder's
 * {@code pom.xml}); run {@code java -jar target/hello-embedded.jar [PORT]}, then
 * {@code curl 'http://127.0.0.1:8081/hello?name=Ada'}.
 */
public final class Hello {
    private Hello() {}

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8081;
        Server server = Server.builder()
                .host("127.0.0.1")
                .port(port)
                .transport(TransportKind.VIRTUAL)
                .handler(Router.builder()
                        .get("/hello", (request, response) -> {
                            String name = request.queryParameter("name"); // decoded: ?name=Ada%20Lovelace
                            response.send("Hello, " + (name != null ? name : "world") + "!\n");
                        })
                        .get("/fail", (request, response) -> {
                            throw new IllegalStateException("a bug in the handler"); // logged by Petrel, answered 500
                        })
                        .get("/users/{id}", (request, response) ->  // a path template: /users/42, not /users/ada (400)
                                response.send("User " + request.pathParameters().getLong("id") + "\n"))
                        .post("/upload", (request, response) -> {      // curl -F a=1 -F file=@photo.jpg
                            StringBuilder parts = new StringBuilder();
                            for (FormPart part : request.multipart().parts()) {   // large parts wait in temporary files
                                parts.append(part.name()).append(": ").append(part.size()).append(" bytes\n");
                            }
                            response.send(parts.toString());
                        })
                        .post("/upper", (request, response) ->
                                response.send(new String(request.bodyBytes(), StandardCharsets.UTF_8).toUpperCase()))
                        .build())
                .start();
        System.out.println("listening on " + server.address());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop(Duration.ofSeconds(5))));
        Thread.currentThread().join();
    }
}
