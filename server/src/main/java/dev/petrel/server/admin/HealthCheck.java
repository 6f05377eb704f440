package dev.petrel.server.admin;

import dev.petrel.server.Handler;
import dev.petrel.server.Request;
import dev.petrel.server.Response;
import dev.petrel.server.Server;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A health check for a load balancer or an orchestrator, answering from {@link Server#ready()}:
 * {@code 200} with {@code {"status":"UP"}} while the server takes work, {@code 503} with
 * {@code {"status":"DRAINING"}} once it has begun to stop. Mount it on an admin listener, beside
 * the metrics, so that it keeps answering while the server it watches drains:
 *
 * <pre>{@code
 * Server app = Server.builder().port(8080).metrics(true).handler(handler).start();
 * Server admin = Server.builder().port(9090)
 *         .handler(Router.builder().get("/health", new HealthCheck(app)).build())
 *         .start();
 * }</pre>
 *
 * <p>Answers are never cached ({@code Cache-Control: no-store}); {@code HEAD} gets the status alone.
 */
public final class HealthCheck implements Handler {
    private static final byte[] UP = "{\"status\":\"UP\"}\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DRAINING = "{\"status\":\"DRAINING\"}\n".getBytes(StandardCharsets.US_ASCII);

    private final Server server;

    /** A check of {@code server}. */
    public HealthCheck(Server server) {
        this.server = Objects.requireNonNull(server, "server");
    }

    @Override
    public void handle(Request request, Response response) throws IOException {
        boolean ready = server.ready();
        response.status(ready ? 200 : 503)
                .header("Cache-Control", "no-store")
                .contentType("application/json")
                .send(ready ? UP : DRAINING);
    }

    /** Never: it reads a flag. */
    @Override
    public boolean mayBlock() {
        return false;
    }
}
