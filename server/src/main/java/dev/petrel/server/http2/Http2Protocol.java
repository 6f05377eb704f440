package dev.petrel.server.http2;

import dev.petrel.http.DateCache;
import dev.petrel.server.Handler;
import dev.petrel.server.config.Http2Config;
import dev.petrel.server.config.ServerConfig;
import dev.petrel.server.config.TrustedProxies;
import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.connection.Protocol;
import dev.petrel.server.engine.connection.ProtocolConnection;
import dev.petrel.server.engine.exchange.BufferPool;
import dev.petrel.server.engine.exchange.ExchangeObserver;
import dev.petrel.server.proxy.ForwardedOrigin;
import java.util.Objects;

/**
 * HTTP/2 for a listener (RFC 9113): an {@link Http2Connection} per connection that chose it, by
 * ALPN {@code h2} over TLS or by the prior-knowledge preface on a plain port
 * ({@link PriorKnowledgeStep}). What the streams share across connections lives here: the
 * handler, the settings, the response buffers and the date.
 */
public final class Http2Protocol implements Protocol {
    /** The ALPN name of HTTP/2 over TLS. */
    public static final String ALPN = "h2";

    private final Handler handler;
    private final ExchangeObserver observer;
    private final ServerConfig config;
    private final Http2Config settings;
    private final DateCache dates;
    private final BufferPool buffers;
    private final TrustedProxies trustedProxies;
    private final boolean extendedConnect;

    /** Serves {@code handler} over HTTP/2 with {@code config} and {@code settings}, dating responses from {@code dates}. */
    public Http2Protocol(Handler handler, ServerConfig config, Http2Config settings, DateCache dates) {
        this(handler, ExchangeObserver.NONE, config, settings, dates, TrustedProxies.NONE);
    }

    /**
     * As {@link #Http2Protocol(Handler, ServerConfig, Http2Config, DateCache)}, each exchange told
     * to {@code observer}; requests from {@code trustedProxies} say what their {@code Forwarded} or
     * {@code X-Forwarded-*} fields say of the client, as over HTTP/1.1 (see {@link ForwardedOrigin}).
     */
    public Http2Protocol(Handler handler, ExchangeObserver observer, ServerConfig config, Http2Config settings, DateCache dates,
                         TrustedProxies trustedProxies) {
        this.observer = Objects.requireNonNull(observer, "observer");
        this.trustedProxies = Objects.requireNonNull(trustedProxies, "trustedProxies");
        this.handler = Objects.requireNonNull(handler, "handler");
        this.config = Objects.requireNonNull(config, "config");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.dates = Objects.requireNonNull(dates, "dates");
        this.buffers = BufferPool.forProcessors(config.responseBufferSize());
        // asked once: the setting goes out on every connection, and must not when no WebSocket is served
        this.extendedConnect = handler.servesWebSockets();
    }

    @Override
    public ProtocolConnection open(Endpoint endpoint) {
        return new Http2Connection(endpoint, this);
    }

    /**
     * Nothing: a connection turned away for overload before it chose HTTP/2 gets the HTTP/1.1
     * answer from the listener's default protocol.
     */
    @Override
    public byte[] overloadAnswer() {
        return new byte[0];
    }

    /**
     * Whether connections announce {@code SETTINGS_ENABLE_CONNECT_PROTOCOL} and accept the
     * extended CONNECT (RFC 8441): only when the handler serves WebSockets.
     */
    boolean extendedConnect() {
        return extendedConnect;
    }

    Handler handler() {
        return handler;
    }

    ExchangeObserver observer() {
        return observer;
    }

    ServerConfig config() {
        return config;
    }

    Http2Config settings() {
        return settings;
    }

    DateCache dates() {
        return dates;
    }

    BufferPool buffers() {
        return buffers;
    }

    /** A stream's own reader of forwarding fields (streams run side by side), or null when no proxy is trusted. */
    ForwardedOrigin forwardedOrigin() {
        return trustedProxies.isEmpty() ? null : new ForwardedOrigin(trustedProxies);
    }
}
