package dev.petrel.server.engine;

import dev.petrel.http.ByteSink;
import dev.petrel.http.ChunkedEncoder;
import dev.petrel.http.DateCache;
import dev.petrel.http.HttpStatus;
import dev.petrel.http.ResponseHeadEncoder;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The HTTP/1.1 response of one exchange. Body bytes are buffered until the buffer overflows or
 * the handler finishes; a response that fits leaves as head and body in one write with its
 * Content-Length. A longer one is streamed: with its declared length, chunked for HTTP/1.1
 * clients, or delimited by closing the connection for HTTP/1.0 ones.
 *
 * <p>The body buffer comes from the server's {@link BufferPool} when the first body byte is
 * written and goes back at {@link #release()}, so an idle connection holds none. It keeps
 * {@link #HEAD_ROOM} bytes free before the body: the head is encoded apart, copied there, and
 * head and body leave in one write without copying the body again.
 */
final class Http1Response extends ResponseSettings {
    private enum State { OPEN, COMMITTED, COMPLETE }

    private enum Framing { NONE, LENGTH, CHUNKED, CLOSE_DELIMITED }

    /** Room before the body in the work buffer for the head (or a chunk header); a longer head is written apart. */
    static final int HEAD_ROOM = 1024;
    /** Room after the body for a chunk's closing CRLF. */
    static final int TAIL_ROOM = 2;
    private static final byte[] CLOSE = "close".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEEP_ALIVE = "keep-alive".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CHUNKED = "chunked".getBytes(StandardCharsets.US_ASCII);

    /** What the connection tells the response at commit time. */
    interface Exchange {
        /** Whether the connection must close after this response, as far as the engine knows. */
        boolean mustClose();

        /** Whether the client is HTTP/1.0 and asked for keep-alive, so the response must confirm it. */
        boolean confirmKeepAlive();

        boolean http10();

        boolean headRequest();
    }

    private final Endpoint endpoint;
    private final ByteSink sink; // the head, a chunk header or a last chunk: small, encoded apart
    private final DateCache dates;
    private final BufferPool pool;
    private final int bufferSize;
    private byte[] work; // HEAD_ROOM + bufferSize + TAIL_ROOM from the pool, while this exchange has body bytes
    private final BodyStream stream = new BodyStream();
    private Exchange exchange;
    private State state;
    private Framing framing;
    private long written;
    private boolean closeConnection;

    Http1Response(Endpoint endpoint, ByteSink sink, DateCache dates, BufferPool pool, BodyFailure requestBody) {
        super(requestBody);
        this.endpoint = endpoint;
        this.sink = sink;
        this.dates = dates;
        this.pool = pool;
        this.bufferSize = pool.bufferSize() - HEAD_ROOM - TAIL_ROOM;
    }

    /** Gives the body buffer back to the pool; the engine calls it when the exchange is over. */
    void release() {
        if (work != null) {
            pool.release(work);
            work = null;
        }
    }

    private byte[] work() {
        if (work == null) work = pool.acquire();
        return work;
    }

    void begin(Exchange exchange) {
        this.exchange = exchange;
        state = State.OPEN;
        framing = null;
        resetSettings();
        written = 0;
        closeConnection = false;
    }

    /** Forgets status, headers and buffered body, to answer with an error instead. Only before commit. */
    void discard() {
        if (state != State.OPEN) throw new IllegalStateException("response already committed");
        Exchange current = exchange;
        begin(current);
    }

    /** Whether the connection must close after this response (decided at commit). */
    boolean closesConnection() {
        return closeConnection;
    }

    boolean complete() {
        return state == State.COMPLETE;
    }

    @Override
    public void send(byte[] body) throws IOException {
        checkOpen();
        if (buffered > 0) {
            stream.write(body);
            finish();
            return;
        }
        boolean sendsBody = sendsBody();
        if (declaredLength >= 0 && declaredLength != body.length && sendsBody) {
            throw new IllegalStateException("Content-Length " + declaredLength + " declared, " + body.length + " bytes sent");
        }
        if (declaredLength < 0) declaredLength = body.length; // a HEAD answer keeps the length it declared
        written = body.length;
        writeHead(Framing.LENGTH);
        if (sendsBody && body.length <= bufferSize) {
            System.arraycopy(body, 0, work(), HEAD_ROOM, body.length);
            sendWithHead(body.length, false);
        } else {
            flushSink();
            if (sendsBody) endpoint.write(body, 0, body.length);
        }
        state = State.COMPLETE;
    }

    @Override
    public OutputStream body() {
        return stream;
    }

    @Override
    public boolean committed() {
        return state != State.OPEN;
    }

    /** Completes the response: sends what is buffered, or the last chunk. Throws when a declared length was not met. */
    void finish() throws IOException {
        switch (state) {
            case OPEN -> {
                if (declaredLength < 0) declaredLength = written;
                if (declaredLength != written && sendsBody()) {
                    // nothing was sent yet: a handler error, answered with a 500 by the engine
                    throw new IllegalStateException("Content-Length " + declaredLength + " declared, " + written + " bytes written");
                }
                writeHead(Framing.LENGTH);
                if (sendsBody() && buffered > 0) sendWithHead(buffered, false);
                else flushSink();
            }
            case COMMITTED -> {
                if (framing == Framing.CHUNKED) {
                    sink.clear();
                    ChunkedEncoder.lastChunk(sink);
                    flushSink();
                } else if (framing == Framing.LENGTH && written != declaredLength && sendsBody()) {
                    state = State.COMPLETE;
                    throw new IOException("Content-Length " + declaredLength + " declared, " + written + " bytes written");
                }
            }
            case COMPLETE -> { }
        }
        state = State.COMPLETE;
    }

    private boolean sendsBody() {
        return !exchange.headRequest() && !HttpStatus.forbidsBody(status);
    }

    /** Sends the head and what is buffered, choosing how the rest of the body is framed. */
    private void commitStreaming() throws IOException {
        Framing chosen;
        if (!sendsBody() || declaredLength >= 0) {
            chosen = Framing.LENGTH;
        } else if (exchange.http10()) {
            chosen = Framing.CLOSE_DELIMITED;
        } else {
            chosen = Framing.CHUNKED;
        }
        writeHead(chosen);
        if (sendsBody() && buffered > 0) {
            if (chosen == Framing.CHUNKED) ChunkedEncoder.chunkHeader(buffered, sink);
            sendWithHead(buffered, chosen == Framing.CHUNKED);
        } else {
            flushSink();
        }
        buffered = 0;
        state = State.COMMITTED;
    }

    private void writeHead(Framing chosen) throws IOException {
        checkRequestBody();
        framing = chosen;
        closeConnection = exchange.mustClose() || chosen == Framing.CLOSE_DELIMITED || handlerAskedToClose();
        sink.clear();
        ResponseHeadEncoder.statusLine(status, sink);
        boolean dateSet = false;
        for (int i = 0; i < headers.size(); i++) {
            String name = headers.name(i);
            if ("Connection".equalsIgnoreCase(name)) continue; // the engine writes its own decision below
            if ("Date".equalsIgnoreCase(name)) dateSet = true;
            ResponseHeadEncoder.field(name, headers.value(i), sink);
        }
        if (!dateSet) ResponseHeadEncoder.field(ResponseHeadEncoder.DATE, dates.bytes(), sink);
        if (chosen == Framing.CHUNKED) {
            ResponseHeadEncoder.field(ResponseHeadEncoder.TRANSFER_ENCODING, CHUNKED, sink);
        } else if (chosen == Framing.LENGTH && !HttpStatus.forbidsBody(status)) {
            ResponseHeadEncoder.field(ResponseHeadEncoder.CONTENT_LENGTH, declaredLength, sink);
        }
        if (closeConnection) {
            ResponseHeadEncoder.field(ResponseHeadEncoder.CONNECTION, CLOSE, sink);
        } else if (exchange.confirmKeepAlive()) {
            ResponseHeadEncoder.field(ResponseHeadEncoder.CONNECTION, KEEP_ALIVE, sink);
        }
        ResponseHeadEncoder.end(sink);
    }

    private boolean handlerAskedToClose() {
        String connection = headers.get("Connection");
        if (connection == null) return false;
        for (String token : connection.split(",")) {
            if (token.strip().equalsIgnoreCase("close")) return true;
        }
        return false;
    }

    private void writeBody(byte[] b, int off, int len) throws IOException {
        if (framing == Framing.LENGTH && written > declaredLength) {
            throw new IOException("more body bytes than the declared Content-Length " + declaredLength);
        }
        if (framing != Framing.CHUNKED) {
            endpoint.write(b, off, len); // the handler's own bytes, unframed: no copy
            return;
        }
        byte[] buffer = work();
        while (len > 0) {
            int piece = Math.min(len, bufferSize);
            System.arraycopy(b, off, buffer, HEAD_ROOM, piece);
            ChunkedEncoder.chunkHeader(piece, sink);
            sendWithHead(piece, true);
            off += piece;
            len -= piece;
        }
    }

    /**
     * Sends what {@link #sink} holds followed by the {@code len} body bytes at {@link #HEAD_ROOM}
     * in the work buffer (and a chunk's CRLF): one write when the sink fits in the room before the
     * body, two otherwise.
     */
    private void sendWithHead(int len, boolean chunkEnd) throws IOException {
        byte[] buffer = work;
        int end = HEAD_ROOM + len;
        if (chunkEnd) {
            buffer[end++] = '\r';
            buffer[end++] = '\n';
        }
        int headLength = sink.length();
        if (headLength <= HEAD_ROOM) {
            int start = HEAD_ROOM - headLength;
            System.arraycopy(sink.array(), 0, buffer, start, headLength);
            sink.clear();
            endpoint.write(buffer, start, end - start);
        } else {
            flushSink();
            endpoint.write(buffer, HEAD_ROOM, end - HEAD_ROOM);
        }
    }

    private void flushSink() throws IOException {
        endpoint.write(sink.array(), 0, sink.length());
        sink.clear();
    }

    @Override
    void checkOpen() {
        if (state != State.OPEN) throw new IllegalStateException("response already committed");
    }

    /** The handler's view of the body. */
    private final class BodyStream extends OutputStream {
        private final byte[] single = new byte[1];

        @Override
        public void write(int b) throws IOException {
            single[0] = (byte) b;
            write(single, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            if (state == State.COMPLETE) throw new IOException("response already complete");
            if (len == 0) return;
            written += len;
            if (!sendsBody()) {
                return; // HEAD and bodiless statuses: counted for Content-Length, never sent
            }
            if (state == State.OPEN) {
                if (buffered + len <= bufferSize) {
                    System.arraycopy(b, off, work(), HEAD_ROOM + buffered, len);
                    buffered += len;
                    return;
                }
                commitStreaming();
            }
            writeBody(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            if (state == State.OPEN && sendsBody()) commitStreaming();
        }

        @Override
        public void close() throws IOException {
            finish();
        }
    }
}
