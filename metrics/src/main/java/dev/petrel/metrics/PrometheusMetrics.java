package dev.petrel.metrics;

import dev.petrel.server.Handler;
import dev.petrel.server.Request;
import dev.petrel.server.Response;
import dev.petrel.server.Server;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Objects;

/**
 * A server's metrics, and the JVM's (memory, threads, garbage collection, classes, CPU), in a
 * Prometheus registry of their own, with a {@link Handler} that answers a scrape in the format the
 * scraper asks for: the Prometheus text format, or OpenMetrics when its {@code Accept} says so.
 *
 * <pre>{@code
 * Server app = Server.builder().port(8080).metrics(true).handler(handler).start();
 * Server admin = Server.builder().port(9090)
 *         .handler(Router.builder()
 *                 .get("/metrics", PrometheusMetrics.of(app).handler())
 *                 .get("/health", new HealthCheck(app))
 *                 .build())
 *         .start();
 * }</pre>
 *
 * <p>The server must be built with {@link Server.Builder#metrics(boolean) metrics(true)} for its
 * connectors' figures; without, only its readiness and the JVM's figures are published. Add your
 * own collectors to {@link #registry()}.
 */
public final class PrometheusMetrics {
    private final PrometheusRegistry registry;
    private final ExpositionFormats formats = ExpositionFormats.init();

    private PrometheusMetrics(PrometheusRegistry registry) {
        this.registry = registry;
    }

    /** {@code server}'s metrics and the JVM's, in a new registry. */
    public static PrometheusMetrics of(Server server) {
        Objects.requireNonNull(server, "server");
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new ServerCollector(server));
        JvmMetrics.builder().register(registry);
        return new PrometheusMetrics(registry);
    }

    /** The registry scraped: the server's collector and the JVM's, and any you add. */
    public PrometheusRegistry registry() {
        return registry;
    }

    /** A handler answering each request with a scrape of {@link #registry()}. */
    public Handler handler() {
        return this::scrape;
    }

    private void scrape(Request request, Response response) throws IOException {
        ExpositionFormatWriter writer = formats.findWriter(request.header("Accept"));
        ByteArrayOutputStream body = new ByteArrayOutputStream(8192);
        writer.write(body, registry.scrape());
        response.contentType(writer.getContentType())
                .header("Cache-Control", "no-store")
                .send(body.toByteArray());
    }
}
