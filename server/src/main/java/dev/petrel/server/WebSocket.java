package dev.petrel.server;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * One WebSocket session as its {@link WebSocketHandler} sees it. One thread receives; any thread
 * may send, and sends are written whole, one at a time, in the order they were made.
 *
 * <p>Sending blocks while the client does not read: a slow client slows its sender down instead of
 * filling the server's memory, and one that does not take a message within the route's send
 * timeout ({@link dev.petrel.server.config.WebSocketConfig#sendTimeout()}) is disconnected: the
 * send throws, {@link #closeCode()} is {@code 1008}, and {@link #receive()} returns null.
 */
public interface WebSocket {
    /**
     * Waits for the next whole message. Pings are answered and pongs skipped meanwhile. Returns
     * null once the session has closed: the client closed it (its close is answered), it broke the
     * protocol (the server closed it with the RFC's code, see {@link #closeCode()}), it was idle
     * past the route's timeout, or the server is stopping.
     *
     * @throws IOException when the connection failed
     */
    WebSocketMessage receive() throws IOException;

    /**
     * Sends a text message.
     *
     * @throws IOException when the session is closed, the connection failed, or the client did not
     *         take the message within the send timeout
     */
    void sendText(String text) throws IOException;

    /**
     * Sends a binary message.
     *
     * @throws IOException when the session is closed or the connection failed
     */
    void sendBinary(byte[] bytes) throws IOException;

    /**
     * Sends a ping (at most 125 bytes of payload); the client's pong is skipped by {@link #receive()}.
     *
     * @throws IOException when the session is closed or the connection failed
     */
    void ping(byte[] payload) throws IOException;

    /**
     * Starts the closing handshake with {@code code} (RFC 6455 section 7.4) and {@code reason}
     * (cut to fit 123 bytes of UTF-8); the connection ends once the client answers, or after a
     * short wait. Nothing when the session is closed already.
     *
     * @throws IllegalArgumentException when {@code code} may not be sent (1005, 1006, 1015, or
     *         outside 1000-4999)
     */
    void close(int code, String reason);

    /** Whether messages can still be sent: no close was sent or received. */
    boolean isOpen();

    /**
     * The close code of a closed session: the client's, or the server's when it closed first;
     * {@code 1006} when the connection ended without a close; 0 while open.
     */
    int closeCode();

    /** The path of the request that opened the session. */
    String path();

    /** The query of that request, undecoded, or null. */
    String query();

    /** A header of that request (the first, when repeated), or null. */
    String header(String name);

    /** The subprotocol chosen in the handshake, or null. */
    String subprotocol();

    /** The client's address (a trusted proxy's client, when forwarded). */
    InetSocketAddress remoteAddress();
}
