package dev.petrel.server.observe;

import dev.petrel.server.engine.exchange.ExchangeRequest;

/**
 * What a WebSocket session's access log line tells of the handshake that opened it, copied when
 * the handshake is accepted: the exchange's request is re-armed for another once the connection
 * switches, and the line is written only when the session ends.
 *
 * @param remote the client's address after trusted forwarding and the PROXY header, as in every line
 * @param referer the {@code Referer}, or null
 * @param userAgent the {@code User-Agent}, or null
 */
record HandshakeLine(String remote, String method, String target, String protocol, String scheme, String host,
                     String referer, String userAgent) {
    static HandshakeLine of(ExchangeRequest request) {
        return new HandshakeLine(AccessLogLine.address(request.remoteAddress()), request.method(), request.target(),
                request.version().toString(), request.scheme(), request.host(), request.headers().first("Referer"),
                request.headers().first("User-Agent"));
    }
}
