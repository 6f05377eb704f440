package dev.petrel.server.engine;

import java.net.InetSocketAddress;

/**
 * What an exchange holds of the stream it runs on, whatever the protocol: the connection of an
 * HTTP/1.1 or AJP exchange ({@link ConnectionLifecycle}), or one stream of an HTTP/2 connection.
 * Cutting an exchange cuts its stream alone: over HTTP/2 the other streams of the connection go on.
 */
public interface ExchangeStream {
    /**
     * Cuts the stream so that the client sees a failure, not an end: a response that failed after
     * bytes of it had left. Resets the connection (HTTP/1.1, AJP) or the stream (HTTP/2).
     */
    void reset();

    /** Ends the stream now, whatever it is doing: the server is going away. */
    void abort();

    /**
     * Whether the exchange runs where it must never wait: on a transport's event loop, or on an
     * HTTP/2 connection's reader.
     */
    boolean onEventLoop();

    /** The client's address as the connection sees it, for log lines. */
    InetSocketAddress remoteAddress();
}
