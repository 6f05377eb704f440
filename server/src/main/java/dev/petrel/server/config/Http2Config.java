package dev.petrel.server.config;

/**
 * HTTP/2 settings and limits of a server: whether it speaks HTTP/2 (by ALPN {@code h2} on HTTPS
 * connectors, and with prior knowledge, {@code h2c}, on plain ones), what it advertises in its
 * {@code SETTINGS}, and the limits that keep one connection from costing the server more than its
 * requests are worth.
 *
 * <table class="striped">
 *   <caption>Settings and their defaults</caption>
 *   <tr><th>setting</th><th>default</th><th>what it bounds</th></tr>
 *   <tr><td>{@code enabled}</td><td>true</td><td>{@code h2} offered by ALPN on HTTPS connectors, before
 *       {@code http/1.1}</td></tr>
 *   <tr><td>{@code clearText}</td><td>false</td><td>{@code h2c}: plain connectors also take HTTP/2 with prior
 *       knowledge (a client that starts with the preface); off by default, as in Tomcat and Jetty, since
 *       every plain connection is then looked at before HTTP/1.1 opens</td></tr>
 *   <tr><td>{@code maxConcurrentStreams}</td><td>100</td><td>requests in progress at once on one connection
 *       ({@code SETTINGS_MAX_CONCURRENT_STREAMS}); more are refused with {@code REFUSED_STREAM}</td></tr>
 *   <tr><td>{@code initialWindowSize}</td><td>65,535</td><td>request body bytes a stream may send ahead of the
 *       handler reading them ({@code SETTINGS_INITIAL_WINDOW_SIZE})</td></tr>
 *   <tr><td>{@code connectionWindowSize}</td><td>1 MiB</td><td>request body bytes buffered per connection,
 *       all streams together</td></tr>
 *   <tr><td>{@code maxFrameSize}</td><td>16,384</td><td>the largest frame accepted ({@code SETTINGS_MAX_FRAME_SIZE})</td></tr>
 *   <tr><td>{@code headerTableSize}</td><td>4,096</td><td>the HPACK table the client may fill ({@code SETTINGS_HEADER_TABLE_SIZE})</td></tr>
 *   <tr><td>{@code maxResetsPerSecond}</td><td>200</td><td>streams reset, by the client or provoked from the
 *       server (rapid reset, CVE-2023-44487; MadeYouReset, CVE-2025-8671)</td></tr>
 *   <tr><td>{@code maxControlFramesPerSecond}</td><td>1,000</td><td>{@code SETTINGS}, {@code PING},
 *       {@code PRIORITY} and unknown frames</td></tr>
 *   <tr><td>{@code maxEmptyFramesPerSecond}</td><td>200</td><td>{@code DATA} and {@code CONTINUATION} frames that
 *       carry nothing</td></tr>
 * </table>
 *
 * <p>A connection over a rate limit is ended with {@code GOAWAY ENHANCE_YOUR_CALM}. The decoded
 * header list is bounded by the server's {@code maxHeaderSectionSize} ({@code 431} on the stream);
 * the compressed header block, {@code CONTINUATION} frames included, by the same size.
 *
 * @param enabled whether the server speaks HTTP/2 at all
 * @param clearText whether plain connectors take HTTP/2 with prior knowledge too
 * @param maxConcurrentStreams streams open at once per connection
 * @param initialWindowSize the per-stream receive window advertised
 * @param connectionWindowSize the connection's receive window
 * @param maxFrameSize the largest frame payload accepted
 * @param headerTableSize the HPACK dynamic table size allowed to the client
 * @param maxResetsPerSecond stream resets per second before the connection is ended
 * @param maxControlFramesPerSecond control frames per second before the connection is ended
 * @param maxEmptyFramesPerSecond empty frames per second before the connection is ended
 */
public record Http2Config(
        boolean enabled,
        boolean clearText,
        int maxConcurrentStreams,
        int initialWindowSize,
        int connectionWindowSize,
        int maxFrameSize,
        int headerTableSize,
        int maxResetsPerSecond,
        int maxControlFramesPerSecond,
        int maxEmptyFramesPerSecond) {

    /** The defaults in the table above. */
    public static final Http2Config DEFAULT = new Http2Config(true, false, 100, 65_535, 1 << 20, 16_384, 4_096, 200, 1_000, 200);

    /** HTTP/2 with the defaults: {@code h2} over TLS, not {@code h2c}; the same as {@link #DEFAULT}. */
    public static final Http2Config ENABLED = DEFAULT;

    /** HTTP/2 turned off: HTTPS offers only {@code http/1.1}. */
    public static final Http2Config DISABLED = DEFAULT.withEnabled(false);

    /** Checks every setting against RFC 9113's ranges; turning HTTP/2 off turns {@code h2c} off too. */
    public Http2Config {
        if (!enabled) clearText = false;
        if (maxConcurrentStreams < 1) throw new IllegalArgumentException("maxConcurrentStreams must be positive");
        if (initialWindowSize < 1) throw new IllegalArgumentException("initialWindowSize must be positive");
        if (connectionWindowSize < 65_535) throw new IllegalArgumentException("connectionWindowSize must be at least 65535");
        if (maxFrameSize < 16_384 || maxFrameSize > 16_777_215) {
            throw new IllegalArgumentException("maxFrameSize must be between 16384 and 16777215");
        }
        if (headerTableSize < 0) throw new IllegalArgumentException("headerTableSize must not be negative");
        if (maxResetsPerSecond < 1 || maxControlFramesPerSecond < 1 || maxEmptyFramesPerSecond < 1) {
            throw new IllegalArgumentException("rate limits must be positive");
        }
    }

    /** A copy that speaks HTTP/2 or not. */
    public Http2Config withEnabled(boolean enabled) {
        return new Http2Config(enabled, clearText, maxConcurrentStreams, initialWindowSize, connectionWindowSize, maxFrameSize,
                headerTableSize, maxResetsPerSecond, maxControlFramesPerSecond, maxEmptyFramesPerSecond);
    }

    /** A copy that takes HTTP/2 with prior knowledge on plain connectors or not (and speaks HTTP/2 when it does). */
    public Http2Config withClearText(boolean clearText) {
        return new Http2Config(enabled || clearText, clearText, maxConcurrentStreams, initialWindowSize, connectionWindowSize,
                maxFrameSize, headerTableSize, maxResetsPerSecond, maxControlFramesPerSecond, maxEmptyFramesPerSecond);
    }

    /** A copy with another concurrent stream limit. */
    public Http2Config withMaxConcurrentStreams(int maxConcurrentStreams) {
        return new Http2Config(enabled, clearText, maxConcurrentStreams, initialWindowSize, connectionWindowSize, maxFrameSize,
                headerTableSize, maxResetsPerSecond, maxControlFramesPerSecond, maxEmptyFramesPerSecond);
    }

    /** A copy with other receive windows. */
    public Http2Config withWindows(int initialWindowSize, int connectionWindowSize) {
        return new Http2Config(enabled, clearText, maxConcurrentStreams, initialWindowSize, connectionWindowSize, maxFrameSize,
                headerTableSize, maxResetsPerSecond, maxControlFramesPerSecond, maxEmptyFramesPerSecond);
    }

    /** A copy with other flood limits. */
    public Http2Config withRateLimits(int maxResetsPerSecond, int maxControlFramesPerSecond, int maxEmptyFramesPerSecond) {
        return new Http2Config(enabled, clearText, maxConcurrentStreams, initialWindowSize, connectionWindowSize, maxFrameSize,
                headerTableSize, maxResetsPerSecond, maxControlFramesPerSecond, maxEmptyFramesPerSecond);
    }
}
