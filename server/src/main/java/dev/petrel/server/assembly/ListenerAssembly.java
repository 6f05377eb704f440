package dev.petrel.server.assembly;

import dev.petrel.http.DateCache;
import dev.petrel.server.Handler;
import dev.petrel.server.ajp.AjpProtocol;
import dev.petrel.server.config.AccessLog;
import dev.petrel.server.config.Connector;
import dev.petrel.server.config.Http2Config;
import dev.petrel.server.config.ServerConfig;
import dev.petrel.server.config.TrustedProxies;
import dev.petrel.server.engine.connection.ConnectionChain;
import dev.petrel.server.engine.connection.Protocol;
import dev.petrel.server.engine.connection.SelectionStep;
import dev.petrel.server.engine.exchange.ExchangeObserver;
import dev.petrel.server.http1.Http1Protocol;
import dev.petrel.server.http2.Http2Protocol;
import dev.petrel.server.http2.PriorKnowledgeStep;
import dev.petrel.server.observe.AccessLogWriter;
import dev.petrel.server.observe.ConnectorCounters;
import dev.petrel.server.observe.ExchangeRecorder;
import dev.petrel.server.proxy.ProxyProtocolStep;
import dev.petrel.server.tls.ReloadableTlsContext;
import dev.petrel.server.tls.TlsStep;
import dev.petrel.server.transport.ConnectionLimit;
import dev.petrel.server.transport.Listener;
import dev.petrel.server.transport.ListenerSettings;
import dev.petrel.server.transport.TransportGroup;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a connector's listener from the parts the server is made of: the selection chain (the
 * PROXY header, TLS, the h2c preface), the protocols behind it, and what observes the exchanges.
 * {@link dev.petrel.server.Server} holds the settings and the lifecycle; how the parts are wired
 * lives here, so that the public API does not reach into the engine.
 */
public final class ListenerAssembly {
    private final Handler handler;
    private final ServerConfig config;
    private final Http2Config http2;
    private final DateCache dates;
    private final AccessLog.Format accessLogFormat; // null: no access log
    private final InstantSource clock;

    /**
     * Listeners serving {@code handler} with {@code config} and {@code http2}, dating responses from
     * {@code dates}, logging access in {@code accessLogFormat} (null when there is no access log)
     * with times from {@code clock}.
     */
    public ListenerAssembly(Handler handler, ServerConfig config, Http2Config http2, DateCache dates,
                            AccessLog.Format accessLogFormat, InstantSource clock) {
        this.handler = handler;
        this.config = config;
        this.http2 = http2;
        this.dates = dates;
        this.accessLogFormat = accessLogFormat;
        this.clock = clock;
    }

    /**
     * Opens {@code connector}'s listener on {@code listenHost} in {@code group}: over {@code tls}
     * when it is an HTTPS connector (else null), its exchanges logged to {@code accessLog} and
     * counted in {@code counters} (either null for none). A bind failure names the address, since
     * a server may have several. An address that does not resolve is refused here, alike on every
     * transport: a channel would throw an unchecked {@code UnresolvedAddressException}, a socket a
     * bare "Unresolved address".
     */
    public Listener<?> open(TransportGroup group, String listenHost, Connector connector, ListenerSettings settings,
                            ConnectionLimit limit, ReloadableTlsContext tls, AccessLogWriter accessLog,
                            ConnectorCounters counters) throws IOException {
        int listenPort = connector.port();
        InetSocketAddress address = new InetSocketAddress(listenHost, listenPort);
        if (address.isUnresolved()) {
            throw new BindException(listenHost + ":" + listenPort + ": no such address (neither an IP address nor a name that resolves)");
        }
        Protocol protocol = protocolFor(connector, tls, observer(accessLog, counters), counters);
        try {
            return Listener.open(group, address, settings, limit, protocol, counters);
        } catch (BindException e) {
            BindException named = new BindException(listenHost + ":" + listenPort + ": " + e.getMessage());
            named.initCause(e);
            throw named;
        } catch (SocketException e) {
            throw new SocketException(listenHost + ":" + listenPort + ": " + e.getMessage(), e);
        }
    }

    /** What records a connector's exchanges: the access log and the connector's counters, when there is either. */
    private ExchangeObserver observer(AccessLogWriter accessLog, ConnectorCounters counters) {
        if (accessLog == null && counters == null) return ExchangeObserver.NONE;
        return new ExchangeRecorder(accessLog, accessLogFormat, clock, ZoneId.systemDefault(), counters);
    }

    /**
     * What a connector's connections go through: its selection chain (the PROXY header, then
     * TLS) and the protocol it speaks, with forwarding believed from its trusted proxies.
     */
    private Protocol protocolFor(Connector connector, ReloadableTlsContext tls, ExchangeObserver observer,
                                 ConnectorCounters counters) {
        TrustedProxies trusted = TrustedProxies.of(connector.trustedProxies());
        List<SelectionStep> steps = new ArrayList<>();
        if (connector.proxyProtocol()) steps.add(new ProxyProtocolStep(trusted, config.headerTimeout()));
        if (connector.kind() == Connector.Kind.AJP) {
            return new ConnectionChain(steps, Map.of(), new AjpProtocol(handler, observer, config, connector.ajp()));
        }
        Protocol http1 = new Http1Protocol(handler, observer, config, dates, trusted);
        Map<String, Protocol> byName = new HashMap<>();
        byName.put("http/1.1", http1);
        if (http2.enabled()) {
            Protocol h2 = new Http2Protocol(handler, observer, config, http2, dates, trusted);
            if (tls != null) {
                byName.put(Http2Protocol.ALPN, h2);
            } else if (http2.clearText()) {
                steps.add(new PriorKnowledgeStep(config.headerTimeout()));
                byName.put(PriorKnowledgeStep.protocolName(), h2);
            }
        }
        if (tls != null) steps.add(new TlsStep(tls, http1.clearTextOnTlsPortAnswer(), counters));
        return new ConnectionChain(steps, byName, http1);
    }
}
