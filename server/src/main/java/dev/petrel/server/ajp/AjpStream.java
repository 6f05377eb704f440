package dev.petrel.server.ajp;

import dev.petrel.ajp.AjpResponseEncoder;
import dev.petrel.http.ByteSink;
import dev.petrel.http.HttpStatus;
import dev.petrel.server.engine.connection.ConnectionLifecycle;
import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.exchange.BodySource;
import dev.petrel.server.engine.exchange.ConnectionStream;
import dev.petrel.server.engine.exchange.ResponseHead;
import java.io.IOException;

/**
 * An AJP connection as the stream of the exchange in flight. The request body comes in
 * get-body-chunk exchanges ({@link AjpRequestBody}); the response goes to the front end as a
 * send-headers packet, body chunks of at most a packet, then the end-response. A complete
 * response that fits in one chunk is held and leaves with its end-response in one write
 * ({@link #endResponse}), so until then an error answer can still replace it. The front end
 * frames the body for its client; AJP carries neither trailers nor interim responses.
 */
final class AjpStream extends ConnectionStream {
    /** Room before the chunk for the head; a longer head is written apart. */
    static final int HEAD_ROOM = 1024;
    private static final int CHUNK_AT = HEAD_ROOM;
    private static final int DATA_AT = CHUNK_AT + AjpResponseEncoder.BODY_CHUNK_HEADER;
    private static final int END_SIZE = AjpResponseEncoder.END_RESPONSE_SIZE;
    private static final byte[] FLUSH = AjpResponseEncoder.flush();

    private final Endpoint endpoint;
    private final int packetSize;
    private final AjpRequestBody body;
    private final ByteSink sink = new ByteSink(512); // the head, encoded apart
    private boolean headPending; // encoded in the sink, not sent yet
    private int held;            // body bytes of a complete response held at DATA_AT, not sent yet
    private boolean sent;

    /** The stream of the connection of {@code lifecycle} over {@code endpoint}, its bodies read through {@code body}. */
    AjpStream(Endpoint endpoint, ConnectionLifecycle lifecycle, int packetSize, AjpRequestBody body) {
        this.endpoint = endpoint;
        this.packetSize = packetSize;
        this.body = body;
        bindLifecycle(lifecycle);
    }

    @Override
    public BodySource body() {
        return body;
    }

    /** The size of the pooled work buffers for {@code packetSize}: the head's room, a packet and the end-response. */
    static int bufferBytes(int packetSize) {
        return HEAD_ROOM + packetSize + END_SIZE;
    }

    @Override
    public int headRoom() {
        return DATA_AT;
    }

    /** The chunk's closing NUL and the end-response. */
    @Override
    public int tailRoom() {
        return 1 + END_SIZE;
    }

    @Override
    public void begin() {
        headPending = false;
        held = 0;
        sent = false;
        sink.clear();
    }

    @Override
    public boolean sent() {
        return sent;
    }

    @Override
    public void discard() {
        begin();
    }

    @Override
    public void commit(ResponseHead head, byte[] work, int length, boolean complete) throws IOException {
        encodeHead(head);
        if (complete) {
            held = length; // leaves with the head and the end-response
            return;
        }
        if (length > 0) sendChunkWithHead(work, length);
        else flushHead();
    }

    @Override
    public void body(byte[] b, int off, int len, byte[] work) throws IOException {
        int maxChunk = work.length - DATA_AT - tailRoom();
        while (len > 0) {
            int piece = Math.min(len, maxChunk);
            System.arraycopy(b, off, work, DATA_AT, piece);
            sendChunkWithHead(work, piece);
            off += piece;
            len -= piece;
        }
    }

    @Override
    public void end(ResponseHead head) {
        // the end-response is the connection's, once it knows whether it can reuse the connection
    }

    /** Asks the front end to pass on to its client what it has been sent so far. */
    @Override
    public void flush() throws IOException {
        flushHead();
        endpoint.write(FLUSH, 0, FLUSH.length);
        sent = true;
    }

    @Override
    public void interim(int status, ResponseHead head) {
        // AJP has no interim responses; mod_jk and mod_proxy_ajp answer 100-continue themselves
    }

    /**
     * Sends what is still held (the head, the one chunk) and the end-response; {@code reuse} tells
     * the front end whether the connection may carry its next request. One write when the head
     * fits in the room before the chunk.
     */
    void endResponse(boolean reuse, byte[] work) throws IOException {
        int from = CHUNK_AT;
        int to = CHUNK_AT;
        if (held > 0) {
            AjpResponseEncoder.bodyChunkHeader(held, work, CHUNK_AT);
            to = DATA_AT + held;
            work[to++] = 0;
            held = 0;
        }
        to += AjpResponseEncoder.endResponse(reuse, work, to);
        if (headPending) {
            int headLength = sink.length();
            if (headLength <= HEAD_ROOM) {
                from = CHUNK_AT - headLength;
                System.arraycopy(sink.array(), 0, work, from, headLength);
                headPending = false;
                sink.clear();
            } else {
                flushHead();
            }
        }
        endpoint.write(work, from, to - from);
        sent = true;
    }

    /** Encodes the send-headers packet into the sink; it leaves with the first chunk or the end. */
    private void encodeHead(ResponseHead head) {
        int status = head.status();
        boolean withLength = head.contentLength() >= 0 && !HttpStatus.forbidsBody(status);
        sink.clear();
        String reason = HttpStatus.reason(status);
        // mod_jk fails on an empty reason phrase: an unknown status gets its digits
        int start = AjpResponseEncoder.beginHeaders(status, reason.isEmpty() ? Integer.toString(status) : reason,
                head.headerCount() + (withLength ? 1 : 0), sink);
        for (int i = 0; i < head.headerCount(); i++) AjpResponseEncoder.header(head.headerName(i), head.headerValue(i), sink);
        if (withLength) AjpResponseEncoder.header("Content-Length", Long.toString(head.contentLength()), sink);
        AjpResponseEncoder.endPacket(start, packetSize, sink);
        headPending = true;
    }

    private void flushHead() throws IOException {
        if (!headPending) return;
        endpoint.write(sink.array(), 0, sink.length());
        sink.clear();
        headPending = false;
        sent = true;
    }

    /** Sends the pending head and the chunk of {@code length} bytes at {@link #DATA_AT}: one write when the head fits. */
    private void sendChunkWithHead(byte[] work, int length) throws IOException {
        AjpResponseEncoder.bodyChunkHeader(length, work, CHUNK_AT);
        int to = DATA_AT + length;
        work[to++] = 0;
        int from = CHUNK_AT;
        if (headPending && sink.length() <= HEAD_ROOM) {
            from = CHUNK_AT - sink.length();
            System.arraycopy(sink.array(), 0, work, from, sink.length());
            sink.clear();
            headPending = false;
        } else {
            flushHead();
        }
        endpoint.write(work, from, to - from);
        sent = true;
    }
}
