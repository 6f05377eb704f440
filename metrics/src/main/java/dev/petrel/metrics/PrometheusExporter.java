package dev.petrel.metrics;

import dev.petrel.server.Handler;
import dev.petrel.server.Server;
import dev.petrel.server.admin.MetricsExporter;

/**
 * The exporter the command line finds by {@link java.util.ServiceLoader} for
 * {@code ./petrel serve --admin-port N}: {@code /metrics} in the Prometheus text format.
 */
public final class PrometheusExporter implements MetricsExporter {
    /** Found by the service loader. */
    public PrometheusExporter() {}

    @Override
    public Handler handler(Server server) {
        return PrometheusMetrics.of(server).handler();
    }
}
