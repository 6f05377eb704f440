package dev.petrel.server;

import dev.petrel.http.DateCache;
import dev.petrel.http.HttpLimits;
import dev.petrel.server.engine.Http1Protocol;
import dev.petrel.server.transport.Listener;
import dev.petrel.server.transport.ListenerSettings;
import dev.petrel.server.transport.TransportKind;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;

/**
 * A Petrel HTTP/1.1 server: one listener on one address, one transport, one handler.
 *
 * <pre>{@code
 * Server server = Server.builder()
 *         .port(8080)
 *         .transport(TransportKind.NIO)
 *         .handler((request, response) -> response.send("HelloWorld"))
 *         .start();
 * ...
 * server.stop(Duration.ofSeconds(10)); // finish in-flight requests, then close
 * }</pre>
 */
public final class Server implements AutoCloseable {
    private final Listener<?> listener;
    private final Duration shutdownGrace;

    private Server(Listener<?> listener, Duration shutdownGrace) {
        this.listener = listener;
        this.shutdownGrace = shutdownGrace;
    }

    /** A builder with the defaults: 127.0.0.1:8080, the nio transport, {@link ServerConfig#DEFAULT}. */
    public static Builder builder() {
        return new Builder();
    }

    /** The address the server listens on. */
    public InetSocketAddress address() {
        return listener.address();
    }

    /** The transport serving connections. */
    public TransportKind transport() {
        return listener.kind();
    }

    /** Connections open now. */
    public int liveConnections() {
        return listener.liveConnections();
    }

    /**
     * Stops accepting, lets requests in flight finish within {@code grace}, then closes what is
     * left. Returns whether everything finished in time.
     */
    public boolean stop(Duration grace) {
        return listener.stop(grace);
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

        private Builder() {}

        /** The address to bind: a name or IP literal; {@code 0.0.0.0} or {@code ::} for all. */
        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        /** The port; 0 picks a free one (see {@link Server#address()}). */
        public Builder port(int port) {
            if (port < 0 || port > 65535) throw new IllegalArgumentException("port must be 0 to 65535: " + port);
            this.port = port;
            return this;
        }

        /** The transport. */
        public Builder transport(TransportKind transport) {
            this.transport = Objects.requireNonNull(transport, "transport");
            return this;
        }

        /**
         * Connections served at once; more wait in the accept backlog, then are turned away (see
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
            ServerConfig c = config;
            this.config = new ServerConfig(limits, c.headerTimeout(), c.idleTimeout(), c.bodyReadTimeout(), c.writeTimeout(),
                    c.maxRequestsPerConnection(), c.maxDrainBytes(), c.responseBufferSize());
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
         * Binds and starts accepting.
         *
         * @throws java.net.BindException when the address is in use or not available
         */
        public Server start() throws IOException {
            if (handler == null) throw new IllegalStateException("no handler set");
            int limit = maxConnections > 0 ? maxConnections : transport.defaultMaxConnections();
            FileLimit.warnIfBelow(limit);
            ListenerSettings settings = new ListenerSettings(limit, backlog, queueTimeout, config.writeTimeout(), eventLoops);
            Listener<?> listener = Listener.open(transport, new InetSocketAddress(host, port), settings,
                    new Http1Protocol(handler, config, new DateCache(clock)));
            return new Server(listener, shutdownGrace);
        }
    }
}
