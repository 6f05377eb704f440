package dev.petrel.server.engine.connection;

/**
 * A protocol an HTTP/1.1 connection switches to after {@code 101 (Switching Protocols)} (RFC 9110
 * sections 7.8 and 15.2.2): it takes the connection over from the next byte on. A handler asks
 * for the switch with
 * {@link dev.petrel.server.engine.exchange.ExchangeResponse#switchProtocols ExchangeResponse.switchProtocols};
 * once the exchange is over, the connection opens the new protocol on its endpoint and hands
 * everything to it, on every transport and over TLS. WebSocket and the Tomcat connector's upgrades come in here.
 */
@FunctionalInterface
public interface Upgrade {
    /**
     * Opens the new protocol on {@code endpoint}. Its reads return first the bytes the client sent
     * after the request, which the old protocol had read already. Called on the thread that served
     * the request, once; the transport then drives the connection this returns.
     */
    ProtocolConnection open(Endpoint endpoint);
}
