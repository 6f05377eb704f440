package dev.petrel.server.websocket;

import dev.petrel.http.HeaderFields;
import dev.petrel.server.engine.exchange.ExchangeRequest;
import java.net.InetSocketAddress;

/**
 * What a session keeps of the request that opened it: the exchange's request is re-armed for the
 * connection's next request (or given back to a pool) once the switch is made, so the session
 * holds a copy. The headers are kept as one string of {@code name: value} lines, searched when
 * asked: a handler asks for one or two, once, while every idle session holds them all its life
 * (a map of them cost some 1 KiB a session in the lab's {@code websocket-idle}, a third of the
 * session).
 *
 * @param path the decoded path
 * @param query the undecoded query, or null
 * @param headerLines every header as {@code name: value}, each line ended by {@code \n}
 * @param subprotocol the subprotocol chosen, or null
 * @param remoteAddress the client's address
 */
record HandshakeRequest(String path, String query, String headerLines, String subprotocol, InetSocketAddress remoteAddress) {
    static HandshakeRequest of(ExchangeRequest request, String subprotocol) {
        HeaderFields fields = request.headers();
        StringBuilder lines = new StringBuilder(fields.size() * 32);
        for (int i = 0; i < fields.size(); i++) lines.append(fields.name(i)).append(": ").append(fields.value(i)).append('\n');
        return new HandshakeRequest(request.path(), request.query(), lines.toString(), subprotocol, request.remoteAddress());
    }

    /** The first value of the header {@code name}, in any case, or null. (A value holds no line break: the parser refuses one.) */
    String header(String name) {
        int length = name.length();
        for (int start = 0; start < headerLines.length(); ) {
            int end = headerLines.indexOf('\n', start);
            if (headerLines.regionMatches(true, start, name, 0, length)
                    && headerLines.startsWith(": ", start + length)) {
                return headerLines.substring(start + length + 2, end);
            }
            start = end + 1;
        }
        return null;
    }
}
