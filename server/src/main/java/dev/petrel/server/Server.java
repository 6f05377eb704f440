package dev.petrel.server;

import dev.petrel.http.DateCache;
import dev.petrel.http.HttpLimits;
import dev.petrel.server.ajp.AjpProtocol;
import dev.petrel.server.engine.Protocol;
import dev.petrel.server.http1.Http1Protocol;
import dev.petrel.server.tls.CertificateWatcher;
import dev.petrel.server.tls.ReloadableTlsContext;
import dev.petrel.server.tls.ServerCertificate;
import dev.petrel.server.tls.TlsProtocol;
import dev.petrel.server.transport.ConnectionLimit;
import dev.petrel.server.transport.Listener;
import dev.petrel.server.transport.ListenerSettings;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A Petrel HTTP/1.1 server: one handler served on one transport, over plain HTTP, HTTPS, or
 * both on two ports, and optionally over AJP/1.3 to a front end such as Apache httpd.
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
    private static final System.Logger LOG = System.getLogger("dev.petrel.server");
    private final Listener<?> http;  // null when plain HTTP is off
    private final Listener<?> https; // null without TLS
    private final Listener<?> ajp;   // null without AJP
    private final ReloadableTlsContext tls;
    private final CertificateWatcher watcher;
    private final Duration shutdownGrace;

    private Server(Listener<?> http, Listener<?> https, Listener<?> ajp, ReloadableTlsContext tls, CertificateWatcher watcher,
                   Duration shutdownGrace) {
        this.http = http;
        this.https = https;
        this.ajp = ajp;
        this.tls = tls;
        this.watcher = watcher;
        this.shutdownGrace = shutdownGrace;
    }

    /** A builder with the defaults: 127.0.0.1:8080, plain HTTP only, the nio transport, {@link ServerConfig#DEFAULT}. */
    public static Builder builder() {
        return new Builder();
    }

    /** The plain HTTP address, else the HTTPS one, else the AJP one. */
    public InetSocketAddress address() {
        return first().address();
    }

    private Listener<?> first() {
        return http != null ? http : https != null ? https : ajp;
    }

    /**
     * The AJP address.
     *
     * @throws IllegalStateException when the server was built without {@link Builder#ajp}
     */
    public InetSocketAddress ajpAddress() {
        if (ajp == null) throw new IllegalStateException("this server has no AJP listener");
        return ajp.address();
    }

    /** Whether the server listens for AJP. */
    public boolean servesAjp() {
        return ajp != null;
    }

    /**
     * The HTTPS address.
     *
     * @throws IllegalStateException when the server was built without {@link Builder#https}
     */
    public InetSocketAddress httpsAddress() {
        if (https == null) throw new IllegalStateException("this server has no HTTPS listener");
        return https.address();
    }

    /** Whether the server listens for plain HTTP. */
    public boolean servesPlainHttp() {
        return http != null;
    }

    /** Whether the server listens for HTTPS. */
    public boolean servesHttps() {
        return https != null;
    }

    /** The transport serving connections. */
    public TransportKind transport() {
        return first().kind();
    }

    /** Connections open now, on every listener. */
    public int liveConnections() {
        int live = 0;
        for (Listener<?> listener : new Listener<?>[] {http, https, ajp}) {
            if (listener != null) live += listener.liveConnections();
        }
        return live;
    }

    /**
     * The certificates new HTTPS connections get now, the default (for clients that name no host
     * it has) first.
     *
     * @throws IllegalStateException when the server was built without {@link Builder#https}
     */
    public List<CertificateInfo> certificates() {
        if (tls == null) throw new IllegalStateException("this server has no HTTPS listener");
        return tls.current().certificates().stream().map(ServerCertificate::info).toList();
    }

    /**
     * Re-reads the certificate and key files and serves them to new HTTPS connections; open ones
     * keep theirs. When a file is missing, bad or expired, the current certificates stay.
     *
     * @return the certificates now served, as {@link #certificates()}
     * @throws TlsConfigException with one line saying what is wrong with which file
     * @throws IllegalStateException when the server was built without {@link Builder#https}
     */
    public List<CertificateInfo> reloadCertificates() throws TlsConfigException {
        if (tls == null) throw new IllegalStateException("this server has no HTTPS listener");
        tls.reload();
        return certificates();
    }

    /**
     * Stops accepting, lets requests in flight finish within {@code grace}, then closes what is
     * left. Returns whether everything finished in time.
     */
    public boolean stop(Duration grace) {
        if (watcher != null) watcher.close();
        long deadline = System.nanoTime() + grace.toNanos();
        boolean clean = true;
        // stopped one after the other, each within what is left of the one grace period
        for (Listener<?> listener : new Listener<?>[] {http, https, ajp}) {
            if (listener == null) continue;
            clean &= listener.stop(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        }
        return clean;
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
        private Duration shutdownGrace = Duration.ofSeconds(10);
        private InstantSource clock = InstantSource.system();
        private Handler handler;
        private boolean plainHttp = true;
        private int httpsPort = -1;
        private TlsConfig tlsConfig;
        private boolean watchCertificates;
        private int ajpPort = -1;
        private AjpConfig ajpConfig;

        private Builder() {}

        /** The address to bind: a name or IP literal; {@code 0.0.0.0} or {@code ::} for all. */
        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        /** The plain HTTP port; 0 picks a free one (see {@link Server#address()}). */
        public Builder port(int port) {
            this.port = checkPort(port);
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
         * Loads the certificates, binds and starts accepting.
         *
         * @throws BindException when an address is in use or not available; the message starts
         *         with the address ({@code host:port: })
         * @throws TlsConfigException when a certificate or key file is missing, bad, mismatched or expired
         */
        public Server start() throws IOException {
            if (handler == null) throw new IllegalStateException("no handler set");
            if (!plainHttp && tlsConfig == null && ajpConfig == null) {
                throw new IllegalStateException("plain HTTP is off and neither HTTPS nor AJP is set");
            }
            ReloadableTlsContext tls = tlsConfig == null ? null : ReloadableTlsContext.load(tlsConfig);
            int limit = maxConnections > 0 ? maxConnections : transport.defaultMaxConnections();
            FileLimit.warnIfBelow(limit);
            ListenerSettings settings = new ListenerSettings(limit, backlog, queueTimeout, config.writeTimeout(),
                    config.minResponseRate(), config.headTimeoutWhenFull(), eventLoops);
            ConnectionLimit shared = new ConnectionLimit(limit); // one limit over every listener
            Protocol protocol = new Http1Protocol(handler, config, new DateCache(clock));
            List<Listener<?>> opened = new ArrayList<>();
            CertificateWatcher watcher = null;
            try {
                Listener<?> http = null;
                Listener<?> https = null;
                Listener<?> ajp = null;
                if (plainHttp) {
                    http = open(host, port, settings, shared, protocol);
                    opened.add(http);
                }
                if (tls != null) {
                    https = open(host, httpsPort, settings, shared, new TlsProtocol(protocol, tls));
                    opened.add(https);
                    if (watchCertificates) watcher = CertificateWatcher.start(tls);
                }
                if (ajpConfig != null) {
                    ajp = open(ajpConfig.host(), ajpPort, settings, shared, new AjpProtocol(handler, config, ajpConfig));
                    opened.add(ajp);
                    if (!ajpConfig.requiresSecret()) {
                        LOG.log(System.Logger.Level.WARNING, "AJP on " + ajp.address() + " accepts requests without a secret:"
                                + " anyone who can connect to it can claim any client address, scheme and TLS details");
                    }
                }
                return new Server(http, https, ajp, tls, watcher, shutdownGrace);
            } catch (IOException | RuntimeException | Error e) {
                opened.forEach(Listener::close); // no half-started server, whatever failed
                throw e;
            }
        }

        /** Opens one listener; a bind failure names the address, since a server may have two. */
        private Listener<?> open(String listenHost, int listenPort, ListenerSettings settings, ConnectionLimit limit,
                                 Protocol protocol) throws IOException {
            try {
                return Listener.open(transport, new InetSocketAddress(listenHost, listenPort), settings, limit, protocol);
            } catch (BindException e) {
                BindException named = new BindException(listenHost + ":" + listenPort + ": " + e.getMessage());
                named.initCause(e);
                throw named;
            }
        }
    }
}
