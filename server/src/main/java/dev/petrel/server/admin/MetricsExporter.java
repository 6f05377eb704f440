package dev.petrel.server.admin;

import dev.petrel.server.Handler;
import dev.petrel.server.Server;

/**
 * Publishes a server's {@linkplain Server#metrics() metrics} in some exposition format. The
 * command line's admin listener ({@code ./petrel serve --admin-port N}) serves {@code /metrics}
 * with the first exporter that {@link java.util.ServiceLoader} finds on the class or module path;
 * the {@code petrel-metrics} module provides one for Prometheus. The core has none, so that it
 * depends on nothing but the JDK.
 */
public interface MetricsExporter {
    /** A handler that answers a scrape with {@code server}'s metrics, read when the scrape comes. */
    Handler handler(Server server);
}
