package dev.petrel.server.websocket;

import dev.petrel.http.Methods;
import dev.petrel.server.WebSocketHandler;
import dev.petrel.server.config.WebSocketConfig;
import dev.petrel.server.engine.exchange.ExchangeRequest;
import dev.petrel.server.engine.exchange.ExchangeResponse;
import dev.petrel.server.engine.exchange.WebSocketCarrier;
import dev.petrel.websocket.Handshake;
import java.io.IOException;

/**
 * The opening handshake over HTTP/2 (RFC 8441 section 5): an extended CONNECT with
 * {@code :protocol} {@code websocket} is checked as HTTP/1.1's {@code GET} is, but without
 * {@code Sec-WebSocket-Key} and {@code Sec-WebSocket-Accept}, which a stream of its own makes
 * needless; it is answered {@code 200} with the chosen subprotocol and extension, and the stream
 * goes on carrying the session's frames in its {@code DATA}
 * ({@link ExchangeResponse#openTunnel}). A request that is no such handshake gets the status that
 * says why, and the connection's other streams go on.
 */
public final class Http2WebSocketUpgrade implements WebSocketCarrier {
    /** The one instance: it holds no state. */
    public static final Http2WebSocketUpgrade INSTANCE = new Http2WebSocketUpgrade();

    private Http2WebSocketUpgrade() {}

    @Override
    public void accept(ExchangeRequest request, ExchangeResponse response, WebSocketHandler handler, WebSocketConfig config)
            throws IOException {
        if (!Methods.CONNECT.equals(request.method()) || !"websocket".equalsIgnoreCase(request.connectProtocol())) {
            // 426 would have to name the protocol to upgrade to in Upgrade, a field HTTP/2 forbids
            response.status(400).send("Bad Request: over HTTP/2 a WebSocket opens with an extended CONNECT"
                    + " for websocket (RFC 8441)\n");
            return;
        }
        if (!Handshake.VERSION.equals(request.headers().first("Sec-WebSocket-Version"))) {
            response.status(400).header("Sec-WebSocket-Version", Handshake.VERSION)
                    .send("Bad Request: WebSocket version 13 only\n");
            return;
        }
        if (!request.hasBody()) { // END_STREAM on the CONNECT: the client can send nothing on the stream
            response.status(400).send("Bad Request: the extended CONNECT ended its stream\n");
            return;
        }
        if (!SessionTerms.originAllowed(request, config)) {
            response.status(403).send("Forbidden: pages of this origin may not open a WebSocket here\n");
            return;
        }
        SessionTerms terms = SessionTerms.negotiate(request, config);
        terms.announce(response);
        try {
            response.openTunnel(terms.session(handler, response.webSocketSessionObserver()));
        } catch (IOException | RuntimeException e) {
            terms.release(); // no session took its native memory
            throw e;
        }
    }
}
