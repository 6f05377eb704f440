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
 *   <tr><td>{@code pingInterval}</td><td>off</td><td>time without a frame from the client after which the server
 *       pings it; zero for never</td></tr>
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
 * its timeout (the sessions are looked at four times a second). A listener's sends on the
 * {@code nio} transport are the exception: they run on the event loop, which must not wait, so
 * what the socket does not take is queued and sent as the client reads, the session reading
 * nothing meanwhile; each queued frame is held to the send timeout, and a backlog past
 * {@code maxMessageSize} or 1 MiB, whichever is larger, ends the session with {@code 1008}
 * (see {@link dev.petrel.server.WebSocketListener}).
 *
 * <p><b>Keep-alive.</b> With a {@code pingInterval}, the server pings a session whose client has
 * sent nothing for that long, and again each interval while it stays quiet. The client's pong, or
 * anything else it sends, makes it active again; one that answers nothing is still closed with
 * {@code 1001} at the {@code idleTimeout}. Pings keep proxies and NAT devices from dropping a quiet
 * session (nginx's {@code proxy_read_timeout} and AWS load balancers cut one idle for 60 s, so
 * 30 s is a good interval behind them), and let a client that only listens stay past the idle
 * timeout by answering them. Off by default, as in Jetty, Tomcat and Netty: it sends frames the
 * application did not ask for, and changes what the idle timeout measures (a silent client that
 * answers pings is no longer idle).
 *
 * @param maxMessageSize the largest message taken, in bytes
 * @param idleTimeout how long a session may go without a frame from its client
 * @param subprotocols the subprotocols spoken, in order of preference
 * @param allowedOrigins the other origins allowed, or {@code *}
 * @param compression whether {@code permessage-deflate} is accepted
 * @param sendTimeout how long one frame sent to the client may take to be written
 * @param pingInterval how long a client may stay quiet before it is pinged; {@link Duration#ZERO} for never
 */
public record WebSocketConfig(int maxMessageSize, Duration idleTimeout, List<String> subprotocols, List<String> allowedOrigins,
                              boolean compression, Duration sendTimeout, Duration pingInterval) {
    /** The defaults in the table above. */
    public static final WebSocketConfig DEFAULT = new WebSocketConfig(1 << 20, Duration.ofMinutes(5), List.of(), List.of(), true,
            Duration.ofSeconds(30), Duration.ZERO);

    /** Checks the limits and copies the lists. */
    public WebSocketConfig {
        if (maxMessageSize < 125) throw new IllegalArgumentException("maxMessageSize must be at least 125");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (idleTimeout.isNegative() || idleTimeout.isZero()) throw new IllegalArgumentException("idleTimeout must be positive");
        subprotocols = List.copyOf(subprotocols);
        allowedOrigins = List.copyOf(allowedOrigins);
        Objects.requireNonNull(sendTimeout, "sendTimeout");
        if (sendTimeout.isNegative() || sendTimeout.isZero()) throw new IllegalArgumentException("sendTimeout must be positive");
        Objects.requireNonNull(pingInterval, "pingInterval");
        if (pingInterval.isNegative()) throw new IllegalArgumentException("pingInterval must not be negative");
    }

    /** This config with {@code maxMessageSize}. */
    public WebSocketConfig withMaxMessageSize(int maxMessageSize) {
        return new WebSocketConfig(maxMessageSize, idleTimeout, subprotocols, allowedOrigins, compression, sendTimeout, pingInterval);
    }

    /** This config with {@code idleTimeout}. */
    public WebSocketConfig withIdleTimeout(Duration idleTimeout) {
        return new WebSocketConfig(maxMessageSize, idleTimeout, subprotocols, allowedOrigins, compression, sendTimeout, pingInterval);
    }

    /** This config speaking {@code subprotocols}, in order of preference. */
    public WebSocketConfig withSubprotocols(String... subprotocols) {
        return new WebSocketConfig(maxMessageSize, idleTimeout, List.of(subprotocols), allowedOrigins, compression, sendTimeout,
                pingInterval);
    }

    /** This config letting pages from {@code origins} (or {@code *}: any) open a session too. */
    public WebSocketConfig withAllowedOrigins(String... origins) {
        return new WebSocketConfig(maxMessageSize, idleTimeout, subprotocols, List.of(origins), compression, sendTimeout, pingInterval);
    }

    /** This config with {@code permessage-deflate} accepted or not. */
    public WebSocketConfig withCompression(boolean compression) {
        return new WebSocketConfig(maxMessageSize, idleTimeout, subprotocols, allowedOrigins, compression, sendTimeout, pingInterval);
    }

    /**
     * This config with {@code sendTimeout}: the longest one frame sent to the client may take to be
     * written before the session ends with {@code 1008} (see the back-pressure paragraph above).
     */
    public WebSocketConfig withSendTimeout(Duration sendTimeout) {
        return new WebSocketConfig(maxMessageSize, idleTimeout, subprotocols, allowedOrigins, compression, sendTimeout, pingInterval);
    }

    /**
     * This config with {@code pingInterval}: the client is pinged once it has been quiet that long;
     * {@link Duration#ZERO} turns keep-alive pings off (see the keep-alive paragraph above).
     */
    public WebSocketConfig withPingInterval(Duration pingInterval) {
        return new WebSocketConfig(maxMessageSize, idleTimeout, subprotocols, allowedOrigins, compression, sendTimeout, pingInterval);
    }
}
