package dev.petrel.websocket;

/**
 * Size limits the {@link MessageDecoder} enforces. Both are checked as bytes arrive: a frame
 * header claiming a large length costs nothing until its bytes come, and a compressed message is
 * measured as it inflates, so a peer can make the decoder hold at most one message of
 * {@code maxMessageSize} bytes (plus one byte, found to be one too many) whatever it sends.
 *
 * <table>
 *   <caption>Limits and defaults</caption>
 *   <tr><th>Limit</th><th>Default</th><th>Exceeded</th></tr>
 *   <tr><td>{@code maxFrameSize}: payload bytes of one frame as sent (compressed, when it is)</td>
 *       <td>16 MiB</td><td>1009, on the frame's header</td></tr>
 *   <tr><td>{@code maxMessageSize}: bytes of one whole message, after inflating</td>
 *       <td>16 MiB</td><td>1009, as soon as the message grows past it</td></tr>
 * </table>
 *
 * <p>Why 16 MiB for both: a message is held whole before it is handed over, so
 * {@code maxMessageSize} is the memory a connection can cost, and 16 MiB is what HTTP bodies get
 * by default ({@code HttpLimits}) and the largest message of the Autobahn test suite (case 9.1.6
 * sends 16 MiB in one frame). The frame limit is no memory bound (payloads stream into the
 * message), so by default it lets any message that fits be sent in one frame; a server that
 * wants peers to fragment lowers it. A server with many untrusted clients should lower both.
 *
 * @param maxFrameSize largest frame payload accepted, in bytes, at least 125 (a control frame's largest)
 * @param maxMessageSize largest whole message accepted, in bytes, after inflating
 */
public record WebSocketLimits(int maxFrameSize, int maxMessageSize) {
    /** The largest array the JVM reliably allocates, the bound of {@code maxMessageSize}. */
    static final int MAX_ARRAY = Integer.MAX_VALUE - 16;

    /** The defaults in the table above. */
    public static final WebSocketLimits DEFAULT = new WebSocketLimits(16 << 20, 16 << 20);

    /** Checks that a control frame fits in a frame and a message fits in an array. */
    public WebSocketLimits {
        if (maxFrameSize < 125) throw new IllegalArgumentException("maxFrameSize below 125, the size of a control frame: " + maxFrameSize);
        if (maxMessageSize < 0 || maxMessageSize > MAX_ARRAY) {
            throw new IllegalArgumentException("maxMessageSize outside 0.." + MAX_ARRAY + ": " + maxMessageSize);
        }
    }

    /** A copy with another frame limit. */
    public WebSocketLimits withMaxFrameSize(int bytes) {
        return new WebSocketLimits(bytes, maxMessageSize);
    }

    /** A copy with another message limit. */
    public WebSocketLimits withMaxMessageSize(int bytes) {
        return new WebSocketLimits(maxFrameSize, bytes);
    }
}
