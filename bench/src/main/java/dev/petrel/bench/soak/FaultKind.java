package dev.petrel.bench.soak;

/**
 * One kind of fault {@link FaultInjector} runs against a soak server: what it sends, on which
 * listeners, and what a correct server does about it. Whatever a server does, its other clients
 * must not notice beyond the fault's own connections, and it must go on serving.
 */
public enum FaultKind {
    /**
     * {@code POST /upload} announcing {@code Content-Length: 1000000} (with the digest of the
     * whole), 20 to 100 KB of it, a pause of up to 300 ms, then a TCP reset. A correct server ends
     * the exchange, gives the handler an error on its next read, frees the connection, and logs
     * nothing worse than a client abort.
     */
    BODY_RESET_UPLOAD(Reach.ANY),
    /**
     * {@code GET /download?size=8000000&seed=1}, about 64 KB of the answer read, then a TCP reset.
     * A correct server stops writing at its next write and frees the connection.
     */
    BODY_RESET_DOWNLOAD(Reach.ANY),
    /**
     * {@code POST /upload} with {@code Transfer-Encoding: chunked}, a chunk size line announcing
     * more than is sent, part of the chunk, then the end of the client's stream (a FIN; on TLS
     * without {@code close_notify}), and whatever comes back read until EOF or 5 s. A correct
     * server sees a body cut short: a 400 (or a plain close) and the connection closed, never a
     * body taken as whole.
     */
    TRUNCATED_CHUNKED(Reach.ANY),
    /**
     * 10 to 20 connections at once, each sending a request head a few bytes per 500 ms for 6 to 8
     * s, never finishing it, then closed. A correct server holds them cheaply and cuts them at its
     * header timeout (a 408 or a close), without slowing anyone else.
     */
    SLOWLORIS_HEAD(Reach.ANY),
    /**
     * 4 to 10 connections at once, each a whole head of {@code POST /upload} with
     * {@code Content-Length: 100000}, then the body a few bytes per 500 ms for 6 to 8 s, then
     * closed. A correct server cuts bodies slower than its minimum rate (a 408 or a close) and
     * gives the handler an error.
     */
    SLOWLORIS_BODY(Reach.ANY),
    /**
     * On a TLS port, 1 to 4 KB of random bytes, or a handshake record header ({@code 16 03 01} and
     * a length) followed by random bytes, then read until EOF or 3 s. A correct server answers a
     * fatal alert or just closes, at once.
     */
    TLS_GARBAGE(Reach.TLS),
    /**
     * On a TLS port, a real ClientHello (the JDK's, from an {@code SSLEngine}) cut short, or whole
     * with the connection reset right after the first bytes of the ServerHello. A correct server
     * drops the half-made handshake and frees what it held for it.
     */
    TLS_HANDSHAKE_CUT(Reach.TLS),
    /**
     * h2c on the plain port: the preface, an empty SETTINGS, then 500 to 1000 pairs of HEADERS
     * ({@code GET /ping}, END_STREAM and END_HEADERS) and RST_STREAM (CANCEL) on new streams, in a
     * few big writes; then what comes back read until EOF or 3 s (CVE-2023-44487, rapid reset). A
     * correct server either copes, spending little on each stream, or ends the connection with
     * GOAWAY (ENHANCE_YOUR_CALM); the detail says whether a GOAWAY came and its code.
     */
    H2_RAPID_RESET(Reach.PLAIN),
    /**
     * h2c on the plain port: the preface, SETTINGS, a HEADERS without END_HEADERS, then
     * CONTINUATION frames of literal header fields with new names, never END_HEADERS, until the
     * server closes, 64 MB or 5 s (the 2024 CONTINUATION flood). A correct server bounds the
     * header block it buffers and ends the connection (GOAWAY, or a 431 and a close) long before.
     */
    H2_CONTINUATION_FLOOD(Reach.PLAIN),
    /**
     * h2c on the plain port: the preface, then 8000 to 12000 SETTINGS frames without reading the
     * ACKs, until the server closes or 5 s. A correct server ends the connection with GOAWAY
     * (ENHANCE_YOUR_CALM) once over its control-frame rate, rather than queueing ACKs nobody reads.
     */
    H2_SETTINGS_FLOOD(Reach.PLAIN),
    /**
     * 3 to 8 WebSockets on {@code /ws/echo} on the plain port: the upgrade, one masked text frame,
     * the echo read on some, then a TCP reset without a close frame, at once or after 1 to 3 s of
     * silence. A correct server ends each session (its handler sees the end) and frees it.
     */
    WEBSOCKET_VANISH(Reach.PLAIN),
    /**
     * On a clear-text port: a whole {@code GET /ping} and the end of the client's stream (a FIN)
     * at once, the answer read to EOF; or a FIN alone, right after connecting, and read until EOF
     * or 3 s. A correct server answers the request (200, {@code pong}) and then closes; with no
     * request, it closes.
     */
    HALF_CLOSE(Reach.CLEAR_TEXT),
    /**
     * The server's connection limit plus 50 connections to the plain port at once, held idle about
     * 3 s, then reset. A correct server keeps serving its other clients, holds or turns away the
     * ones over its limit (a 503, or waiting in the backlog), and frees every slot afterwards.
     */
    CONNECTION_BURST(Reach.PLAIN);

    private final Reach reach;

    FaultKind(Reach reach) {
        this.reach = reach;
    }

    /** Whether this fault may be aimed at {@code listener}. */
    boolean aimsAt(Listener listener) {
        return reach.admits(listener);
    }

    /** The listeners a fault is for. */
    enum Reach {
        /** Every listener: the fault is an HTTP/1.1 exchange gone wrong, over TLS on the TLS ones. */
        ANY,
        /** The TLS listeners: the fault is in the handshake. */
        TLS,
        /** The clear-text listeners (plain and proxy): the fault is in TCP's own half-close. */
        CLEAR_TEXT,
        /** The plain port alone: h2c by prior knowledge, the WebSocket echo, the connection limit. */
        PLAIN;

        boolean admits(Listener listener) {
            return switch (this) {
                case ANY -> true;
                case TLS -> listener.tls();
                case CLEAR_TEXT -> listener.clearText();
                case PLAIN -> listener.plain();
            };
        }
    }
}
