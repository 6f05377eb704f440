package dev.petrel.server;

import dev.petrel.http.HttpLimits;
import dev.petrel.server.assembly.RunningServer;
import dev.petrel.server.assembly.ServerPlan;
import dev.petrel.server.config.AccessLog;
import dev.petrel.server.config.AjpConfig;
import dev.petrel.server.config.Connector;
import dev.petrel.server.config.Http2Config;
import dev.petrel.server.config.ServerConfig;
import dev.petrel.server.config.TlsConfig;
import dev.petrel.server.config.TlsConfigException;
import dev.petrel.server.config.TransportKind;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A Petrel server: one handler served over any number of connectors ({@link Connector}), each an
 * address and port with its protocol: plain HTTP, HTTPS, or AJP/1.3 to a front end such as Apache
 * httpd. HTTP/2 is spoken on HTTPS connectors chosen by ALPN, and on plain ones by prior knowledge
 * when {@link Http2Config} allows it. The connectors share one transport group (the transport's
 * threads and event loops), the connection limit, the settings and the handler.
 *
 * <pre>{@code
 * Server server = Server.builder()
 *         .port(8080)
 *         .https(8443, TlsConfig.pem(Path.of("cert.pem"), Path.of("key.pem")))
 *         .handler((request, response) -> response.send("HelloWorld"))
 *         .start();
 * ...
 * server.stop(Duration.ofSeconds(10)); // finish in-flight requests, then close
 * }</pre>
 */
public final class Server implements AutoCloseable {
    private final List<Connector> connectors;
    private final RunningServer running; // the listeners, transports, TLS contexts and observers
    private final List<InetSocketAddress> addresses; // in the order of connectors
    private final Duration shutdownGrace;
    private volatile boolean stopping;

    private Server(List<Connector> connectors, RunningServer running, Duration shutdownGrace) {
        this.connectors = List.copyOf(connectors);
        this.running = running;
        this.addresses = running.addresses();
        this.shutdownGrace = shutdownGrace;
    }

    /** A builder with the defaults: 127.0.0.1:8080, plain HTTP only, the nio transport, {@link ServerConfig#DEFAULT}. */
    public static Builder builder() {
        return new Builder();
    }

    /** The connectors, in the order they were given. */
    public List<Connector> connectors() {
        return connectors;
    }

    /** The bound addresses (with the real ports where port 0 was asked for), in the order of {@link #connectors()}. */
    public List<InetSocketAddress> addresses() {
        return addresses;
    }

    /** The first plain HTTP address, else the first HTTPS one, else the first AJP one. */
    public InetSocketAddress address() {
        for (Connector.Kind kind : Connector.Kind.values()) {
            InetSocketAddress first = first(kind);
            if (first != null) return first;
        }
        throw new IllegalStateException("no connector"); // never: start() refuses a server without one
    }

    private InetSocketAddress first(Connector.Kind kind) {
        for (int i = 0; i < connectors.size(); i++) {
            if (connectors.get(i).kind() == kind) return addresses.get(i);
        }
        return null;
    }

    private InetSocketAddress firstAddress(Connector.Kind kind) {
        InetSocketAddress first = first(kind);
        if (first == null) throw new IllegalStateException("this server has no " + kind + " connector");
        return first;
    }

    /**
     * The first AJP connector's address.
     *
     * @throws IllegalStateException when the server has no AJP connector
     */
    public InetSocketAddress ajpAddress() {
        return firstAddress(Connector.Kind.AJP);
    }

    /** Whether the server listens for AJP. */
    public boolean servesAjp() {
        return first(Connector.Kind.AJP) != null;
    }

    /**
     * The first HTTPS connector's address.
     *
     * @throws IllegalStateException when the server has no HTTPS connector
     */
    public InetSocketAddress httpsAddress() {
        return firstAddress(Connector.Kind.HTTPS);
    }

    /** Whether the server listens for plain HTTP. */
    public boolean servesPlainHttp() {
        return first(Connector.Kind.HTTP) != null;
    }

    /** Whether the server listens for HTTPS. */
    public boolean servesHttps() {
        return first(Connector.Kind.HTTPS) != null;
    }

    /** The transport serving connections. */
    public TransportKind transport() {
        return running.transport();
    }

    /**
     * What each connector counted, in the order of {@link #connectors()}; empty unless the server
     * was built with {@link Builder#metrics(boolean) metrics(true)}.
     */
    public List<ConnectorMetrics> metrics() {
        return running.metrics();
    }

    /**
     * Whether the server takes new work: true from the moment {@link Builder#start()} returns until
     * {@link #stop} begins, false while it drains and after. A health check answers from this, so
     * that a load balancer stops sending requests before the connections close.
     */
    public boolean ready() {
        return !stopping;
    }

    /** Connections open now, on every connector. */
    public int liveConnections() {
        return running.liveConnections();
    }

    /**
     * The certificates the first HTTPS connector gives new connections now, the default (for
     * clients that name no host it has) first.
     *
     * @throws IllegalStateException when the server has no HTTPS connector
     */
    public List<CertificateInfo> certificates() {
        return running.certificates();
    }

    /**
     * What serves TLS on the first HTTPS connector, for logs: e.g. {@code JSSE (JDK 25.0.1)} or
     * {@code BoringSSL (netty-tcnative 2.0.84.Final)}.
     *
     * @throws IllegalStateException when the server has no HTTPS connector
     */
    public String tlsEngine() {
        return running.tlsEngine();
    }

    /**
     * Re-reads the certificate and key files of every HTTPS connector and serves them to new
     * connections; open ones keep theirs. When a file is missing, bad or expired, that
     * connector's current certificates stay.
     *
     * @return the first HTTPS connector's certificates now, as {@link #certificates()}
     * @throws TlsConfigException with one line saying what is wrong with which file
     * @throws IllegalStateException when the server has no HTTPS connector
     */
    public List<CertificateInfo> reloadCertificates() throws TlsConfigException {
        if (!running.servesTls()) throw new IllegalStateException("this server has no HTTPS connector");
        running.reloadCertificates();
        return certificates();
    }

    /**
     * Stops accepting, lets requests in flight finish within {@code grace}, then closes what is
     * left. Returns whether everything finished in time.
     */
    public boolean stop(Duration grace) {
        stopping = true;
        return running.stop(grace);
    }

    /**
     * Closes and reopens the access log file, for {@code logrotate}: run after it moved the file
     * away (the command line does it on SIGHUP and SIGUSR1). Nothing without an access log file.
     */
    public void reopenAccessLog() {
        running.reopenAccessLog();
    }

    /** Whether this server writes an access log. */
    public boolean logsAccess() {
        return running.logsAccess();
    }

    /** Access log lines dropped because the writer fell behind (0 without an access log). */
    public long accessLogDropped() {
        return running.accessLogDropped();
    }

    /** Stops with the configured grace period. */
    @Override
    public void close() {
        stop(shutdownGrace);
    }

    /** Server settings; {@link #start()} binds and starts accepting. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port = 8080;
        private TransportKind transport = TransportKind.NIO;
        private int maxConnections = -1;
        private int backlog = 1024;
        private Duration queueTimeout = Duration.ofSeconds(10);
        private int eventLoops = Runtime.getRuntime().availableProcessors();
        private ServerConfig config = ServerConfig.DEFAULT;
        private Http2Config http2 = Http2Config.DEFAULT;
        private Duration shutdownGrace = Duration.ofSeconds(10);
        private InstantSource clock = InstantSource.system();
        private Handler handler;
        private AccessLog accessLog;
        private boolean countMetrics;
        private boolean plainHttp = true;
        private int httpsPort = -1;
        private TlsConfig tlsConfig;
        private boolean watchCertificates;
        private int ajpPort = -1;
        private AjpConfig ajpConfig;
        private boolean portSet;
        private boolean proxyProtocol;
        private String[] trustedProxies = new String[0];
        private final List<Connector> connectors = new ArrayList<>();

        private Builder() {}

        /**
         * Adds a connector (see {@link Connector}): any number, each with its own address and
         * options. Once one is added, the plain HTTP port of {@link #port(int)} is served only if
         * {@code port} is called too; {@link #https} and {@link #ajp} add theirs as before.
         */
        public Builder connector(Connector connector) {
            connectors.add(Objects.requireNonNull(connector, "connector"));
            return this;
        }

        /**
         * Whether the HTTP and HTTPS ports of {@link #port(int)} and {@link #https} require a PROXY
         * protocol header from their {@linkplain #trustedProxies trusted proxies} (default false;
         * see {@link Connector#proxyProtocol(boolean)}).
         */
        public Builder proxyProtocol(boolean required) {
            this.proxyProtocol = required;
            return this;
        }

        /**
         * The proxies the HTTP and HTTPS ports of {@link #port(int)} and {@link #https} trust (see
         * {@link Connector#trustedProxies(String...)}); none by default.
         */
        public Builder trustedProxies(String... cidrs) {
            Connector.http(0).trustedProxies(cidrs); // refuses what is not an address or a CIDR block, now
            this.trustedProxies = cidrs.clone();
            return this;
        }

        /** The address to bind: a name or IP literal; {@code 0.0.0.0} or {@code ::} for all. */
        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        /** The plain HTTP port; 0 picks a free one (see {@link Server#address()}). */
        public Builder port(int port) {
            this.port = checkPort(port);
            this.portSet = true;
            return this;
        }

        /**
         * Serves HTTPS on {@code port} (0 picks a free one, see {@link Server#httpsAddress()}) with
         * the certificates of {@code config}, beside plain HTTP unless {@link #plainHttp(boolean)}
         * turns that off. Same host, transport, limits and handler as plain HTTP.
         */
        public Builder https(int port, TlsConfig config) {
            this.httpsPort = checkPort(port);
            this.tlsConfig = Objects.requireNonNull(config, "config");
            return this;
        }

        /**
         * Serves AJP/1.3 on {@code port} (0 picks a free one, see {@link Server#ajpAddress()}) for a
         * front end such as Apache httpd with mod_jk or mod_proxy_ajp: same transport, limits and
         * handler as HTTP, on the host of {@code config} ({@code 127.0.0.1} by default). A
         * listener without a secret logs a warning at start.
         */
        public Builder ajp(int port, AjpConfig config) {
            this.ajpPort = checkPort(port);
            this.ajpConfig = Objects.requireNonNull(config, "config");
            return this;
        }

        /** Whether to listen for plain HTTP on {@link #port(int)} (default true); false needs {@link #https} or {@link #ajp}. */
        public Builder plainHttp(boolean enabled) {
            this.plainHttp = enabled;
            return this;
        }

        /**
         * Whether to reload the certificates when their files change (default false; see
         * {@link Server#reloadCertificates()} to reload on demand).
         */
        public Builder watchCertificates(boolean watch) {
            this.watchCertificates = watch;
            return this;
        }

        private static int checkPort(int port) {
            if (port < 0 || port > 65535) throw new IllegalArgumentException("port must be 0 to 65535: " + port);
            return port;
        }

        /** The transport. */
        public Builder transport(TransportKind transport) {
            this.transport = Objects.requireNonNull(transport, "transport");
            return this;
        }

        /**
         * Connections served at once, over every listener together; more wait in the accept backlog, then are turned away (see
         * {@link #queueTimeout}). Default: the transport's own, {@link TransportKind#defaultMaxConnections()}.
         */
        public Builder maxConnections(int maxConnections) {
            if (maxConnections < 1) throw new IllegalArgumentException("maxConnections must be positive");
            this.maxConnections = maxConnections;
            return this;
        }

        /**
         * How long the server may be at {@code maxConnections} before it turns new connections
         * away with {@code 503 Service Unavailable} and {@code Retry-After} instead of letting them
         * wait in the backlog (default 10 s; zero turns them away at once).
         */
        public Builder queueTimeout(Duration queueTimeout) {
            Objects.requireNonNull(queueTimeout, "queueTimeout");
            if (queueTimeout.isNegative()) throw new IllegalArgumentException("queueTimeout must not be negative");
            this.queueTimeout = queueTimeout;
            return this;
        }

        /** Selector threads of the {@code nio} transport (default: one per available processor). */
        public Builder eventLoops(int eventLoops) {
            if (eventLoops < 1) throw new IllegalArgumentException("eventLoops must be positive");
            this.eventLoops = eventLoops;
            return this;
        }

        /** The accept backlog asked of the kernel (default 1024; the kernel may cap it). */
        public Builder backlog(int backlog) {
            if (backlog < 1) throw new IllegalArgumentException("backlog must be positive");
            this.backlog = backlog;
            return this;
        }

        /**
         * HTTP/2: whether HTTPS connectors offer {@code h2} by ALPN and plain ones take {@code h2c}
         * with prior knowledge, and its limits (see {@link Http2Config}; by default {@code h2} on
         * HTTPS only).
         */
        public Builder http2(Http2Config http2) {
            this.http2 = Objects.requireNonNull(http2, "http2");
            return this;
        }

        /** Protocol limits and timeouts. */
        public Builder config(ServerConfig config) {
            this.config = Objects.requireNonNull(config, "config");
            return this;
        }

        /** Shortcut to replace only the codec limits of the config. */
        public Builder limits(HttpLimits limits) {
            this.config = config.withLimits(limits);
            return this;
        }

        /** How long {@link Server#close()} waits for requests in flight (default 10 s). */
        public Builder shutdownGrace(Duration grace) {
            this.shutdownGrace = Objects.requireNonNull(grace, "grace");
            return this;
        }

        /** The clock for {@code Date} headers (tests set one). */
        public Builder clock(InstantSource clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** The application. */
        public Builder handler(Handler handler) {
            this.handler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /**
         * Whether to count connections, bytes, TLS handshakes and requests on every connector, for
         * {@link Server#metrics()} (off by default). Counting allocates nothing per request; it costs
         * two clock reads and a few uncontended additions per request, and one addition per read and
         * write.
         */
        public Builder metrics(boolean count) {
            this.countMetrics = count;
            return this;
        }

        /** Logs every exchange of every connector there (see {@link AccessLog}); none by default. */
        public Builder accessLog(AccessLog accessLog) {
            this.accessLog = Objects.requireNonNull(accessLog, "accessLog");
            return this;
        }

        /**
         * Loads the certificates, binds and starts accepting.
         *
         * @throws BindException when an address is in use, not available or not an address at
         *         all; the message starts with the address ({@code host:port: }), as that of any
         *         other {@link SocketException} binding it
         * @throws TlsConfigException when a certificate or key file is missing, bad, mismatched or expired
         */
        public Server start() throws IOException {
            if (handler == null) throw new IllegalStateException("no handler set");
            List<Connector> all = connectors();
            if (all.isEmpty()) throw new IllegalStateException("no connector: plain HTTP is off and no other connector is set");
            for (Connector connector : all) {
                if (connector.proxyProtocol() && connector.trustedProxies().isEmpty()) {
                    throw new IllegalStateException("the PROXY protocol on " + connector + " needs the addresses of its trusted proxies");
                }
            }
            ServerPlan plan = new ServerPlan(all, host, transport, maxConnections, backlog, queueTimeout, eventLoops, config,
                    http2, clock, handler, accessLog, countMetrics, watchCertificates);
            return new Server(all, RunningServer.start(plan), shutdownGrace);
        }

        /** The connectors to open: the shortcuts' (port, https, ajp), then those added. */
        private List<Connector> connectors() {
            List<Connector> all = new ArrayList<>();
            if (plainHttp && (connectors.isEmpty() || portSet)) {
                all.add(Connector.http(port).proxyProtocol(proxyProtocol).trustedProxies(trustedProxies));
            }
            if (tlsConfig != null) {
                all.add(Connector.https(httpsPort, tlsConfig).proxyProtocol(proxyProtocol).trustedProxies(trustedProxies));
            }
            if (ajpConfig != null) all.add(Connector.ajp(ajpPort, ajpConfig));
            all.addAll(connectors);
            return all;
        }
    }
}
