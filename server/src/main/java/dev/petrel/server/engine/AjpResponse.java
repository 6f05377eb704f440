package dev.petrel.server.engine;

import dev.petrel.ajp.AjpResponseEncoder;
import dev.petrel.http.ByteSink;
import dev.petrel.http.HttpStatus;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * The response of one AJP exchange: a send-headers packet, body chunks of at most a packet, then
 * the end-response the connection writes. A body that fits in one chunk is held until the end, so
 * a small response leaves as head, chunk and end-response in one write, with its
 * {@code Content-Length}. A longer one is streamed chunk by chunk; its length is then known to the
 * front end only if the handler declared it, else the front end frames it for the client.
 *
 * <p>The work buffer comes from the server's {@link BufferPool} for the exchange: room for the
 * head before one chunk's header, data and NUL, and the end-response after it.
 */
final class AjpResponse extends ResponseSettings {
    private enum State { OPEN, COMMITTED, COMPLETE }

    /** Room before the chunk for the head; a longer head is written apart. */
    static final int HEAD_ROOM = 1024;
    private static final int CHUNK_AT = HEAD_ROOM;
    private static final int DATA_AT = CHUNK_AT + AjpResponseEncoder.BODY_CHUNK_HEADER;
    private static final int END_SIZE = AjpResponseEncoder.END_RESPONSE_SIZE;
    private static final byte[] FLUSH = AjpResponseEncoder.flush();

    private final Endpoint endpoint;
    private final ByteSink sink = new ByteSink(512); // the head, encoded apart
    private final BufferPool pool;
    private final int packetSize;
    private final int maxChunk;
    private final BodyStream stream = new BodyStream();
    private byte[] work;
    private State state;
    private boolean headRequest;
    private boolean headPending; // encoded in the sink, not sent yet
    private long written;

    AjpResponse(Endpoint endpoint, BufferPool pool, int packetSize, BodyFailure requestBody) {
        super(requestBody);
        this.endpoint = endpoint;
        this.pool = pool;
        this.packetSize = packetSize;
        this.maxChunk = AjpResponseEncoder.maxChunkData(packetSize);
        if (pool.bufferSize() != bufferBytes(packetSize)) throw new IllegalArgumentException("pool buffers of the wrong size");
    }

    /** The size of the pooled work buffers for {@code packetSize}. */
    static int bufferBytes(int packetSize) {
        return HEAD_ROOM + packetSize + END_SIZE;
    }

    void begin(boolean headRequest) {
        this.headRequest = headRequest;
        state = State.OPEN;
        headPending = false;
        resetSettings();
        written = 0;
        sink.clear();
    }

    /** Forgets status, headers and held body, to answer with an error instead. Only before anything was written. */
    void discard() {
        if (started()) throw new IllegalStateException("response already sent in part");
        begin(headRequest);
    }

    /** Gives the work buffer back to the pool; the engine calls it when the exchange is over. */
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

    @Override
    public void send(byte[] body) throws IOException {
        checkOpen();
        Objects.requireNonNull(body, "body");
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
        encodeHead();
        if (sendsBody && body.length <= maxChunk) {
            System.arraycopy(body, 0, work(), DATA_AT, body.length);
            buffered = body.length; // leaves with the head and the end-response
        } else {
            flushHead();
            if (sendsBody) writeChunks(body, 0, body.length);
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

    /** Whether bytes of this response have been written to the front end. */
    boolean started() {
        return state == State.COMMITTED || (state == State.COMPLETE && !headPending);
    }

    /** Completes the response but for the end-response packet. Throws when a declared length was not met. */
    void finish() throws IOException {
        switch (state) {
            case OPEN -> {
                if (declaredLength < 0) declaredLength = written;
                if (declaredLength != written && sendsBody()) {
                    // nothing was sent yet: a handler error, answered with a 500 by the engine
                    throw new IllegalStateException("Content-Length " + declaredLength + " declared, " + written + " bytes written");
                }
                encodeHead();
                if (!sendsBody()) buffered = 0;
            }
            case COMMITTED -> {
                if (declaredLength >= 0 && written != declaredLength && sendsBody()) {
                    state = State.COMPLETE;
                    throw new IOException("Content-Length " + declaredLength + " declared, " + written + " bytes written");
                }
            }
            case COMPLETE -> { }
        }
        state = State.COMPLETE;
    }

    /**
     * Sends what is still held (the head, the one chunk) and the end-response; {@code reuse} tells
     * the front end whether the connection may carry its next request. One write when the head
     * fits in the room before the chunk.
     */
    void end(boolean reuse) throws IOException {
        if (state != State.COMPLETE) throw new IllegalStateException("response not finished");
        byte[] buffer = work();
        int from = CHUNK_AT;
        int to = CHUNK_AT;
        if (buffered > 0) {
            AjpResponseEncoder.bodyChunkHeader(buffered, buffer, CHUNK_AT);
            to = DATA_AT + buffered;
            buffer[to++] = 0;
            buffered = 0;
        }
        to += AjpResponseEncoder.endResponse(reuse, buffer, to);
        if (headPending) {
            int headLength = sink.length();
            if (headLength <= HEAD_ROOM) {
                from = CHUNK_AT - headLength;
                System.arraycopy(sink.array(), 0, buffer, from, headLength);
                headPending = false;
                sink.clear();
            } else {
                flushHead();
            }
        }
        endpoint.write(buffer, from, to - from);
    }

    private boolean sendsBody() {
        return !headRequest && !HttpStatus.forbidsBody(status);
    }

    /** Encodes the send-headers packet into the sink; it leaves with the first chunk or the end. */
    private void encodeHead() throws IOException {
        checkRequestBody();
        boolean withLength = declaredLength >= 0 && !HttpStatus.forbidsBody(status);
        sink.clear();
        String reason = HttpStatus.reason(status);
        // mod_jk fails on an empty reason phrase: an unknown status gets its digits
        int start = AjpResponseEncoder.beginHeaders(status, reason.isEmpty() ? Integer.toString(status) : reason,
                headers.size() + (withLength ? 1 : 0), sink);
        for (int i = 0; i < headers.size(); i++) AjpResponseEncoder.header(headers.name(i), headers.value(i), sink);
        if (withLength) AjpResponseEncoder.header("Content-Length", Long.toString(declaredLength), sink);
        AjpResponseEncoder.endPacket(start, packetSize, sink);
        headPending = true;
    }

    private void flushHead() throws IOException {
        if (!headPending) return;
        endpoint.write(sink.array(), 0, sink.length());
        sink.clear();
        headPending = false;
    }

    /** Sends the head and what is buffered, then streams: the body is longer than one chunk, or flushed. */
    private void commitStreaming() throws IOException {
        encodeHead();
        if (buffered > 0) {
            int length = buffered;
            buffered = 0;
            sendChunkWithHead(length);
        } else {
            flushHead();
        }
        state = State.COMMITTED;
    }

    /** Sends the pending head and the chunk of {@code length} bytes at {@link #DATA_AT}: one write when the head fits. */
    private void sendChunkWithHead(int length) throws IOException {
        byte[] buffer = work;
        AjpResponseEncoder.bodyChunkHeader(length, buffer, CHUNK_AT);
        int to = DATA_AT + length;
        buffer[to++] = 0;
        int from = CHUNK_AT;
        if (headPending && sink.length() <= HEAD_ROOM) {
            from = CHUNK_AT - sink.length();
            System.arraycopy(sink.array(), 0, buffer, from, sink.length());
            sink.clear();
            headPending = false;
        } else {
            flushHead();
        }
        endpoint.write(buffer, from, to - from);
    }

    /** Streams {@code len} bytes as chunks of at most a packet, each copied behind its header. */
    private void writeChunks(byte[] b, int off, int len) throws IOException {
        byte[] buffer = work();
        while (len > 0) {
            int piece = Math.min(len, maxChunk);
            System.arraycopy(b, off, buffer, DATA_AT, piece);
            sendChunkWithHead(piece);
            off += piece;
            len -= piece;
        }
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
            Objects.checkFromIndexSize(off, len, b.length);
            if (state == State.COMPLETE) throw new IOException("response already complete");
            if (len == 0) return;
            written += len;
            if (declaredLength >= 0 && written > declaredLength && state == State.COMMITTED) {
                throw new IOException("more body bytes than the declared Content-Length " + declaredLength);
            }
            if (!sendsBody()) return; // HEAD and bodiless statuses: counted for Content-Length, never sent
            if (state == State.OPEN) {
                if (buffered + len <= maxChunk) {
                    System.arraycopy(b, off, work(), DATA_AT + buffered, len);
                    buffered += len;
                    return;
                }
                commitStreaming();
            }
            writeChunks(b, off, len);
        }

        /** Sends what is buffered and asks the front end to pass it on to the client now. */
        @Override
        public void flush() throws IOException {
            if (state == State.OPEN && sendsBody()) commitStreaming();
            if (state == State.COMMITTED) endpoint.write(FLUSH, 0, FLUSH.length);
        }

        @Override
        public void close() throws IOException {
            finish();
        }
    }
}
