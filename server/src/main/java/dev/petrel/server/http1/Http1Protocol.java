package dev.petrel.server.http1;

import dev.petrel.http.ByteSink;
import dev.petrel.http.DateCache;
import dev.petrel.http.ResponseHeadEncoder;
import dev.petrel.server.Handler;
import dev.petrel.server.config.ServerConfig;
import dev.petrel.server.config.TrustedProxies;
import dev.petrel.server.engine.connection.ConnectionInput;
import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.connection.InputBufferPool;
import dev.petrel.server.engine.connection.Protocol;
import dev.petrel.server.engine.connection.ProtocolConnection;
import dev.petrel.server.engine.connection.SwitchingConnection;
import dev.petrel.server.engine.exchange.BufferPool;
import dev.petrel.server.engine.exchange.ExchangeObserver;
import dev.petrel.server.proxy.ForwardedOrigin;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * HTTP/1.1 for a listener: an {@link Http1Connection} per connection, a 503 for those turned
 * away, a 400 for clear text on a TLS port.
 */
public final class Http1Protocol implements Protocol {
    /** Seconds a client turned away is asked to wait before trying again. */
    public static final int RETRY_AFTER_SECONDS = 1;

    private static final byte[] TEXT_PLAIN = "text/plain;charset=UTF-8".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLOSE = "close".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLEAR_TEXT_ON_TLS_PORT_TEXT = "This port speaks HTTPS; use https://\n"
            .getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OVERLOAD_TEXT = "Service Unavailable: the server is at its connection limit; try again shortly\n"
            .getBytes(StandardCharsets.US_ASCII);

    private final Handler handler;
    private final ExchangeObserver observer;
    private final ServerConfig config;
    private final DateCache dates;
    private final Http1ExchangeParts.Pool exchangeParts;
    private final InputBufferPool smallInputBuffers;
    private final InputBufferPool inputBuffers;
    private final boolean handlerMayBlock;
    private final TrustedProxies trustedProxies;

    /** Serves {@code handler} with {@code config}, dating responses from {@code dates}, believing no proxy's forwarding. */
    public Http1Protocol(Handler handler, ServerConfig config, DateCache dates) {
        this(handler, ExchangeObserver.NONE, config, dates, TrustedProxies.NONE);
    }

    /**
     * Serves {@code handler} with {@code config}, telling {@code observer} of each exchange, dating
     * responses from {@code dates}; requests from {@code trustedProxies} say what their
     * {@code Forwarded} or {@code X-Forwarded-*} headers say of the client (see {@link ForwardedOrigin}).
     */
    public Http1Protocol(Handler handler, ExchangeObserver observer, ServerConfig config, DateCache dates,
                         TrustedProxies trustedProxies) {
        this.observer = Objects.requireNonNull(observer, "observer");
        this.trustedProxies = Objects.requireNonNull(trustedProxies, "trustedProxies");
        this.handler = Objects.requireNonNull(handler, "handler");
        this.config = Objects.requireNonNull(config, "config");
        this.dates = Objects.requireNonNull(dates, "dates");
        this.exchangeParts = Http1ExchangeParts.Pool.forProcessors(config, dates,
                BufferPool.forProcessors(Http1Connection.responseBufferBytes(config)), observer);
        this.smallInputBuffers = InputBufferPool.forProcessors(ConnectionInput.SMALL_BUFFER_BYTES);
        this.inputBuffers = InputBufferPool.forProcessors(Http1Connection.LARGE_INPUT_BYTES);
        this.handlerMayBlock = handler.mayBlock();
    }

    @Override
    public ProtocolConnection open(Endpoint endpoint) {
        ForwardedOrigin forwarded = trustedProxies.isEmpty() ? null : new ForwardedOrigin(trustedProxies);
        // switchable: a request may hand the connection to another protocol (see Upgrade)
        return new SwitchingConnection(endpoint, new Http1Connection(endpoint, handler, handlerMayBlock, config, exchangeParts,
                smallInputBuffers, inputBuffers, forwarded));
    }

    /** {@code 503} with {@code Retry-After}, a line of text and {@code Connection: close}. */
    @Override
    public byte[] overloadAnswer() {
        return closingAnswer(503, true, OVERLOAD_TEXT);
    }

    /**
     * A short {@code 400} saying to use {@code https://}, then close, as nginx answers "The plain
     * HTTP request was sent to HTTPS port". Nothing of the request is echoed: it was never
     * parsed, and reflecting it would invite abuse.
     */
    @Override
    public byte[] clearTextOnTlsPortAnswer() {
        return closingAnswer(400, false, CLEAR_TEXT_ON_TLS_PORT_TEXT);
    }

    private byte[] closingAnswer(int status, boolean retryAfter, byte[] text) {
        ByteSink sink = new ByteSink(256);
        ResponseHeadEncoder.statusLine(status, sink);
        ResponseHeadEncoder.field(ResponseHeadEncoder.DATE, dates.bytes(), sink);
        if (retryAfter) ResponseHeadEncoder.field("Retry-After", Integer.toString(RETRY_AFTER_SECONDS), sink);
        ResponseHeadEncoder.field(ResponseHeadEncoder.CONTENT_TYPE, TEXT_PLAIN, sink);
        ResponseHeadEncoder.field(ResponseHeadEncoder.CONTENT_LENGTH, text.length, sink);
        ResponseHeadEncoder.field(ResponseHeadEncoder.CONNECTION, CLOSE, sink);
        ResponseHeadEncoder.end(sink);
        sink.write(text);
        return Arrays.copyOf(sink.array(), sink.length());
    }
}
