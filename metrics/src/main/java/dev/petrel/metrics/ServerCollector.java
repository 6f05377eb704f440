package dev.petrel.metrics;

import dev.petrel.server.config.Connector;
import dev.petrel.server.ConnectorMetrics;
import dev.petrel.server.Server;
import dev.petrel.server.WebSocketMetrics;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * Turns a server's {@link ConnectorMetrics} into Prometheus metric families when a scrape comes.
 * The server keeps its own counters (allocation-free, JDK-only, in the core); this collector only
 * reads them, so the Prometheus client is never on the request path. Every series has a
 * {@code listener} label naming the connector ({@code http-8080}, {@code https-8443}, {@code ajp-8009});
 * the WebSocket families are on the HTTP and HTTPS listeners, which carry WebSocket.
 */
final class ServerCollector implements MultiCollector {
    private static final String[] STATUS_CLASSES = {"1xx", "2xx", "3xx", "4xx", "5xx"};

    private final Server server;

    ServerCollector(Server server) {
        this.server = server;
    }

    @Override
    public MetricSnapshots collect() {
        List<ConnectorMetrics> connectors = server.metrics();
        List<MetricSnapshot> families = new ArrayList<>();
        families.add(GaugeSnapshot.builder().name("petrel_ready")
                .help("1 while the server takes new work, 0 while it drains")
                .dataPoint(GaugeDataPointSnapshot.builder().value(server.ready() ? 1 : 0).build()).build());
        families.add(counter("petrel_connections_accepted", "Connections accepted and served", connectors,
                ConnectorMetrics::connectionsAccepted));
        families.add(counter("petrel_connections_refused", "Connections turned away at the connection limit (503 where the protocol allows)",
                connectors, ConnectorMetrics::connectionsRefused));
        families.add(gauge("petrel_connections_open", "Connections being served now", connectors, ConnectorMetrics::connectionsOpen));
        families.add(counter("petrel_network_received_bytes", "Bytes read from connections, TLS records included", connectors,
                ConnectorMetrics::bytesReceived));
        families.add(counter("petrel_network_sent_bytes", "Bytes written to connections, TLS records included", connectors,
                ConnectorMetrics::bytesSent));
        List<ConnectorMetrics> tls = connectors.stream().filter(m -> m.connector().kind() == Connector.Kind.HTTPS).toList();
        if (!tls.isEmpty()) {
            families.add(counter("petrel_tls_handshakes", "TLS handshakes completed", tls, ConnectorMetrics::tlsHandshakes));
            families.add(counter("petrel_tls_handshake_failures", "TLS handshakes that failed", tls, ConnectorMetrics::tlsHandshakeFailures));
        }
        families.add(gauge("petrel_requests_in_flight", "Requests being handled or answered now", connectors,
                ConnectorMetrics::requestsInFlight));
        families.add(requests(connectors));
        families.add(counter("petrel_requests_incomplete", "Requests whose response never ended as complete: cut after the request"
                + " or the handler failed with bytes of it sent, or left by its client", connectors, ConnectorMetrics::requestsIncomplete));
        families.add(durations(connectors));
        List<ConnectorMetrics> webSockets = connectors.stream().filter(m -> m.connector().kind() != Connector.Kind.AJP).toList();
        if (!webSockets.isEmpty()) families.addAll(webSockets(webSockets));
        if (server.logsAccess()) {
            families.add(CounterSnapshot.builder().name("petrel_access_log_dropped")
                    .help("Access log lines dropped because the writer fell behind")
                    .dataPoint(CounterDataPointSnapshot.builder().value(server.accessLogDropped()).build()).build());
        }
        return new MetricSnapshots(families);
    }

    private static Labels listener(ConnectorMetrics metrics) {
        return Labels.of("listener", metrics.name());
    }

    private static CounterSnapshot counter(String name, String help, List<ConnectorMetrics> connectors, ToLongFunction<ConnectorMetrics> value) {
        CounterSnapshot.Builder family = CounterSnapshot.builder().name(name).help(help);
        if (name.endsWith("_bytes")) family.unit(Unit.BYTES);
        for (ConnectorMetrics metrics : connectors) {
            family.dataPoint(CounterDataPointSnapshot.builder().labels(listener(metrics)).value(value.applyAsLong(metrics)).build());
        }
        return family.build();
    }

    private static GaugeSnapshot gauge(String name, String help, List<ConnectorMetrics> connectors, ToLongFunction<ConnectorMetrics> value) {
        GaugeSnapshot.Builder family = GaugeSnapshot.builder().name(name).help(help);
        for (ConnectorMetrics metrics : connectors) {
            family.dataPoint(GaugeDataPointSnapshot.builder().labels(listener(metrics)).value(value.applyAsLong(metrics)).build());
        }
        return family.build();
    }

    /** Requests by method and status class; a series appears with its first request, as a labelled counter's does. */
    private static CounterSnapshot requests(List<ConnectorMetrics> connectors) {
        CounterSnapshot.Builder family = CounterSnapshot.builder().name("petrel_requests")
                .help("Requests answered, by method and status class");
        for (ConnectorMetrics metrics : connectors) {
            for (ConnectorMetrics.Method method : ConnectorMetrics.Method.values()) {
                for (int statusClass = 1; statusClass <= 5; statusClass++) {
                    long count = metrics.requests(method, statusClass);
                    if (count == 0) continue;
                    Labels labels = Labels.of("listener", metrics.name(), "method", method.name(), "status", STATUS_CLASSES[statusClass - 1]);
                    family.dataPoint(CounterDataPointSnapshot.builder().labels(labels).value(count).build());
                }
            }
        }
        return family.build();
    }

    /** The WebSocket families, on the listeners that carry WebSocket (not AJP). */
    private static List<MetricSnapshot> webSockets(List<ConnectorMetrics> connectors) {
        List<MetricSnapshot> families = new ArrayList<>();
        families.add(gauge("petrel_websocket_sessions_open", "WebSocket sessions whose handler is running now", connectors,
                m -> m.webSockets().sessionsOpen()));
        families.add(counter("petrel_websocket_sessions_opened", "WebSocket sessions opened", connectors,
                m -> m.webSockets().sessionsOpened()));
        families.add(counter("petrel_websocket_messages_received", "WebSocket data messages received", connectors,
                m -> m.webSockets().messagesReceived()));
        families.add(counter("petrel_websocket_messages_sent", "WebSocket data messages sent", connectors,
                m -> m.webSockets().messagesSent()));
        families.add(counter("petrel_websocket_received_bytes", "Payload bytes of the WebSocket messages received, after inflating",
                connectors, m -> m.webSockets().bytesReceived()));
        families.add(counter("petrel_websocket_sent_bytes", "Payload bytes of the WebSocket messages sent, before compressing",
                connectors, m -> m.webSockets().bytesSent()));
        families.add(closes(connectors));
        return families;
    }

    /** Sessions ended, by close code; a series appears with its first close, as a labelled counter's does. */
    private static CounterSnapshot closes(List<ConnectorMetrics> connectors) {
        CounterSnapshot.Builder family = CounterSnapshot.builder().name("petrel_websocket_closes")
                .help("WebSocket sessions ended, by close code (1006: the connection ended without a close frame)");
        for (ConnectorMetrics metrics : connectors) {
            WebSocketMetrics webSockets = metrics.webSockets();
            for (int code : WebSocketMetrics.CLOSE_CODES) closePoint(family, metrics, String.valueOf(code), webSockets.closes(code));
            closePoint(family, metrics, "other", webSockets.closesOther());
        }
        return family.build();
    }

    private static void closePoint(CounterSnapshot.Builder family, ConnectorMetrics metrics, String code, long count) {
        if (count == 0) return;
        family.dataPoint(CounterDataPointSnapshot.builder().labels(Labels.of("listener", metrics.name(), "code", code)).value(count).build());
    }

    private static HistogramSnapshot durations(List<ConnectorMetrics> connectors) {
        HistogramSnapshot.Builder family = HistogramSnapshot.builder().name("petrel_request_duration_seconds")
                .help("Time from a request's handler starting until its exchange was over").unit(Unit.SECONDS);
        for (ConnectorMetrics metrics : connectors) {
            ConnectorMetrics.Histogram histogram = metrics.durations();
            int n = histogram.upperBounds().size();
            double[] bounds = new double[n + 1];
            long[] counts = new long[n + 1]; // per bucket: the client model wants them apart, and adds them up itself
            long below = 0;
            for (int i = 0; i <= n; i++) {
                bounds[i] = i < n ? seconds(histogram.upperBounds().get(i)) : Double.POSITIVE_INFINITY;
                long cumulative = histogram.cumulativeCounts().get(i);
                counts[i] = cumulative - below;
                below = cumulative;
            }
            family.dataPoint(HistogramDataPointSnapshot.builder().labels(listener(metrics))
                    .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, counts))
                    .sum(seconds(histogram.sum())).build());
        }
        return family.build();
    }

    private static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }
}
