package dev.petrel.server.websocket;

import dev.petrel.http.HeaderFields;
import dev.petrel.http.HttpVersion;
import dev.petrel.server.WebSocketHandler;
import dev.petrel.server.config.WebSocketConfig;
import dev.petrel.server.engine.exchange.ExchangeRequest;
import dev.petrel.server.engine.exchange.ExchangeResponse;
import dev.petrel.server.engine.exchange.WebSocketCarrier;
import dev.petrel.websocket.Handshake;
import java.io.IOException;

/**
 * The opening handshake over HTTP/1.1 (RFC 6455 section 4.2): checks the request, answers
 * {@code 101 (Switching Protocols)} with the accept key, the chosen subprotocol and extension, and
 * hands the connection to a {@link WebSocketConnection}. A request that is no valid handshake gets
 * the status that says why, and the connection stays HTTP/1.1.
 */
public final class Http1WebSocketUpgrade implements WebSocketCarrier {
    /** The one instance: it holds no state. */
    public static final Http1WebSocketUpgrade INSTANCE = new Http1WebSocketUpgrade();

    private Http1WebSocketUpgrade() {}

    @Override
    public void accept(ExchangeRequest request, ExchangeResponse response, WebSocketHandler handler, WebSocketConfig config)
            throws IOException {
        HeaderFields fields = request.headers();
        String method = request.method();
        if (!"GET".equals(method) && !"HEAD".equals(method)) {
            response.status(405).header("Allow", "GET, HEAD").send("Method Not Allowed: a WebSocket opens with GET\n");
            return;
        }
        // HEAD gets the head of what a GET without the handshake's fields gets (RFC 9110 section
        // 9.3.2), and never a session: the opening handshake is a GET (RFC 6455 section 4.1)
        if ("HEAD".equals(method) || !fields.containsToken("Upgrade", "websocket")) {
            response.status(426).header("Upgrade", "websocket").header("Connection", "Upgrade")
                    .send("Upgrade Required: this is a WebSocket endpoint\n");
            return;
        }
        if (!Handshake.VERSION.equals(fields.first("Sec-WebSocket-Version"))) {
            response.status(426).header("Sec-WebSocket-Version", Handshake.VERSION).header("Upgrade", "websocket")
                    .header("Connection", "Upgrade").send("Upgrade Required: WebSocket version 13 only\n");
            return;
        }
        String key = fields.first("Sec-WebSocket-Key");
        String refusal = !fields.containsToken("Connection", "upgrade") ? "no Connection: upgrade"
                : key == null || !Handshake.validKey(key) || fields.all("Sec-WebSocket-Key").size() > 1
                        ? "Sec-WebSocket-Key is not 16 bytes in base64"
                : request.hasBody() ? "a WebSocket handshake has no body"
                : request.version() != HttpVersion.HTTP_1_1 ? "a WebSocket handshake is HTTP/1.1"
                : null;
        if (refusal != null) {
            response.status(400).send("Bad Request: " + refusal + "\n");
            return;
        }
        if (!SessionTerms.originAllowed(request, config)) {
            response.status(403).send("Forbidden: pages of this origin may not open a WebSocket here\n");
            return;
        }
        SessionTerms terms = SessionTerms.negotiate(request, config);
        response.header("Upgrade", "websocket").header("Connection", "Upgrade")
                .header("Sec-WebSocket-Accept", Handshake.acceptKey(key));
        terms.announce(response);
        try {
            response.switchProtocols(terms.session(handler, response.webSocketSessionObserver()));
        } catch (IOException | RuntimeException e) {
            terms.release(); // no session took its native memory
            throw e;
        }
    }
}
