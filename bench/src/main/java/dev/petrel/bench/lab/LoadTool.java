package dev.petrel.bench.lab;

/**
 * The clients whose requests reach a server under test directly. A scenario names those it uses
 * ({@link Scenario#tools()}) and a server names those it cannot be measured with
 * ({@link ServerSpec#unmeasurableBy()}), so that the lab knows before starting a server that a
 * scenario can give it no figure, and says why, instead of running it and reporting failures.
 */
enum LoadTool {
    /** ApacheBench: HTTP/1.0 requests, with {@code Connection: keep-alive} under {@code -k}. */
    AB("ab", "ab"),
    /** wrk: HTTP/1.1 keep-alive. */
    WRK("wrk", "wrk"),
    /** h2load {@code --h1}: HTTP/1.1 keep-alive. */
    H2LOAD("h2load", "h2load"),
    /** The lab's open-loop generator ({@link FixedRateLoad}): HTTP/1.1 keep-alive. */
    FIXED_RATE("the fixed-rate generator", null),
    /** The lab's idle-connection client ({@link IdleClient}): HTTP/1.1 keep-alive. */
    IDLE_CLIENT("the idle-connection client", null),
    /**
     * The lab's WebSocket clients: the load tool ({@link WebSocketLoad}) and the idle-session client
     * ({@link WebSocketIdleClient}), both speaking WebSocket over HTTP/1.1's upgrade.
     */
    WEBSOCKET("the lab's WebSocket clients", null),
    /**
     * openssl's s_time and s_client: one connection at a time, each a TLS handshake and one
     * {@code GET / HTTP/1.0} (s_client sends the lab's), the session offered again when asked.
     */
    OPENSSL("openssl s_time and s_client", "openssl");

    private final String display;
    private final String program;

    LoadTool(String display, String program) {
        this.display = display;
        this.program = program;
    }

    /** How the report names it. */
    String display() {
        return display;
    }

    /** The program to install for it, or {@code null} for the lab's own clients. */
    String program() {
        return program;
    }
}
