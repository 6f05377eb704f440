package dev.petrel.server.http1;

import dev.petrel.http.ByteSink;
import dev.petrel.http.ChunkedEncoder;
import dev.petrel.http.DateCache;
import dev.petrel.http.HttpStatus;
import dev.petrel.http.ResponseHeadEncoder;
import dev.petrel.server.engine.connection.ConnectionInput;
import dev.petrel.server.engine.connection.ConnectionLifecycle;
import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.exchange.BodySource;
import dev.petrel.server.engine.exchange.ConnectionStream;
import dev.petrel.server.engine.exchange.ResponseHead;
import dev.petrel.server.engine.exchange.WebSocketCarrier;
import dev.petrel.server.websocket.Http1WebSocketUpgrade;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;

/**
 * An HTTP/1.1 connection as the stream of the exchange in flight. The request body is read from
 * the connection ({@link RequestBody}); the response goes out as a head in text, then the body
 * framed by its length, chunked for an HTTP/1.1 client when the length is not known (or trailers
 * must follow), or delimited by closing the connection for an HTTP/1.0 one. The head is encoded
 * apart and copied into the room before the body, so that a small response leaves in one write.
 * Part of the {@link Http1ExchangeParts} a busy connection takes from its pool.
 */
final class Http1Stream extends ConnectionStream {
    /** Room before the body in the work buffer for the head (or a chunk header); a longer head is written apart. */
    static final int HEAD_ROOM = 1024;
    /** Room after the body for a chunk's closing CRLF. */
    static final int TAIL_ROOM = 2;
    private static final byte[] CLOSE = "close".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEEP_ALIVE = "keep-alive".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CHUNKED = "chunked".getBytes(StandardCharsets.US_ASCII);

    private enum Framing { LENGTH, CHUNKED, CLOSE_DELIMITED }

    /** What the connection tells the stream at commit. */
    interface Connection {
        /** Whether the connection must close after this response, as far as the engine knows. */
        boolean mustClose();

        /** Whether the client is HTTP/1.0. */
        boolean http10();

        /** Whether the client is HTTP/1.0 and asked for keep-alive, which the response must then confirm. */
        boolean confirmKeepAlive();

        /** Whether the connection may switch to another protocol now: an HTTP/1.1 request whose body has been read. */
        boolean canSwitchProtocols();
    }

    private final DateCache dates;
    private final RequestBody body;
    private final ByteSink sink = new ByteSink(256); // the head, a chunk header or a last chunk: small, encoded apart
    private Endpoint endpoint;     // bound to the connection whose request is in flight
    private Connection connection;
    private Framing framing;
    private boolean closeConnection;
    private boolean sent;

    /** A stream reading bodies through {@code body}, dating responses from {@code dates}; {@link #bind} it before use. */
    Http1Stream(DateCache dates, RequestBody body) {
        this.dates = dates;
        this.body = body;
    }

    /**
     * Serves the exchanges that follow on {@code connection}: bodies read from {@code input},
     * responses written to {@code endpoint}, cut through {@code lifecycle}. All null: none, while pooled.
     */
    void bind(Connection connection, Endpoint endpoint, ConnectionInput input, ConnectionLifecycle lifecycle) {
        this.connection = connection;
        this.endpoint = endpoint;
        body.bind(input);
        bindLifecycle(lifecycle);
    }

    @Override
    public BodySource body() {
        return body;
    }

    @Override
    public int headRoom() {
        return HEAD_ROOM;
    }

    @Override
    public int tailRoom() {
        return TAIL_ROOM;
    }

    @Override
    public void begin() {
        framing = null;
        closeConnection = false;
        sent = false;
    }

    /** Whether the connection must close after this response (decided at commit). */
    boolean closesConnection() {
        return closeConnection;
    }

    @Override
    public boolean sent() {
        return sent;
    }

    @Override
    public boolean canSwitchProtocols() {
        return connection.canSwitchProtocols();
    }

    @Override
    public WebSocketCarrier webSockets() {
        return Http1WebSocketUpgrade.INSTANCE;
    }

    @Override
    public void discard() {
        // nothing is ever held: a commit writes at once
    }

    @Override
    public void commit(ResponseHead head, byte[] work, int length, boolean complete) throws IOException {
        boolean trailers = head.trailerCount() > 0 && !connection.http10() && head.sendsBody();
        Framing chosen;
        if (!head.sendsBody() || (complete && !trailers) || (!complete && head.contentLength() >= 0)) {
            chosen = Framing.LENGTH; // known: the whole body is here, or its length was declared
        } else if (connection.http10()) {
            chosen = Framing.CLOSE_DELIMITED;
        } else {
            chosen = Framing.CHUNKED;
        }
        writeHead(head, chosen);
        sent = true;
        if (length > 0) {
            if (chosen == Framing.CHUNKED) ChunkedEncoder.chunkHeader(length, sink);
            sendWithHead(work, length, chosen == Framing.CHUNKED);
        } else {
            flushSink();
        }
        if (complete && chosen == Framing.CHUNKED) end(head);
    }

    @Override
    public void body(byte[] b, int off, int len, byte[] work) throws IOException {
        if (framing != Framing.CHUNKED) {
            endpoint.write(b, off, len); // the handler's own bytes, unframed: no copy
            return;
        }
        int room = work.length - HEAD_ROOM - TAIL_ROOM;
        while (len > 0) {
            int piece = Math.min(len, room);
            System.arraycopy(b, off, work, HEAD_ROOM, piece);
            ChunkedEncoder.chunkHeader(piece, sink);
            sendWithHead(work, piece, true);
            off += piece;
            len -= piece;
        }
    }

    /** A body of declared length goes on the wire as it is: the endpoint may send it from the file directly. */
    @Override
    public boolean bodyFromFile(FileChannel file, long position, long count) throws IOException {
        return framing == Framing.LENGTH && endpoint.transferFile(file, position, count);
    }

    /** The last chunk and the trailer section, for a chunked body. */
    @Override
    public void end(ResponseHead head) throws IOException {
        if (framing != Framing.CHUNKED) return;
        sink.clear();
        if (head.trailerCount() == 0) {
            ChunkedEncoder.lastChunk(sink);
        } else {
            ChunkedEncoder.lastChunkLine(sink);
            for (int i = 0; i < head.trailerCount(); i++) ResponseHeadEncoder.field(head.trailerName(i), head.trailerValue(i), sink);
            ResponseHeadEncoder.end(sink);
        }
        flushSink();
    }

    @Override
    public void flush() {
        // every byte is written through at once
    }

    /** An interim head, never to an HTTP/1.0 client (RFC 9110 section 15.2). */
    @Override
    public void interim(int status, ResponseHead head) throws IOException {
        if (connection.http10()) return;
        sink.clear();
        ResponseHeadEncoder.statusLine(status, sink);
        if (head != null) {
            for (int i = 0; i < head.headerCount(); i++) ResponseHeadEncoder.field(head.headerName(i), head.headerValue(i), sink);
        }
        ResponseHeadEncoder.end(sink);
        flushSink();
    }

    private void writeHead(ResponseHead head, Framing chosen) {
        framing = chosen;
        closeConnection = connection.mustClose() || chosen == Framing.CLOSE_DELIMITED || head.asksToClose();
        sink.clear();
        ResponseHeadEncoder.statusLine(head.status(), sink);
        for (int i = 0; i < head.headerCount(); i++) {
            String name = head.headerName(i);
            if ("Connection".equalsIgnoreCase(name)) continue; // the engine writes its own decision below
            ResponseHeadEncoder.field(name, head.headerValue(i), sink);
        }
        if (!head.hasDate()) ResponseHeadEncoder.field(ResponseHeadEncoder.DATE, dates.bytes(), sink);
        if (chosen == Framing.CHUNKED) {
            ResponseHeadEncoder.field(ResponseHeadEncoder.TRANSFER_ENCODING, CHUNKED, sink);
        } else if (chosen == Framing.LENGTH && !HttpStatus.forbidsBody(head.status())) {
            ResponseHeadEncoder.field(ResponseHeadEncoder.CONTENT_LENGTH, head.contentLength(), sink);
        }
        if (closeConnection) {
            ResponseHeadEncoder.field(ResponseHeadEncoder.CONNECTION, CLOSE, sink);
        } else if (connection.confirmKeepAlive()) {
            ResponseHeadEncoder.field(ResponseHeadEncoder.CONNECTION, KEEP_ALIVE, sink);
        }
        ResponseHeadEncoder.end(sink);
    }

    /**
     * Sends what {@link #sink} holds followed by the {@code len} body bytes at {@link #HEAD_ROOM}
     * in {@code work} (and a chunk's CRLF): one write when the sink fits in the room before the
     * body, two otherwise.
     */
    private void sendWithHead(byte[] work, int len, boolean chunkEnd) throws IOException {
        int end = HEAD_ROOM + len;
        if (chunkEnd) {
            work[end++] = '\r';
            work[end++] = '\n';
        }
        int headLength = sink.length();
        if (headLength <= HEAD_ROOM) {
            int start = HEAD_ROOM - headLength;
            System.arraycopy(sink.array(), 0, work, start, headLength);
            sink.clear();
            endpoint.write(work, start, end - start);
        } else {
            flushSink();
            endpoint.write(work, HEAD_ROOM, end - HEAD_ROOM);
        }
    }

    private void flushSink() throws IOException {
        endpoint.write(sink.array(), 0, sink.length());
        sink.clear();
    }
}
