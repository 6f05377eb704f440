package dev.petrel.server.observe;

import dev.petrel.http.Methods;
import dev.petrel.server.config.Connector;
import dev.petrel.server.ConnectorMetrics;
import dev.petrel.server.WebSocketMetrics;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters behind one connector's {@link ConnectorMetrics}, bumped by the transport (connections
 * and bytes), the TLS step (handshakes), {@link ExchangeRecorder} (requests) and
 * {@link WebSocketSessionRecorder} (WebSocket sessions, in {@link WebSocketCounters}). Each is a
 * {@link LongAdder}: connections are served on several threads at once, and an adder takes their
 * updates without contending on one cache line; it allocates only the first time two threads
 * collide on it, never per update, so the request path stays allocation-free.
 */
public final class ConnectorCounters implements ConnectorMetrics {
    /** Upper bounds of the duration buckets, in nanoseconds: 0.5 ms to 10 s, as Prometheus clients default to, plus 30 s. */
    private static final long[] BOUNDS_NANOS = {
            500_000L, 1_000_000L, 2_500_000L, 5_000_000L, 10_000_000L, 25_000_000L, 50_000_000L, 100_000_000L,
            250_000_000L, 500_000_000L, 1_000_000_000L, 2_500_000_000L, 5_000_000_000L, 10_000_000_000L, 30_000_000_000L};
    private static final Method[] METHODS = Method.values();
    private static final int STATUS_CLASSES = 5;

    private final Connector connector;
    private volatile InetSocketAddress address;
    private final LongAdder accepted = new LongAdder();
    private final LongAdder refused = new LongAdder();
    private final LongAdder closed = new LongAdder();
    private final LongAdder received = new LongAdder();
    private final LongAdder sent = new LongAdder();
    private final LongAdder handshakes = new LongAdder();
    private final LongAdder handshakeFailures = new LongAdder();
    private final LongAdder started = new LongAdder();
    private final LongAdder incomplete = new LongAdder();
    private final LongAdder[] requests = adders(METHODS.length * STATUS_CLASSES);
    private final LongAdder[] buckets = adders(BOUNDS_NANOS.length + 1); // not cumulative; the last is above every bound
    private final LongAdder durationNanos = new LongAdder();
    private final WebSocketCounters webSockets = new WebSocketCounters();

    /** Counters for {@code connector}, whose address is known once it is bound (see {@link #bound}). */
    public ConnectorCounters(Connector connector) {
        this.connector = connector;
    }

    private static LongAdder[] adders(int n) {
        LongAdder[] adders = new LongAdder[n];
        for (int i = 0; i < n; i++) adders[i] = new LongAdder();
        return adders;
    }

    /** The connector's listener is bound to {@code address}. */
    public void bound(InetSocketAddress address) {
        this.address = address;
    }

    // ---- counting ----

    /** A connection was accepted and is being served. */
    public void connectionAccepted() {
        accepted.increment();
    }

    /** A connection that was being served has ended. */
    public void connectionClosed() {
        closed.increment();
    }

    /** A connection was turned away at the connection limit. */
    public void connectionRefused() {
        refused.increment();
    }

    /** {@code n} bytes came off the network. */
    public void received(int n) {
        received.add(n);
    }

    /** {@code n} bytes went onto the network. */
    public void sent(int n) {
        sent.add(n);
    }

    /** A TLS handshake completed, or ({@code ok} false) failed. */
    public void tlsHandshake(boolean ok) {
        (ok ? handshakes : handshakeFailures).increment();
    }

    /** A request's handler is starting. */
    public void requestStarted() {
        started.increment();
    }

    /**
     * A request's exchange is over: {@code method}, answered with {@code status}, after
     * {@code nanos}; {@code complete} false when its response never ended (see {@link #requestsIncomplete}).
     */
    public void requestFinished(String method, int status, boolean complete, long nanos) {
        if (!complete) incomplete.increment();
        int statusClass = Math.clamp(status / 100, 1, STATUS_CLASSES);
        requests[methodIndex(method) * STATUS_CLASSES + statusClass - 1].increment();
        buckets[bucketIndex(nanos)].increment();
        durationNanos.add(nanos);
    }

    /** The standard methods come from the codec as shared constants, so identity finds them without hashing. */
    private static int methodIndex(String method) {
        if (method == Methods.GET) return 0;
        if (method == Methods.HEAD) return 1;
        if (method == Methods.POST) return 2;
        if (method == Methods.PUT) return 3;
        if (method == Methods.DELETE) return 4;
        if (method == Methods.OPTIONS) return 5;
        if (method == Methods.PATCH) return 6;
        return switch (method) { // a protocol that did not intern it (AJP codes map to constants too)
            case "GET" -> 0;
            case "HEAD" -> 1;
            case "POST" -> 2;
            case "PUT" -> 3;
            case "DELETE" -> 4;
            case "OPTIONS" -> 5;
            case "PATCH" -> 6;
            default -> 7;
        };
    }

    private static int bucketIndex(long nanos) {
        int i = 0;
        while (i < BOUNDS_NANOS.length && nanos > BOUNDS_NANOS[i]) i++;
        return i;
    }

    // ---- reading ----

    @Override
    public Connector connector() {
        return connector;
    }

    @Override
    public InetSocketAddress address() {
        return address;
    }

    @Override
    public String name() {
        InetSocketAddress bound = address;
        int port = bound != null ? bound.getPort() : connector.port();
        return connector.kind().name().toLowerCase(Locale.ROOT) + "-" + port;
    }

    @Override
    public long connectionsAccepted() {
        return accepted.sum();
    }

    @Override
    public long connectionsRefused() {
        return refused.sum();
    }

    @Override
    public long connectionsOpen() {
        return Math.max(0, accepted.sum() - closed.sum()); // read apart: a close may be seen before its accept
    }

    @Override
    public long bytesReceived() {
        return received.sum();
    }

    @Override
    public long bytesSent() {
        return sent.sum();
    }

    @Override
    public long tlsHandshakes() {
        return handshakes.sum();
    }

    @Override
    public long tlsHandshakeFailures() {
        return handshakeFailures.sum();
    }

    @Override
    public long requestsInFlight() {
        return Math.max(0, started.sum() - requests());
    }

    @Override
    public long requestsIncomplete() {
        return incomplete.sum();
    }

    @Override
    public long requests(Method method, int statusClass) {
        if (statusClass < 1 || statusClass > STATUS_CLASSES) throw new IllegalArgumentException("status class 1 to 5: " + statusClass);
        return requests[method.ordinal() * STATUS_CLASSES + statusClass - 1].sum();
    }

    @Override
    public long requests() {
        long all = 0;
        for (LongAdder adder : requests) all += adder.sum();
        return all;
    }

    @Override
    public Histogram durations() {
        List<Duration> bounds = new ArrayList<>(BOUNDS_NANOS.length);
        List<Long> cumulative = new ArrayList<>(BOUNDS_NANOS.length + 1);
        long running = 0;
        for (int i = 0; i < buckets.length; i++) {
            running += buckets[i].sum();
            if (i < BOUNDS_NANOS.length) bounds.add(Duration.ofNanos(BOUNDS_NANOS[i]));
            cumulative.add(running);
        }
        return new Histogram(bounds, cumulative, Duration.ofNanos(durationNanos.sum()));
    }

    @Override
    public WebSocketMetrics webSockets() {
        return webSockets;
    }

    /** The WebSocket counters, for the sessions' recorders to bump. */
    WebSocketCounters webSocketCounters() {
        return webSockets;
    }

    @Override
    public String toString() {
        return name();
    }
}
