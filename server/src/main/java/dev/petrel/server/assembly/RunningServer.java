package dev.petrel.server.assembly;

import dev.petrel.http.DateCache;
import dev.petrel.server.CertificateInfo;
import dev.petrel.server.ConnectorMetrics;
import dev.petrel.server.config.Connector;
import dev.petrel.server.config.TlsConfigException;
import dev.petrel.server.config.TransportKind;
import dev.petrel.server.observe.AccessLogWriter;
import dev.petrel.server.observe.ConnectorCounters;
import dev.petrel.server.tls.CertificateWatcher;
import dev.petrel.server.tls.ReloadableTlsContext;
import dev.petrel.server.tls.ServerCertificate;
import dev.petrel.server.transport.ConnectionLimit;
import dev.petrel.server.transport.Listener;
import dev.petrel.server.transport.ListenerSettings;
import dev.petrel.server.transport.LoopThreads;
import dev.petrel.server.transport.TransportGroup;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The parts of a started server and their lifecycle: the transport group, one listener per
 * connector, the TLS contexts and their watchers, the access log writer and the counters.
 * {@link dev.petrel.server.Server} is the public face; it holds a {@code RunningServer} so that
 * the API never touches a transport, a TLS context or an observer itself.
 */
public final class RunningServer {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server");

    private final List<Listener<?>> listeners; // one per connector, in the plan's order
    private final List<ReloadableTlsContext> tlsContexts; // one per HTTPS connector, in order
    private final List<CertificateWatcher> watchers;
    private final TransportGroup group;
    private final AccessLogWriter accessLog; // null: none
    private final List<ConnectorMetrics> metrics; // one per connector, or none when not counting

    private RunningServer(List<Listener<?>> listeners, List<ReloadableTlsContext> tlsContexts, List<CertificateWatcher> watchers,
                          TransportGroup group, AccessLogWriter accessLog, List<ConnectorMetrics> metrics) {
        this.listeners = List.copyOf(listeners);
        this.tlsContexts = List.copyOf(tlsContexts);
        this.watchers = List.copyOf(watchers);
        this.group = group;
        this.accessLog = accessLog;
        this.metrics = List.copyOf(metrics);
    }

    /**
     * Loads the certificates, opens the transport group and every connector's listener. Whatever
     * fails, nothing is left half started: what was opened is closed before the failure is thrown.
     *
     * @throws java.net.BindException when an address is in use, not available or not an address
     * @throws TlsConfigException when a certificate or key file is missing, bad, mismatched or expired
     */
    public static RunningServer start(ServerPlan plan) throws IOException {
        int limit = plan.connectionLimit();
        FileLimit.warnIfBelow(limit);
        ListenerSettings settings = new ListenerSettings(limit, plan.backlog(), plan.queueTimeout(), plan.config().writeTimeout(),
                plan.config().minResponseRate(), plan.config().headTimeoutWhenFull(), plan.eventLoops());
        ConnectionLimit shared = new ConnectionLimit(limit); // one limit over every connector
        ListenerAssembly assembly = new ListenerAssembly(plan.handler(), plan.config(), plan.http2(), new DateCache(plan.clock()),
                plan.accessLog() != null ? plan.accessLog().format() : null, plan.clock());
        List<ReloadableTlsContext> tlsContexts = new ArrayList<>();
        AccessLogWriter accessLog = null;
        TransportGroup group = null;
        List<Listener<?>> opened = new ArrayList<>();
        List<CertificateWatcher> watchers = new ArrayList<>();
        try {
            for (Connector connector : plan.connectors()) {
                if (connector.kind() == Connector.Kind.HTTPS) {
                    tlsContexts.add(ReloadableTlsContext.load(AlpnOffer.servedOverTls(connector.tls(), plan.http2())));
                }
            }
            accessLog = plan.accessLog() == null ? null : new AccessLogWriter(plan.accessLog().file());
            List<ConnectorCounters> counters = new ArrayList<>();
            if (plan.countMetrics()) plan.connectors().forEach(connector -> counters.add(new ConnectorCounters(connector)));
            group = TransportGroup.open(plan.transport(), settings, LoopThreads.forHandlers(plan.handler().mayBlock()));
            int tlsIndex = 0;
            for (int i = 0; i < plan.connectors().size(); i++) {
                Connector connector = plan.connectors().get(i);
                ReloadableTlsContext tls = connector.kind() == Connector.Kind.HTTPS ? tlsContexts.get(tlsIndex++) : null;
                String bindHost = connector.host() != null ? connector.host() : plan.host();
                Listener<?> listener = assembly.open(group, bindHost, connector, settings, shared, tls, accessLog,
                        plan.countMetrics() ? counters.get(i) : null);
                opened.add(listener);
                if (tls != null && plan.watchCertificates()) watchers.add(CertificateWatcher.start(tls));
                if (connector.kind() == Connector.Kind.AJP && !connector.ajp().requiresSecret()) {
                    LOG.log(System.Logger.Level.WARNING, "AJP on " + listener.address() + " accepts requests without a secret:"
                            + " anyone who can connect to it can claim any client address, scheme and TLS details");
                }
            }
            return new RunningServer(opened, tlsContexts, watchers, group, accessLog, List.copyOf(counters));
        } catch (IOException | RuntimeException | Error e) {
            watchers.forEach(CertificateWatcher::close);
            opened.forEach(Listener::close); // no half-started server, whatever failed
            if (group != null) group.close();
            tlsContexts.forEach(ReloadableTlsContext::close);
            if (accessLog != null) accessLog.close();
            throw e;
        }
    }

    /** The bound addresses (the real ports where port 0 was asked for), in the plan's connector order. */
    public List<InetSocketAddress> addresses() {
        return listeners.stream().<InetSocketAddress>map(Listener::address).toList();
    }

    /** The transport serving connections. */
    public TransportKind transport() {
        return group.kind();
    }

    /** What each connector counted, in order; empty unless the plan counts. */
    public List<ConnectorMetrics> metrics() {
        return metrics;
    }

    /** Connections open now, on every connector. */
    public int liveConnections() {
        int live = 0;
        for (Listener<?> listener : listeners) live += listener.liveConnections();
        return live;
    }

    /** Whether any connector serves TLS. */
    public boolean servesTls() {
        return !tlsContexts.isEmpty();
    }

    /** The certificates the first HTTPS connector gives new connections now, the default first. */
    public List<CertificateInfo> certificates() {
        return firstTls().current().certificates().stream().map(ServerCertificate::info).toList();
    }

    /** What serves TLS on the first HTTPS connector, for logs. */
    public String tlsEngine() {
        return firstTls().current().engines().description();
    }

    private ReloadableTlsContext firstTls() {
        if (tlsContexts.isEmpty()) throw new IllegalStateException("this server has no HTTPS connector");
        return tlsContexts.getFirst();
    }

    /**
     * Re-reads every HTTPS connector's certificate and key files; a connector whose files are
     * missing, bad or expired keeps its current ones, and the first such failure is thrown after
     * the others were tried.
     */
    public void reloadCertificates() throws TlsConfigException {
        TlsConfigException failure = null;
        for (ReloadableTlsContext context : tlsContexts) {
            try {
                context.reload();
            } catch (TlsConfigException e) {
                if (failure == null) failure = e;
            }
        }
        if (failure != null) throw failure;
    }

    /**
     * Stops watching certificates and accepting, lets every listener finish within what is left
     * of {@code grace}, then closes the transports, the TLS contexts and, after the last
     * exchange, the access log. Returns whether everything finished in time.
     */
    public boolean stop(Duration grace) {
        watchers.forEach(CertificateWatcher::close);
        long deadline = System.nanoTime() + grace.toNanos();
        boolean clean = true;
        for (Listener<?> listener : listeners) {
            clean &= listener.stop(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        }
        group.close();
        tlsContexts.forEach(ReloadableTlsContext::close); // engines still open are freed as they close
        if (accessLog != null) accessLog.close(); // every line written
        return clean;
    }

    /** Closes and reopens the access log file (for logrotate); nothing without one. */
    public void reopenAccessLog() {
        if (accessLog != null) accessLog.reopen();
    }

    /** Whether an access log is written. */
    public boolean logsAccess() {
        return accessLog != null;
    }

    /** Access log lines dropped because the writer fell behind (0 without an access log). */
    public long accessLogDropped() {
        return accessLog == null ? 0 : accessLog.dropped();
    }
}
