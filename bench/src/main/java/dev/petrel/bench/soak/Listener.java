package dev.petrel.bench.soak;

import java.util.ArrayList;
import java.util.List;

/**
 * One listener of the soak server that a fault may aim at, with the name the soak's clients use
 * for it ({@code plain}, {@code tls-jsse}, {@code tls-native}, {@code proxy}): a failed client
 * request is put down to a fault only when both hit the same name at the same time.
 *
 * <p>Every one of them speaks HTTP/1.1. The plain port alone also takes h2c by prior knowledge
 * and serves {@code /ws/echo} to the faults; the proxy port is HAProxy, which speaks clear-text
 * HTTP/1.1 to the client and passes the request on with a PROXY header first. The AJP and admin
 * ports are left alone: the faults speak HTTP.
 *
 * @param name the listener's name in the soak's records
 * @param port its port on 127.0.0.1
 * @param tls whether it speaks TLS first
 */
record Listener(String name, int port, boolean tls) {
    static final String PLAIN = "plain";
    static final String TLS_JSSE = "tls-jsse";
    static final String TLS_NATIVE = "tls-native";
    static final String PROXY = "proxy";

    /** The listeners of {@code ports} that faults may aim at, in a fixed order (so that a seed picks the same one again). */
    static List<Listener> of(SoakPorts ports) {
        List<Listener> listeners = new ArrayList<>();
        if (ports.plain() > 0) listeners.add(new Listener(PLAIN, ports.plain(), false));
        if (ports.tlsJsse() > 0) listeners.add(new Listener(TLS_JSSE, ports.tlsJsse(), true));
        if (ports.tlsNative() > 0) listeners.add(new Listener(TLS_NATIVE, ports.tlsNative(), true));
        if (ports.proxy() > 0) listeners.add(new Listener(PROXY, ports.proxy(), false));
        return List.copyOf(listeners);
    }

    /** Whether the bytes go over TCP as they are: a half-close is then a real end of the request's stream. */
    boolean clearText() {
        return !tls;
    }

    /** Whether this is the server's own plain port: h2c by prior knowledge, WebSocket, connection limit. */
    boolean plain() {
        return name.equals(PLAIN);
    }

    @Override
    public String toString() {
        return name + " (" + port + ")";
    }
}
