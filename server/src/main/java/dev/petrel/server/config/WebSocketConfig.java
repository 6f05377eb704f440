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
 * </table>
 *
 * @param maxMessageSize the largest message taken, in bytes
 * @param idleTimeout how long a session may go without a frame from its client
 * @param subprotocols the subprotocols spoken, in order of preference
 * @param allowedOrigins the other origins allowed, or {@code *}
 * @param compression whether {@code permessage-deflate} is accepted
 */
public record WebSocketConfig(int maxMessageSize, Duration idleTimeout, List<String> subprotocols, List<String> allowedOrigins,
                              boolean compression) {
    /** The defaults in the table above. */
    public static final WebSocketConfig DEFAULT = new WebSocketConfig(1 << 20, Duration.ofMinutes(5), List.of(), List.of(), true);

    /** Checks the limits and copies the lists. */
    public WebSocketConfig {
        if (maxMessageSize < 125) throw new IllegalArgumentException("maxMessageSize must be at least 125");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (idleTimeout.isNegative() || idleTimeout.isZero()) throw new IllegalArgumentException("idleTimeout must be positive");
        subprotocols = List.copyOf(subprotocols);
        allowedOrigins = List.copyOf(allowedOrigins);
    }

    /** This config with {@code maxMessageSize}. */
    public WebSocketConfig withMaxMessageSize(int maxMessageSize) {
        return new WebSocketConfig(maxMessageSize, idleTimeout, subprotocols, allowedOrigins, compression);
    }

    /** This config with {@code idleTimeout}. */
    public WebSocketConfig withIdleTimeout(Duration idleTimeout) {
        return new WebSocketConfig(maxMessageSize, idleTimeout, subprotocols, allowedOrigins, compression);
    }

    /** This config speaking {@code subprotocols}, in order of preference. */
    public WebSocketConfig withSubprotocols(String... subprotocols) {
        return new WebSocketConfig(maxMessageSize, idleTimeout, List.of(subprotocols), allowedOrigins, compression);
    }

    /** This config letting pages from {@code origins} (or {@code *}: any) open a session too. */
    public WebSocketConfig withAllowedOrigins(String... origins) {
        return new WebSocketConfig(maxMessageSize, idleTimeout, subprotocols, List.of(origins), compression);
    }

    /** This config with {@code permessage-deflate} accepted or not. */
    public WebSocketConfig withCompression(boolean compression) {
        return new WebSocketConfig(maxMessageSize, idleTimeout, subprotocols, allowedOrigins, compression);
    }
}
