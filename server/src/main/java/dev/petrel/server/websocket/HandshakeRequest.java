package dev.petrel.server.websocket;

import dev.petrel.http.HeaderFields;
import dev.petrel.server.engine.exchange.ExchangeRequest;
import java.net.InetSocketAddress;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a session keeps of the request that opened it: the exchange's request is re-armed for the
 * connection's next request (or given back to a pool) once the switch is made, so the session
 * holds a copy.
 *
 * @param path the decoded path
 * @param query the undecoded query, or null
 * @param headers each header's first value, by name in any case
 * @param subprotocol the subprotocol chosen, or null
 * @param remoteAddress the client's address
 */
record HandshakeRequest(String path, String query, Map<String, String> headers, String subprotocol, InetSocketAddress remoteAddress) {
    static HandshakeRequest of(ExchangeRequest request, String subprotocol) {
        HeaderFields fields = request.headers();
        Map<String, String> first = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (int i = 0; i < fields.size(); i++) first.putIfAbsent(fields.name(i), fields.value(i));
        return new HandshakeRequest(request.path(), request.query(), Collections.unmodifiableMap(first), subprotocol,
                request.remoteAddress());
    }
}
