package dev.petrel.server.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Settings and limits of a WebSocket route (RFC 6455).
 *
 * <table class="striped">
 *   <caption>Settings and their defaults</caption>
 *   <tr><th>setting</th><th>default</th><th>what it bounds</th></tr>
 *   <tr><td>{@code maxMessageSize}</td><td>1 MiB</td><td>bytes of one message, after inflating; a larger one
 *       closes the session with {@code 1009}</td></tr>
 *   <tr><td>{@code idleTimeout}</td><td>5 min</td><td>time without a frame from the client before the server
 *       closes with {@code 1001}</td></tr>
 *   <tr><td>{@code subprotocols}</td><td>none</td><td>the {@code Sec-WebSocket-Protocol} values the route speaks,
 *       in its order of preference; the first the client offers is chosen</td></tr>
 *   <tr><td>{@code allowedOrigins}</td><td>none</td><td>the origins ({@code https://example.com}) whose pages may
 *       open a session besides the server's own; {@code *} allows any. A request whose {@code Origin} is
 *       another site's is refused with {@code 403} (cross-site WebSocket hijacking); one without
 *       {@code Origin} (not a browser) is let through</td></tr>
 *   <tr><td>{@code compression}</td><td>true</td><td>{@code permessage-deflate} (RFC 7692), when the client
 *       offers it</td></tr>
 *   <tr><td>{@code sendTimeout}</td><td>30 s</td><td>time one frame sent by the server may take to leave; a client
 *       that does not take it within that ends the session with {@code 1008}</td></tr>
 * </table>
 *
 * <p><b>Back-pressure.</b> A send blocks while the client does not read, and is written whole
 * before the next one starts, so what the server holds for a session is bounded by one frame plus
 * the socket's buffers, however fast its handler sends. A send whose frame is not written within
 * {@code sendTimeout} (a client that stopped reading) ends the session: its close code becomes
 * {@code 1008} (policy violation), the connection is reset at once, since a close frame could not
 * reach a client that does not read, the blocked send throws an {@link java.io.IOException} saying
 * so, and {@code receive()} returns null. The same holds for the pongs the server answers pings
 * with: a client that pings without reading the pongs is cut the same way. The server's own
 * {@code writeTimeout} and minimum response rate still apply to every write underneath; whichever
 * cuts first ends the session with {@code 1008}. A send is cut up to a quarter of a second past
 * its timeout (the sessions are looked at four times a second).
 *
 * @param maxMessageSize the largest message taken, in bytes
 * @param idleTimeout how long a session may go without a frame from its client
 * @param subprotocols the subprotocols spoken, in order of preference
 * @param allowedOrigins the other origins allowed, or {@code *}
 * @param compression whether {@code permessage-deflate} is accepted
 * @param sendTimeout how long one frame sent to the client may take to be written
 */
public record WebSocketConfig(int maxMessageSize, Duration idleTimeout, List<String> subprotocols, List<String> allowedOrigins,
                              boolean compression, Duration sendTimeout) {
    /** The defaults in the table above. */
    public static final WebSocketConfig DEFAULT = new WebSocketConfig(1 << 20, Duration.ofMinutes(5), List.of(), List.of(), true,
            Duration.ofSeconds(30));

    /** Checks the limits and copies the lists. */
    public WebSocketConfig {
        if (maxMessageSize < 125) throw new IllegalArgumentException("maxMessageSize must be at least 125");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (idleTimeout.isNegative() || idleTimeout.isZero()) throw new IllegalArgumentException("idleTimeout must be positive");
        subprotocols = List.copyOf(subprotocols);
        allowedOrigins = List.copyOf(allowedOrigins);
        Objects.requireNonNull(sendTimeout, "sendTimeout");
        if (sendTimeout.isNegative() || sendTimeout.isZero()) throw new IllegalArgumentException("sendTimeout must be positive");
    }

    /** This config with {@code maxMessageSize}. */
    public WebSocketConfig withMaxMessageSize(int maxMessageSize) {
        return new WebSocketConfig(maxMessageSize, idleTimeout, subprotocols, allowedOrigins, compression, sendTimeout);
    }

    /** This config with {@code idleTimeout}. */
    public WebSocketConfig withIdleTimeout(Duration idleTimeout) {
        return new WebSocketConfig(maxMessageSize, idleTimeout, subprotocols, allowedOrigins, compression, sendTimeout);
    }

    /** This config speaking {@code subprotocols}, in order of preference. */
    public WebSocketConfig withSubprotocols(String... subprotocols) {
        return new WebSocketConfig(maxMessageSize, idleTimeout, List.of(subprotocols), allowedOrigins, compression, sendTimeout);
    }

    /** This config letting pages from {@code origins} (or {@code *}: any) open a session too. */
    public WebSocketConfig withAllowedOrigins(String... origins) {
        return new WebSocketConfig(maxMessageSize, idleTimeout, subprotocols, List.of(origins), compression, sendTimeout);
    }

    /** This config with {@code permessage-deflate} accepted or not. */
    public WebSocketConfig withCompression(boolean compression) {
        return new WebSocketConfig(maxMessageSize, idleTimeout, subprotocols, allowedOrigins, compression, sendTimeout);
    }

    /**
     * This config with {@code sendTimeout}: the longest one frame sent to the client may take to be
     * written before the session ends with {@code 1008} (see the back-pressure paragraph above).
     */
    public WebSocketConfig withSendTimeout(Duration sendTimeout) {
        return new WebSocketConfig(maxMessageSize, idleTimeout, subprotocols, allowedOrigins, compression, sendTimeout);
    }
}
