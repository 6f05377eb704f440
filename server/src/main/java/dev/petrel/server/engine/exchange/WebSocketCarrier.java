package dev.petrel.server.engine.exchange;

import dev.petrel.server.WebSocketHandler;
import dev.petrel.server.config.WebSocketConfig;
import java.io.IOException;

/**
 * How a protocol carries WebSocket sessions: over HTTP/1.1 the opening handshake's {@code 101}
 * and the connection's hand-over (RFC 6455); over HTTP/2 an extended CONNECT's {@code 200} and
 * its stream (RFC 8441, {@link ExchangeResponse#openTunnel}). A stream whose protocol carries none answers null
 * from {@link ExchangeStream#webSockets()}, and the request is answered as a plain one.
 */
@FunctionalInterface
public interface WebSocketCarrier {
    /**
     * Answers {@code request}'s opening handshake through {@code response}: the switch with the
     * session served by {@code handler} after it, or the status that says what is wrong with the
     * handshake ({@code 400}, {@code 403}, {@code 426}).
     *
     * @throws IOException when the client is gone
     */
    void accept(ExchangeRequest request, ExchangeResponse response, WebSocketHandler handler, WebSocketConfig config)
            throws IOException;
}
