package dev.petrel.server.websocket;

import dev.petrel.http.HeaderFields;
import dev.petrel.server.WebSocketHandler;
import dev.petrel.server.config.WebSocketConfig;
import dev.petrel.server.engine.connection.ResourceCounters;
import dev.petrel.server.engine.connection.Upgrade;
import dev.petrel.server.engine.exchange.WebSocketSessionObserver;
import dev.petrel.server.engine.exchange.ExchangeRequest;
import dev.petrel.server.engine.exchange.ExchangeResponse;
import dev.petrel.websocket.DeflateSettings;
import dev.petrel.websocket.Handshake;
import dev.petrel.websocket.PerMessageDeflate;

/**
 * What the opening handshakes of HTTP/1.1 ({@link Http1WebSocketUpgrade}) and HTTP/2
 * ({@link Http2WebSocketUpgrade}) share once each has found its request well formed: the origin
 * rule, the subprotocol and the permessage-deflate parameters chosen (RFC 6455 sections 4.2.2 and
 * 9, RFC 7692), the fields that tell the client so, and the session that follows. Only the way
 * the answer says "switched" and how the bytes travel afterwards differ between the two.
 */
final class SessionTerms {
    private final HandshakeRequest opened;
    private final WebSocketConfig config;
    private final PerMessageDeflate.Negotiated deflate; // null: not negotiated

    private SessionTerms(HandshakeRequest opened, WebSocketConfig config, PerMessageDeflate.Negotiated deflate) {
        this.opened = opened;
        this.config = config;
        this.deflate = deflate;
    }

    /** Whether pages of the request's {@code Origin} may open a session here (see {@link OriginCheck}). */
    static boolean originAllowed(ExchangeRequest request, WebSocketConfig config) {
        return new OriginCheck(config.allowedOrigins()).allows(request.headers().first("Origin"), request.host(), request.scheme());
    }

    /** Chooses the subprotocol and the extension for {@code request}; {@link #release()} or a session frees them. */
    static SessionTerms negotiate(ExchangeRequest request, WebSocketConfig config) {
        HeaderFields fields = request.headers();
        String subprotocol = Handshake.chooseSubprotocol(fields.all("Sec-WebSocket-Protocol"), config.subprotocols());
        PerMessageDeflate.Negotiated deflate = config.compression()
                ? PerMessageDeflate.negotiate(fields.all("Sec-WebSocket-Extensions"), DeflateSettings.DEFAULT)
                : null;
        if (deflate != null) ResourceCounters.take(ResourceCounters.Resource.WEBSOCKET_DEFLATE);
        return new SessionTerms(HandshakeRequest.of(request, subprotocol), config, deflate);
    }

    /** Sets the fields that tell the client what was chosen. */
    void announce(ExchangeResponse response) {
        if (opened.subprotocol() != null) response.header("Sec-WebSocket-Protocol", opened.subprotocol());
        if (deflate != null) response.header("Sec-WebSocket-Extensions", deflate.responseHeaderValue());
    }

    /** The session over whatever endpoint the protocol hands over, served by {@code handler}. */
    Upgrade session(WebSocketHandler handler, WebSocketSessionObserver observer) {
        return endpoint -> WebSocketConnection.open(endpoint,
                new WebSocketSession(endpoint, opened, config, deflate == null ? null : deflate.serverSide(), observer),
                handler, observer);
    }

    /** The handshake failed before a session took the compressor: frees its native memory. */
    void release() {
        if (deflate == null) return;
        deflate.serverSide().close();
        ResourceCounters.giveBack(ResourceCounters.Resource.WEBSOCKET_DEFLATE);
    }
}
