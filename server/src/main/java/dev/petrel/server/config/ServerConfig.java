package dev.petrel.server.config;

import dev.petrel.http.HttpLimits;
import java.time.Duration;
import java.util.Objects;

/**
 * What the protocol engine enforces on every connection, whatever the transport. Start from
 * {@link #DEFAULT} and change what differs: {@code ServerConfig.DEFAULT.withIdleTimeout(Duration.ofSeconds(60))}.
 *
 * <table>
 *   <caption>Settings and defaults</caption>
 *   <tr><th>Setting</th><th>Default</th><th>Why</th></tr>
 *   <tr><td>{@code limits}</td><td>{@link HttpLimits#DEFAULT}</td><td>request line, header, trailer, chunk line and body sizes</td></tr>
 *   <tr><td>{@code headerTimeout}</td><td>10 s</td><td>time from a request's first byte (or from accept) to its whole head: the slowloris cut-off (408)</td></tr>
 *   <tr><td>{@code idleTimeout}</td><td>20 s</td><td>how long a keep-alive connection may wait for its next request</td></tr>
 *   <tr><td>{@code bodyReadTimeout}</td><td>20 s</td><td>longest wait for the next bytes of a request body (408)</td></tr>
 *   <tr><td>{@code writeTimeout}</td><td>20 s</td><td>longest a response write may wait for the client to take any byte: a client that stops reading is cut then, and its connection freed</td></tr>
 *   <tr><td>{@code maxRequestsPerConnection}</td><td>10,000</td><td>then the connection closes, spreading load after a balancer change</td></tr>
 *   <tr><td>{@code maxDrainBytes}</td><td>64 KiB</td><td>request body a handler left unread that is read and discarded to keep the connection; beyond it, the connection closes</td></tr>
 *   <tr><td>{@code responseBufferSize}</td><td>16 KiB</td><td>body bytes buffered before the head is sent; a body that fits is sent with its length in one write</td></tr>
 *   <tr><td>{@code minRequestBodyRate}</td><td>240 B/s after 5 s</td><td>a body trickled slower than this is cut with 408 (see {@link DataRate}; Kestrel's default)</td></tr>
 *   <tr><td>{@code requestBodyTimeout}</td><td>off</td><td>the longest a whole request body may keep the server waiting, however steady; zero for none</td></tr>
 *   <tr><td>{@code minResponseRate}</td><td>240 B/s after 5 s</td><td>a client reading the response slower than this is cut, and its connection freed</td></tr>
 *   <tr><td>{@code headTimeoutWhenFull}</td><td>2 s</td><td>when every connection slot is taken, connections that have waited this long for a request head (idle keep-alive ones, and heads still arriving) are closed to make room</td></tr>
 * </table>
 *
 * @param limits codec limits
 * @param headerTimeout time allowed for a request head
 * @param idleTimeout keep-alive idle time
 * @param bodyReadTimeout wait allowed for the next request body bytes
 * @param writeTimeout wait allowed for the client to take response bytes
 * @param maxRequestsPerConnection requests served before a connection is closed
 * @param maxDrainBytes unread body bytes discarded to keep a connection
 * @param responseBufferSize response body bytes buffered before commit
 * @param minRequestBodyRate the slowest request body accepted
 * @param requestBodyTimeout the longest a request body may keep the server waiting in all; zero for no limit
 * @param minResponseRate the slowest response reader kept
 * @param headTimeoutWhenFull how long a connection may wait for a request head while the server is full
 */
public record ServerConfig(
        HttpLimits limits,
        Duration headerTimeout,
        Duration idleTimeout,
        Duration bodyReadTimeout,
        Duration writeTimeout,
        int maxRequestsPerConnection,
        long maxDrainBytes,
        int responseBufferSize,
        DataRate minRequestBodyRate,
        Duration requestBodyTimeout,
        DataRate minResponseRate,
        Duration headTimeoutWhenFull) {

    /** The defaults in the table above. */
    public static final ServerConfig DEFAULT = new ServerConfig(HttpLimits.DEFAULT, Duration.ofSeconds(10),
            Duration.ofSeconds(20), Duration.ofSeconds(20), Duration.ofSeconds(20), 10_000, 64 * 1024, 16 * 1024,
            new DataRate(240, Duration.ofSeconds(5)), Duration.ZERO, new DataRate(240, Duration.ofSeconds(5)),
            Duration.ofSeconds(2));

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
        Objects.requireNonNull(minRequestBodyRate, "minRequestBodyRate");
        Objects.requireNonNull(requestBodyTimeout, "requestBodyTimeout");
        if (requestBodyTimeout.isNegative()) throw new IllegalArgumentException("requestBodyTimeout must not be negative");
        Objects.requireNonNull(minResponseRate, "minResponseRate");
        requirePositive(headTimeoutWhenFull, "headTimeoutWhenFull");
    }

    private static void requirePositive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) throw new IllegalArgumentException(name + " must be positive");
    }

    /** A copy with other codec limits. */
    public ServerConfig withLimits(HttpLimits limits) {
        return new ServerConfig(limits, headerTimeout, idleTimeout, bodyReadTimeout, writeTimeout, maxRequestsPerConnection,
                maxDrainBytes, responseBufferSize, minRequestBodyRate, requestBodyTimeout, minResponseRate, headTimeoutWhenFull);
    }

    /** A copy with another header timeout. */
    public ServerConfig withHeaderTimeout(Duration headerTimeout) {
        return new ServerConfig(limits, headerTimeout, idleTimeout, bodyReadTimeout, writeTimeout, maxRequestsPerConnection,
                maxDrainBytes, responseBufferSize, minRequestBodyRate, requestBodyTimeout, minResponseRate, headTimeoutWhenFull);
    }

    /** A copy with another keep-alive idle timeout. */
    public ServerConfig withIdleTimeout(Duration idleTimeout) {
        return new ServerConfig(limits, headerTimeout, idleTimeout, bodyReadTimeout, writeTimeout, maxRequestsPerConnection,
                maxDrainBytes, responseBufferSize, minRequestBodyRate, requestBodyTimeout, minResponseRate, headTimeoutWhenFull);
    }

    /** A copy with another wait allowed for the next request body bytes. */
    public ServerConfig withBodyReadTimeout(Duration bodyReadTimeout) {
        return new ServerConfig(limits, headerTimeout, idleTimeout, bodyReadTimeout, writeTimeout, maxRequestsPerConnection,
                maxDrainBytes, responseBufferSize, minRequestBodyRate, requestBodyTimeout, minResponseRate, headTimeoutWhenFull);
    }

    /** A copy with another write timeout. */
    public ServerConfig withWriteTimeout(Duration writeTimeout) {
        return new ServerConfig(limits, headerTimeout, idleTimeout, bodyReadTimeout, writeTimeout, maxRequestsPerConnection,
                maxDrainBytes, responseBufferSize, minRequestBodyRate, requestBodyTimeout, minResponseRate, headTimeoutWhenFull);
    }

    /** A copy with another number of requests per connection. */
    public ServerConfig withMaxRequestsPerConnection(int maxRequestsPerConnection) {
        return new ServerConfig(limits, headerTimeout, idleTimeout, bodyReadTimeout, writeTimeout, maxRequestsPerConnection,
                maxDrainBytes, responseBufferSize, minRequestBodyRate, requestBodyTimeout, minResponseRate, headTimeoutWhenFull);
    }

    /** A copy with another drain limit. */
    public ServerConfig withMaxDrainBytes(long maxDrainBytes) {
        return new ServerConfig(limits, headerTimeout, idleTimeout, bodyReadTimeout, writeTimeout, maxRequestsPerConnection,
                maxDrainBytes, responseBufferSize, minRequestBodyRate, requestBodyTimeout, minResponseRate, headTimeoutWhenFull);
    }

    /** A copy with another response buffer size. */
    public ServerConfig withResponseBufferSize(int responseBufferSize) {
        return new ServerConfig(limits, headerTimeout, idleTimeout, bodyReadTimeout, writeTimeout, maxRequestsPerConnection,
                maxDrainBytes, responseBufferSize, minRequestBodyRate, requestBodyTimeout, minResponseRate, headTimeoutWhenFull);
    }

    /** A copy with another minimum request body rate ({@link DataRate#OFF} for none). */
    public ServerConfig withMinRequestBodyRate(DataRate minRequestBodyRate) {
        return new ServerConfig(limits, headerTimeout, idleTimeout, bodyReadTimeout, writeTimeout, maxRequestsPerConnection,
                maxDrainBytes, responseBufferSize, minRequestBodyRate, requestBodyTimeout, minResponseRate, headTimeoutWhenFull);
    }

    /** A copy with another total request body timeout ({@link Duration#ZERO} for none). */
    public ServerConfig withRequestBodyTimeout(Duration requestBodyTimeout) {
        return new ServerConfig(limits, headerTimeout, idleTimeout, bodyReadTimeout, writeTimeout, maxRequestsPerConnection,
                maxDrainBytes, responseBufferSize, minRequestBodyRate, requestBodyTimeout, minResponseRate, headTimeoutWhenFull);
    }

    /** A copy with another minimum response rate ({@link DataRate#OFF} for none). */
    public ServerConfig withMinResponseRate(DataRate minResponseRate) {
        return new ServerConfig(limits, headerTimeout, idleTimeout, bodyReadTimeout, writeTimeout, maxRequestsPerConnection,
                maxDrainBytes, responseBufferSize, minRequestBodyRate, requestBodyTimeout, minResponseRate, headTimeoutWhenFull);
    }

    /** A copy with another head timeout for when the server is full. */
    public ServerConfig withHeadTimeoutWhenFull(Duration headTimeoutWhenFull) {
        return new ServerConfig(limits, headerTimeout, idleTimeout, bodyReadTimeout, writeTimeout, maxRequestsPerConnection,
                maxDrainBytes, responseBufferSize, minRequestBodyRate, requestBodyTimeout, minResponseRate, headTimeoutWhenFull);
    }
}
