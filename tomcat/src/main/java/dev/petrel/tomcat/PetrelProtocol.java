package dev.petrel.tomcat;

import dev.petrel.http.HttpLimits;
import dev.petrel.server.config.Connector;
import dev.petrel.server.config.Http2Config;
import dev.petrel.server.Server;
import dev.petrel.server.config.ServerConfig;
import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TransportKind;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.coyote.Adapter;
import org.apache.coyote.ProtocolHandler;
import org.apache.coyote.UpgradeProtocol;
import org.apache.coyote.http2.Http2Protocol;
import org.apache.juli.logging.Log;
import org.apache.juli.logging.LogFactory;
import org.apache.tomcat.util.net.SSLHostConfig;

/**
 * What Petrel's Coyote protocol handlers share: the {@code <Connector>} attributes Tomcat users
 * set, the lifecycle Catalina drives, and a Petrel {@link Server} with one listener whose
 * handler hands each exchange to Catalina through a {@link PetrelProcessor}.
 *
 * <p>Attributes are set by Catalina by name, as for Tomcat's own protocols ({@code setPort},
 * {@code setTransport}, ...); one Petrel does not have is logged once as ignored, never dropped
 * silently.
 */
public abstract class PetrelProtocol implements ProtocolHandler {
    private static final Log LOG = LogFactory.getLog(PetrelProtocol.class);
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    private final ConcurrentLinkedQueue<PetrelProcessor> idle = new ConcurrentLinkedQueue<>();
    private final AsyncTimeouts asyncTimeouts = new AsyncTimeouts();
    private final RequestStatistics statistics = new RequestStatistics();
    private final UnboundEndpoint unboundEndpoint = new UnboundEndpoint();
    private final ConnectorThreadPool threadPool = new ConnectorThreadPool(this);
    private Adapter adapter;
    private Executor executor;
    private ExecutorService ownExecutor;
    private ScheduledExecutorService utilityExecutor;
    private ScheduledExecutorService ownUtilityExecutor;
    private volatile Server server;
    private volatile boolean paused;

    private int port = 8080;
    private int portOffset;
    private InetAddress address;
    private TransportKind transport = TransportKind.NIO;
    private int maxConnections = 8192;
    private int acceptCount = 100;
    private int connectionTimeout = 60_000;
    private int keepAliveTimeout = -1;
    private int maxKeepAliveRequests = 100;
    private int gracefulStopMillis = 10_000;
    private long maxBodySize = Long.MAX_VALUE;
    private int maxHttpRequestHeaderSize = -1; // -1: Petrel's own limits (HttpLimits.DEFAULT)
    private long maxSwallowSize = ServerConfig.DEFAULT.maxDrainBytes();
    private boolean sslEnabled;
    private String tlsEngine; // null: TlsConfig's default (jsse, unless petrel.tls.engine says otherwise)
    private volatile Http2Protocol http2; // the <UpgradeProtocol> element that turns HTTP/2 on, or null
    private final List<SSLHostConfig> sslHostConfigs = new CopyOnWriteArrayList<>();
    private String defaultSslHostConfigName = SslHostConfigs.DEFAULT_HOST;
    private boolean useSendfile = true;

    /** The connector Petrel listens with: HTTP, HTTPS ({@code tls} not null) or AJP, on {@code host} and {@code port}. */
    abstract Connector connector(String host, int port, TlsConfig tls);

    /** A request header's name as Tomcat's own connector for this protocol gives it to applications. */
    String headerName(String name) {
        return name;
    }

    /** Whether an application can upgrade the connection ({@code HttpServletRequest.upgrade}): HTTP/1.1 can, AJP cannot. */
    abstract boolean carriesUpgrade();

    /** Whether the protocol can send response trailers (HTTP/1.1 can, AJP cannot). */
    abstract boolean carriesTrailers();

    /** The name Tomcat's logs and JMX know this connector by, as {@code http-nio-8080} for NIO. */
    abstract String namePrefix();

    // ---- attributes of <Connector>

    /** The port to listen on; 0 picks a free one ({@link #getLocalPort()}). Default 8080. */
    public int getPort() {
        return port;
    }

    public void setPort(int port) {
        this.port = port;
    }

    /** Added to {@link #getPort()} when binding (Tomcat's {@code portOffset}, for several instances on one host). */
    public int getPortOffset() {
        return portOffset;
    }

    public void setPortOffset(int portOffset) {
        this.portOffset = portOffset;
    }

    /** The port bound, once started; -1 before. */
    public int getLocalPort() {
        Server s = server;
        return s == null ? -1 : s.connectors().isEmpty() ? -1 : s.addresses().getFirst().getPort();
    }

    /** The address to bind; all addresses when unset, as Tomcat's. */
    public InetAddress getAddress() {
        return address;
    }

    public void setAddress(InetAddress address) {
        this.address = address;
    }

    /** Petrel's transport: {@code blocking}, {@code virtual} or {@code nio} (default). */
    public String getTransport() {
        return transport.cliName();
    }

    public void setTransport(String transport) {
        this.transport = TransportKind.fromCliName(transport);
    }

    /** Connections open at once; further ones wait (Tomcat's {@code maxConnections}, default 8192). */
    public int getMaxConnections() {
        return maxConnections;
    }

    public void setMaxConnections(int maxConnections) {
        this.maxConnections = maxConnections;
    }

    /** The kernel's accept backlog (Tomcat's {@code acceptCount}, default 100). */
    public int getAcceptCount() {
        return acceptCount;
    }

    public void setAcceptCount(int acceptCount) {
        this.acceptCount = acceptCount;
    }

    /** Milliseconds a new connection may take to send its request head (default 60000). */
    public int getConnectionTimeout() {
        return connectionTimeout;
    }

    public void setConnectionTimeout(int connectionTimeout) {
        this.connectionTimeout = connectionTimeout;
    }

    /** Milliseconds a kept-alive connection may wait for its next request; -1: {@code connectionTimeout}. */
    public int getKeepAliveTimeout() {
        return keepAliveTimeout;
    }

    public void setKeepAliveTimeout(int keepAliveTimeout) {
        this.keepAliveTimeout = keepAliveTimeout;
    }

    /** Requests per connection; 1 turns keep-alive off, -1 sets no limit (default 100). */
    public int getMaxKeepAliveRequests() {
        return maxKeepAliveRequests;
    }

    public void setMaxKeepAliveRequests(int maxKeepAliveRequests) {
        this.maxKeepAliveRequests = maxKeepAliveRequests;
    }

    /**
     * The largest request body Petrel reads, in bytes (413 beyond); unlimited by default, as on
     * Tomcat's connectors, where {@code maxPostSize} and the application's own checks apply.
     */
    public long getMaxBodySize() {
        return maxBodySize;
    }

    public void setMaxBodySize(long maxBodySize) {
        this.maxBodySize = maxBodySize;
    }

    /**
     * The largest request head Petrel reads, in bytes, as Tomcat's {@code maxHttpRequestHeaderSize}
     * (Spring Boot's {@code server.max-http-request-header-size}): the request line may be this
     * long (400, or 414 when the target overflows) and so may the header fields together (431).
     * -1, the default, keeps Petrel's own limits: 8 KiB for the request line, 16 KiB of fields.
     */
    public int getMaxHttpRequestHeaderSize() {
        return maxHttpRequestHeaderSize;
    }

    /**
     * Sets the largest request head in bytes (see {@link #getMaxHttpRequestHeaderSize()}); at
     * least 16, or -1 for Petrel's own limits.
     */
    public void setMaxHttpRequestHeaderSize(int maxHttpRequestHeaderSize) {
        if (maxHttpRequestHeaderSize != -1 && maxHttpRequestHeaderSize < 16) {
            throw new IllegalArgumentException("maxHttpRequestHeaderSize must be at least 16 bytes, or -1: " + maxHttpRequestHeaderSize);
        }
        this.maxHttpRequestHeaderSize = maxHttpRequestHeaderSize;
    }

    /**
     * Request body bytes an application left unread that Petrel reads and discards to keep the
     * connection for the next request; beyond them the connection is closed. Tomcat's
     * {@code maxSwallowSize} (Spring Boot's {@code server.tomcat.max-swallow-size}); a negative
     * value sets no limit. Default: Petrel's 64 KiB.
     */
    public long getMaxSwallowSize() {
        return maxSwallowSize;
    }

    /** Sets the unread request body bytes discarded to keep a connection (see {@link #getMaxSwallowSize()}). */
    public void setMaxSwallowSize(long maxSwallowSize) {
        this.maxSwallowSize = maxSwallowSize;
    }

    /**
     * False: Petrel binds its port when the connector starts, never at init (Tomcat's
     * {@code bindOnInit="false"}). Read-only; Spring Boot reads it and, finding it set, leaves it.
     */
    public boolean getBindOnInit() {
        return false;
    }

    /** Whether this connector speaks TLS, with the certificates of its {@code <SSLHostConfig>} (default false). */
    public boolean getSSLEnabled() {
        return sslEnabled;
    }

    public void setSSLEnabled(boolean sslEnabled) {
        this.sslEnabled = sslEnabled;
    }

    /**
     * Petrel's TLS engine: {@code jsse} (the JDK's, the default) or {@code native} (BoringSSL,
     * needs {@code petrel-tls-native} beside this module); Tomcat's {@code sslImplementationName}
     * sets it too.
     */
    public String getTlsEngine() {
        return tlsEngine == null ? TlsConfig.defaultEngine() : tlsEngine;
    }

    public void setTlsEngine(String tlsEngine) {
        this.tlsEngine = tlsEngine;
    }

    /**
     * The {@code <SSLHostConfig hostName>} served to clients that name no host with one of its
     * own, or none (Tomcat's {@code defaultSSLHostConfigName}, default {@code _default_}).
     */
    public String getDefaultSSLHostConfigName() {
        return defaultSslHostConfigName;
    }

    public void setDefaultSSLHostConfigName(String name) {
        this.defaultSslHostConfigName = name;
    }

    /**
     * Tomcat's way to choose the TLS implementation, kept so that a {@code server.xml} written for
     * Tomcat's own connectors means the same here: an OpenSSL implementation
     * ({@code org.apache.tomcat.util.net.openssl.OpenSSLImplementation}, or the one under
     * {@code openssl.panama}) chooses the native engine, {@code JSSEImplementation} the JDK's.
     */
    public void setSslImplementationName(String name) {
        this.tlsEngine = name.contains(".openssl.") ? TlsConfig.NATIVE : TlsConfig.JSSE;
    }

    /**
     * What serves TLS while started, e.g. {@code BoringSSL (netty-tcnative 2.0.84.Final)}: read-only,
     * for JMX and logs; null without TLS or before start.
     */
    public String getTlsEngineInUse() {
        Server running = server;
        return running == null || !running.servesHttps() ? null : running.tlsEngine();
    }

    /** Milliseconds {@link #stop()} lets requests in flight finish (default 10000). */
    public int getGracefulStopMillis() {
        return gracefulStopMillis;
    }

    public void setGracefulStopMillis(int gracefulStopMillis) {
        this.gracefulStopMillis = gracefulStopMillis;
    }

    /** The connector's name in Tomcat's logs, e.g. {@code petrel-http-8080}. */
    public String getName() {
        int local = getLocalPort();
        return namePrefix() + "-" + (local > 0 ? local : port);
    }

    /**
     * Catalina's fallback for an attribute this protocol has no setter for: logged once as
     * ignored (a Tomcat attribute Petrel does not take, such as {@code maxThreads}), so that
     * nothing is dropped silently.
     *
     * @return true: the attribute was seen and reported
     */
    public boolean setProperty(String name, String value) {
        if (WARNED.add(getClass().getSimpleName() + "." + name)) {
            LOG.warn("Petrel connector: attribute [" + name + "=\"" + value + "\"] is not supported and is ignored");
        }
        return true;
    }

    // ---- ProtocolHandler

    @Override
    public Adapter getAdapter() {
        return adapter;
    }

    @Override
    public void setAdapter(Adapter adapter) {
        this.adapter = adapter;
    }

    @Override
    public Executor getExecutor() {
        return executor;
    }

    /** Catalina's shared {@code <Executor>}, when the connector names one: async dispatches run there. */
    @Override
    public void setExecutor(Executor executor) {
        this.executor = executor;
    }

    @Override
    public ScheduledExecutorService getUtilityExecutor() {
        return utilityExecutor;
    }

    @Override
    public void setUtilityExecutor(ScheduledExecutorService utilityExecutor) {
        this.utilityExecutor = utilityExecutor;
    }

    @Override
    public void init() {
        LOG.info("Initializing Petrel connector [" + getName() + "], transport " + transport.cliName());
    }

    @Override
    public void start() throws IOException {
        if (executor == null) {
            ownExecutor = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name(namePrefix() + "-async-", 0).factory());
            executor = ownExecutor;
        }
        if (utilityExecutor == null) {
            ownUtilityExecutor = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                    .name(namePrefix() + "-utility").factory());
            utilityExecutor = ownUtilityExecutor;
        }
        String host = address == null ? "0.0.0.0" : address.getHostAddress();
        server = Server.builder()
                .connector(connector(host, port == 0 ? 0 : port + portOffset, sslEnabled ? SslHostConfigs.toTlsConfig(sslHostConfigs, defaultSslHostConfigName, getName(), tlsEngine) : null))
                .transport(transport)
                .maxConnections(maxConnections)
                .backlog(acceptCount)
                .config(config())
                // as Tomcat's own connector: HTTP/2 only under an <UpgradeProtocol> element
                .http2(http2Config())
                .shutdownGrace(Duration.ofMillis(gracefulStopMillis))
                .handler(new CoyoteHandler(this))
                .start();
        asyncTimeouts.start(utilityExecutor);
        // named once bound, so that port 0 (any free port) gives the port taken, as in the log
        statistics.register(adapter == null ? null : adapter.getDomain(), getName());
        threadPool.register(adapter == null ? null : adapter.getDomain(), getName());
        LOG.info("Starting Petrel connector [" + getName() + "] on " + server.addresses()
                + (server.servesHttps() ? ", TLS by " + server.tlsEngine() : ""));
    }

    private ServerConfig config() {
        HttpLimits limits = ServerConfig.DEFAULT.limits().withMaxBodySize(maxBodySize);
        if (maxHttpRequestHeaderSize > 0) {
            // Tomcat bounds the whole head; Petrel bounds the line and the fields apart, each by the same size
            limits = limits.withMaxRequestLineLength(maxHttpRequestHeaderSize).withMaxHeaderSectionSize(maxHttpRequestHeaderSize);
        }
        ServerConfig config = ServerConfig.DEFAULT
                .withLimits(limits)
                .withMaxDrainBytes(maxSwallowSize < 0 ? Long.MAX_VALUE : maxSwallowSize)
                .withHeaderTimeout(Duration.ofMillis(connectionTimeout))
                .withIdleTimeout(Duration.ofMillis(keepAliveTimeout < 0 ? connectionTimeout : keepAliveTimeout));
        int perConnection = maxKeepAliveRequests < 0 ? Integer.MAX_VALUE : Math.max(1, maxKeepAliveRequests);
        return config.withMaxRequestsPerConnection(perConnection);
    }

    /** New requests are answered 503 and their connections closed until {@link #resume()}. */
    @Override
    public void pause() {
        paused = true;
    }

    @Override
    public void resume() {
        paused = false;
    }

    @Override
    public void stop() {
        asyncTimeouts.stop();
        Server s = server;
        if (s != null) {
            s.stop(Duration.ofMillis(gracefulStopMillis));
            server = null;
        }
        if (ownExecutor != null) {
            ownExecutor.shutdownNow();
            ownExecutor = null;
            executor = null;
        }
        if (ownUtilityExecutor != null) {
            ownUtilityExecutor.shutdownNow();
            ownUtilityExecutor = null;
            utilityExecutor = null;
        }
        idle.clear();
        LOG.info("Stopped Petrel connector [" + getName() + "]");
    }

    @Override
    public void destroy() {
        statistics.unregister(); // stop() released everything else
        threadPool.unregister();
    }

    /** Turns new requests away (503, connection closed) while those in flight finish. */
    @Override
    public void closeServerSocketGraceful() {
        paused = true;
    }

    @Override
    public long awaitConnectionsClose(long waitMillis) {
        long deadline = System.currentTimeMillis() + waitMillis;
        Server s = server;
        while (s != null && s.liveConnections() > 0 && System.currentTimeMillis() < deadline) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return Math.max(0, deadline - System.currentTimeMillis());
    }

    /**
     * Tomcat's sendfile, which the DefaultServlet uses for files over its {@code sendfileSize}
     * (48 KiB) when this answers true: {@code useSendfile} is on, and the connector's responses can
     * carry a file's bytes from the page cache to the socket without the heap, as Petrel's
     * {@code Response.sendFile} does on plain HTTP/1.1 over {@code nio} ({@link Sendfile}). Over
     * TLS, AJP or another transport the bytes would be copied through the heap anyway, so the
     * servlet writes them itself, as Tomcat's rule has it.
     */
    @Override
    public boolean isSendfileSupported() {
        return useSendfile && transport == TransportKind.NIO && !sslEnabled && carriesFilesAsTheyAre();
    }

    /** Whether a file's bytes go on the wire as they are: in an HTTP/1.1 body they do; AJP wraps them in packets. */
    boolean carriesFilesAsTheyAre() {
        return true;
    }

    /** Whether large static files may be sent by sendfile (Tomcat's {@code useSendfile}, default true); see {@link #isSendfileSupported()}. */
    public boolean getUseSendfile() {
        return useSendfile;
    }

    public void setUseSendfile(boolean useSendfile) {
        this.useSendfile = useSendfile;
    }

    @Override
    public void addSslHostConfig(SSLHostConfig sslHostConfig) {
        addSslHostConfig(sslHostConfig, false);
    }

    @Override
    public void addSslHostConfig(SSLHostConfig sslHostConfig, boolean replace) {
        sslHostConfigs.removeIf(c -> c.getHostName().equals(sslHostConfig.getHostName()));
        sslHostConfigs.add(sslHostConfig);
    }

    /** The {@code <SSLHostConfig>} elements; with {@code SSLEnabled}, each host's certificates are served to the clients naming it. */
    @Override
    public SSLHostConfig[] findSslHostConfigs() {
        return sslHostConfigs.toArray(SSLHostConfig[]::new);
    }

    /**
     * {@code <UpgradeProtocol className="org.apache.coyote.http2.Http2Protocol"/>} turns on Petrel's
     * own HTTP/2 on an HTTP connector ({@link Http2ProtocolSettings}: {@code h2} by ALPN over TLS,
     * {@code h2c} with prior knowledge on a plain port); any other upgrade protocol, or one on AJP,
     * is reported as ignored.
     */
    @Override
    public void addUpgradeProtocol(UpgradeProtocol upgradeProtocol) {
        if (upgradeProtocol instanceof Http2Protocol h2 && carriesUpgrade()) {
            http2 = h2;
            return;
        }
        LOG.warn("Petrel connector [" + getName() + "]: <UpgradeProtocol> " + upgradeProtocol.getClass().getName()
                + " is not supported " + (carriesUpgrade() ? "(only Tomcat's Http2Protocol is)" : "on AJP") + " and is ignored");
    }

    @Override
    public UpgradeProtocol[] findUpgradeProtocols() {
        return http2 == null ? new UpgradeProtocol[0] : new UpgradeProtocol[] {http2};
    }

    /** HTTP/2 as the {@code <UpgradeProtocol>} element sets it, or off without one; its unmapped attributes warned. */
    private Http2Config http2Config() {
        if (http2 == null) return Http2Config.DISABLED;
        Http2ProtocolSettings settings = Http2ProtocolSettings.of(http2, sslEnabled);
        for (String attribute : settings.ignored()) {
            LOG.warn("Petrel connector [" + getName() + "]: <UpgradeProtocol> attribute [" + attribute + "] has no"
                    + " counterpart in Petrel's HTTP/2 and is ignored (it uses the connector's timeouts and header limits)");
        }
        return settings.config();
    }

    // ---- for the processors

    boolean paused() {
        return paused;
    }

    /** Where async dispatches run: the connector's executor, each task counted as a busy thread while it runs. */
    Executor executor() {
        Executor e = executor;
        return e == null ? null : task -> e.execute(threadPool.counted(task));
    }

    /** The connector's executor as it is, for a task that mostly waits and counts its own busy part. */
    Executor uncountedExecutor() {
        return executor;
    }

    /** The connector's thread figures: {@link CoyoteHandler} counts the threads serving exchanges into it. */
    ConnectorThreadPool threadPool() {
        return threadPool;
    }

    /** Connections open now, 0 when stopped. */
    int liveConnections() {
        Server s = server;
        return s == null ? 0 : s.liveConnections();
    }

    /** The transport, for figures that depend on its threading. */
    TransportKind transportKind() {
        return transport;
    }

    /** The Tomcat endpoint every upgraded connection's socket wrapper names. */
    UnboundEndpoint unboundEndpoint() {
        return unboundEndpoint;
    }

    AsyncTimeouts asyncTimeouts() {
        return asyncTimeouts;
    }

    /** A processor for the next exchange: a recycled one, or a new one, counted into the connector's statistics. */
    PetrelProcessor processor() {
        PetrelProcessor processor = idle.poll();
        if (processor != null) return processor;
        processor = new PetrelProcessor(this, adapter);
        statistics.add(processor.requestInfo());
        return processor;
    }

    /** The connector's request statistics, summed over its processors (as JMX publishes them). */
    public org.apache.coyote.RequestGroupInfo getRequestGroupInfo() {
        return statistics.global();
    }

    /** A processor whose exchange is over, for the next one. */
    void release(PetrelProcessor processor) {
        idle.offer(processor);
    }
}
