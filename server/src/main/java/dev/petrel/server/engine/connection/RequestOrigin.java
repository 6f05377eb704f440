package dev.petrel.server.engine.connection;

import dev.petrel.server.TlsDetails;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * Where a request came from, as the handler is told: the connection itself for HTTP, what the
 * front end reported for AJP, and (with a trusted proxy in front) what the proxy said.
 */
public interface RequestOrigin {
    /** {@code http} or {@code https}, as the client reached the server. */
    String scheme();

    /** The client's address. */
    InetSocketAddress remoteAddress();

    /** The server address the client connected to. */
    InetSocketAddress localAddress();

    /** What the client negotiated over TLS, or {@code null} without TLS. */
    TlsDetails tls();

    /**
     * The host the request is for: {@code requested}, the one the request named, unless this
     * origin knows better (what a trusted proxy forwarded).
     */
    default String host(String requested) {
        return requested;
    }

    /** Request attributes a front end forwarded (AJP); empty otherwise. */
    default Map<String, String> attributes() {
        return Map.of();
    }
}
