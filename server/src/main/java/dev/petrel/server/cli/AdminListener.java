package dev.petrel.server.cli;

import dev.petrel.server.Router;
import dev.petrel.server.Server;
import dev.petrel.server.admin.HealthCheck;
import dev.petrel.server.admin.ResourceAccounting;
import dev.petrel.server.admin.MetricsExporter;
import dev.petrel.server.config.TransportKind;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The admin listener of {@code ./petrel serve --admin-port N}: {@code /health} from the served
 * server's readiness, {@code /metrics} from the {@link MetricsExporter} on the class path, and
 * {@code /resources} from {@link ResourceAccounting} (counts with {@code -Dpetrel.resourceAccounting=true}). It is
 * a server of its own, apart from the application's connectors, so that it answers on its own
 * address (loopback unless told otherwise), is never counted in the application's metrics, and
 * keeps saying "draining" while the application's server stops.
 */
final class AdminListener {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.cli");

    private AdminListener() {}

    /** Starts the admin listener for {@code served} on {@code host:port}. */
    static Server start(Server served, String host, int port) throws IOException {
        Optional<MetricsExporter> exporter = ServiceLoader.load(MetricsExporter.class).findFirst();
        Router.Builder routes = Router.builder().get("/health", new HealthCheck(served))
                .get("/resources", new ResourceAccounting());
        if (exporter.isPresent()) {
            routes.get("/metrics", exporter.get().handler(served));
        } else {
            LOG.log(System.Logger.Level.WARNING, "no metrics exporter on the class path (the petrel-metrics jar): /metrics answers 404");
        }
        return Server.builder()
                .host(host)
                .port(port)
                .transport(TransportKind.VIRTUAL) // a scrape now and then: a thread each, none held between
                .maxConnections(64)
                .shutdownGrace(Duration.ofSeconds(1))
                .handler(routes.build())
                .start();
    }
}
