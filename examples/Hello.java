import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.server.TransportKind;
import java.time.Duration;

/**
 * An embedded Petrel server in one file. After `./petrel version` has built the classes, run:
 *
 *   java -cp http/target/classes:server/target/classes examples/Hello.java
 *
 * (with a JDK 25 `java`), then `curl http://127.0.0.1:8081/hello?name=Ada`.
 */
public class Hello {
    public static void main(String[] args) throws Exception {
        Server server = Server.builder()
                .port(8081)
                .transport(TransportKind.VIRTUAL)
                .handler(Router.builder()
                        .get("/hello", (request, response) -> {
                            String query = request.query();
                            String name = query != null && query.startsWith("name=") ? query.substring(5) : "world";
                            response.send("Hello, " + name + "!\n");
                        })
                        .post("/upper", (request, response) ->
                                response.send(new String(request.bodyBytes(), java.nio.charset.StandardCharsets.UTF_8).toUpperCase()))
                        .build())
                .start();
        System.out.println("listening on " + server.address());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop(Duration.ofSeconds(5))));
        Thread.currentThread().join();
    }
}
