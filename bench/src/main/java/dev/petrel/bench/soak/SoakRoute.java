package dev.petrel.bench.soak;

/**
 * A way the soak's clients reach the server: the protocol they speak, the front end in between if
 * any, and the server's listener that serves it ({@link SoakPorts}'s names), which is what a fault
 * hits and what a failure is matched against.
 *
 * @param name     e.g. {@code h2/tls-native} or {@code h1/jk}
 * @param listener {@code plain}, {@code tls-jsse}, {@code tls-native}, {@code proxy} or {@code ajp}
 * @param port     the port the client connects to (the front end's, behind one)
 */
record SoakRoute(String name, String listener, int port, Protocol protocol) {
    enum Protocol { H1, H1_TLS, H2_TLS, H2C }

    String scheme() {
        return protocol == Protocol.H1_TLS || protocol == Protocol.H2_TLS ? "https" : "http";
    }

    /** WebSocket goes over the HTTP/1.1 routes (Java's client opens it with an HTTP/1.1 upgrade), not through AJP. */
    boolean carriesWebSocket() {
        return (protocol == Protocol.H1 || protocol == Protocol.H1_TLS) && !listener.equals("ajp");
    }
}
