package dev.petrel.server;

import dev.petrel.http.HttpLimits;
import java.time.Duration;
import java.util.Objects;

/**
 * What the protocol engine enforces on every connection, whatever the transport.
 *
 * <table>
 *   <caption>Settings and defaults</caption>
 *   <tr><th>Setting</th><th>Default</th><th>Why</th></tr>
 *   <tr><td>{@code limits}</td><td>{@link HttpLimits#DEFAULT}</td><td>request line, header and body sizes</td></tr>
 *   <tr><td>{@code headerTimeout}</td><td>10 s</td><td>time from a request's first byte (or from accept) to its whole head: the slowloris cut-off (408)</td></tr>
 *   <tr><td>{@code idleTimeout}</td><td>20 s</td><td>how long a keep-alive connection may wait for its next request</td></tr>
 *   <tr><td>{@code bodyReadTimeout}</td><td>20 s</td><td>longest wait for the next bytes of a request body</td></tr>
 *   <tr><td>{@code writeTimeout}</td><td>20 s</td><td>longest a response write may wait for the client to take bytes: a client that stops reading is cut then, and its connection freed</td></tr>
 *   <tr><td>{@code maxRequestsPerConnection}</td><td>10,000</td><td>then the connection closes, spreading load after a balancer change</td></tr>
 *   <tr><td>{@code maxDrainBytes}</td><td>64 KiB</td><td>request body a handler left unread that is read and discarded to keep the connection; beyond it, the connection closes</td></tr>
 *   <tr><td>{@code responseBufferSize}</td><td>16 KiB</td><td>body bytes buffered before the head is sent; a body that fits is sent with its length in one write</td></tr>
 * </table>
 *
 * @param limits codec limits
 * @param headerTimeout time allowed for a request head
 * @param idleTimeout keep-alive idle time
 * @param bodyReadTimeout wait allowed for request body bytes
 * @param writeTimeout wait allowed for the client to take response bytes
 * @param maxRequestsPerConnection requests served before a connection is closed
 * @param maxDrainBytes unread body bytes discarded to keep a connection
 * @param responseBufferSize response body bytes buffered before commit
 */
public record ServerConfig(
        HttpLimits limits,
        Duration headerTimeout,
        Duration idleTimeout,
        Duration bodyReadTimeout,
        Duration writeTimeout,
        int maxRequestsPerConnection,
        long maxDrainBytes,
        int responseBufferSize) {

    /** The defaults in the table above. */
    public static final ServerConfig DEFAULT = new ServerConfig(HttpLimits.DEFAULT, Duration.ofSeconds(10),
            Duration.ofSeconds(20), Duration.ofSeconds(20), Duration.ofSeconds(20), 10_000, 64 * 1024, 16 * 1024);

    /** Checks every setting. */
    public ServerConfig {
        Objects.requireNonNull(limits, "limits");
        requirePositive(headerTimeout, "headerTimeout");
        requirePositive(idleTimeout, "idleTimeout");
        requirePositive(bodyReadTimeout, "bodyReadTimeout");
        requirePositive(writeTimeout, "writeTimeout");
        if (maxRequestsPerConnection < 1) throw new IllegalArgumentException("maxRequestsPerConnection must be positive");
        if (maxDrainBytes < 0) throw new IllegalArgumentException("maxDrainBytes must not be negative");
        if (responseBufferSize < 256) throw new IllegalArgumentException("responseBufferSize must be at least 256");
    }

    private static void requirePositive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) throw new IllegalArgumentException(name + " must be positive");
    }
}
