package dev.petrel.server;

import java.util.List;

/**
 * What a server counted of the WebSocket sessions on one of its connectors
 * ({@link ConnectorMetrics#webSockets()}): sessions opened and open now, whole data messages and
 * their bytes each way, and how sessions closed. Read live, without a lock, like the rest of
 * {@link ConnectorMetrics}.
 *
 * <p>Bytes are message payloads as the handler sees them: after inflating a compressed message,
 * before compressing one sent, text counted in UTF-8; frame headers and control frames (ping,
 * pong, close) are not counted. The connection's bytes on the wire, compression and TLS
 * included, are in {@link ConnectorMetrics#bytesReceived()} and {@link ConnectorMetrics#bytesSent()}.
 * Messages and bytes count as each message is received or sent, so a long session's traffic
 * shows while it lasts.
 */
public interface WebSocketMetrics {
    /**
     * The close codes counted apart (RFC 6455 section 7.4.1): normal, going away, protocol error,
     * unsupported data, no status (a client's close without a code), abnormal (no close frame),
     * invalid payload, policy violation, message too big, internal error. Any other code counts
     * in {@link #closesOther()}.
     */
    List<Integer> CLOSE_CODES = List.of(1000, 1001, 1002, 1003, 1005, 1006, 1007, 1008, 1009, 1011);

    /** Sessions opened: handshakes answered with {@code 101} whose handler started. */
    long sessionsOpened();

    /** Sessions whose handler is running now. */
    long sessionsOpen();

    /** Whole data messages (text or binary) received from clients. */
    long messagesReceived();

    /** Whole data messages sent to clients. */
    long messagesSent();

    /** Payload bytes of the messages received (see the class comment). */
    long bytesReceived();

    /** Payload bytes of the messages sent (see the class comment). */
    long bytesSent();

    /**
     * Sessions that ended with {@code code}: the first close frame sent or received, or
     * {@code 1006} when the connection ended without one.
     *
     * @throws IllegalArgumentException when {@code code} is not one of {@link #CLOSE_CODES}
     */
    long closes(int code);

    /** Sessions that ended with a code not in {@link #CLOSE_CODES}: 1010, 1012 to 1014, or an application's 3000 to 4999. */
    long closesOther();
}
