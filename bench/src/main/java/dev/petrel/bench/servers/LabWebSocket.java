package dev.petrel.bench.servers;

/**
 * The WebSocket half of the {@link Hello} contract: when the lab sets the system property
 * {@value #PROPERTY} to {@code true} (the websocket scenario), a server under test that speaks
 * WebSocket also serves an echo at {@value #PATH} on its HTTP port: every text message comes back
 * as a text message with the same text, every binary message as a binary message with the same
 * bytes. Messages of up to {@link #MAX_MESSAGE_BYTES} are echoed; no extension is negotiated (no
 * {@code permessage-deflate}, even when a client offers it), no subprotocol, no origin check beyond
 * each server's default for a request without {@code Origin}. Each server uses its own project's
 * WebSocket support, as its documentation sets it up, with its defaults otherwise.
 *
 * <p>Without the property each server is set up as before, so that the scenarios that measure
 * HTTP are unchanged: Tomcat's WebSocket filter, Jetty's upgrade handler and Netty's handshake
 * handler would otherwise look at every request.
 */
public final class LabWebSocket {
    /** The system property that asks for the echo; {@code true} or absent. */
    public static final String PROPERTY = "petrel.bench.ws";
    /** Where the echo is served. */
    public static final String PATH = "/ws/echo";
    /**
     * The largest message every server echoes: 1 MiB, Petrel's default limit. Where a server limits
     * frames and messages apart (Netty, Vert.x, Jetty, Helidon), both are set to it.
     */
    public static final int MAX_MESSAGE_BYTES = 1 << 20;

    private LabWebSocket() {}

    /** Whether the lab asked for the echo. */
    static boolean fromSystemProperty() {
        return Boolean.parseBoolean(System.getProperty(PROPERTY, "false").strip());
    }
}
