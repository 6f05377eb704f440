package dev.petrel.server.http2;

import dev.petrel.http.ByteSink;
import dev.petrel.http.DateCache;
import dev.petrel.http.HttpStatus;
import dev.petrel.http2.HpackEncoder;
import dev.petrel.http2.Http2ErrorCode;
import dev.petrel.server.engine.exchange.BodySource;
import dev.petrel.server.engine.exchange.ExchangeStream;
import dev.petrel.server.engine.exchange.ResponseHead;
import dev.petrel.server.engine.exchange.WebSocketCarrier;
import dev.petrel.server.websocket.Http2WebSocketUpgrade;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One HTTP/2 stream as the stream of its exchange, over the stream's {@link StreamState} (section
 * 5.1's state, its body and windows). The request body is the stream's {@code DATA}
 * ({@link StreamBody}); the response goes out with the head as a {@code HEADERS} block (names in
 * lower case, without the fields HTTP/2 forbids), the body as {@code DATA} frames within the
 * peer's windows and frame size, the end as the last {@code DATA} frame's {@code END_STREAM} or a
 * trailer block. A small complete response leaves as one write: its head and its whole body, when
 * the windows allow. Cutting it resets this stream alone: the connection's other streams go on.
 * A stream an extended CONNECT opened (RFC 8441) goes on after its {@code 200} as a
 * {@link StreamTunnel}, whose bytes leave through {@link #sendData} too.
 */
final class Http2Stream implements ExchangeStream {
    private static final byte[] DATE = "date".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONTENT_LENGTH = "content-length".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NO_BYTES = new byte[0];

    private final StreamState stream;
    private final Http2Connection connection;
    private final FrameOutput output;
    private final DateCache dates;
    private final StreamBody body;
    private boolean sent;
    private boolean ended;
    private boolean extendedConnect; // opened by an extended CONNECT (RFC 8441): it may carry a tunnel

    Http2Stream(StreamState stream, Http2Connection connection, StreamBody body, DateCache dates) {
        this.stream = stream;
        this.connection = connection;
        this.output = connection.output();
        this.body = body;
        this.dates = dates;
    }

    @Override
    public BodySource body() {
        return body;
    }

    /** Whether the request is an extended CONNECT (RFC 8441), set as each request is armed. */
    void extendedConnect(boolean extendedConnect) {
        this.extendedConnect = extendedConnect;
    }

    @Override
    public boolean carriesTunnel() {
        return extendedConnect;
    }

    /** Over HTTP/2 a WebSocket opens with an extended CONNECT and lives on its stream (RFC 8441). */
    @Override
    public WebSocketCarrier webSockets() {
        return Http2WebSocketUpgrade.INSTANCE;
    }

    /** Resets the stream alone: the client sees it fail rather than end as if complete, and the other streams go on. */
    @Override
    public void reset() {
        connection.reset(stream, Http2ErrorCode.INTERNAL_ERROR);
    }

    /** The same: the server going away ends the connection's streams one by one through here. */
    @Override
    public void abort() {
        reset();
    }

    /** True while the handler runs inline on the connection's reader: it must not wait, nor detach its response. */
    @Override
    public boolean onEventLoop() {
        return stream.isInline();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return connection.endpoint().remoteAddress();
    }

    @Override
    public int headRoom() {
        return 0; // frames are put together in the connection's output buffer
    }

    @Override
    public int tailRoom() {
        return 0;
    }

    @Override
    public void begin() {
        sent = false;
        ended = false;
    }

    @Override
    public boolean sent() {
        return sent;
    }

    @Override
    public void discard() {
        // nothing is held: a commit writes at once
    }

    @Override
    public void commit(ResponseHead head, byte[] work, int length, boolean complete) throws IOException {
        boolean trailers = head.trailerCount() > 0 && head.sendsBody();
        boolean endsWithHead = !head.sendsBody() || (complete && length == 0 && !trailers);
        int first = 0;
        if (!endsWithHead && length > 0) {
            // the first DATA frame goes with the head when the windows are open
            first = connection.windows().tryAcquire(stream, Math.min(length, output.peerMaxFrameSize()));
        }
        boolean lastWithHead = complete && !trailers && first == length;
        sent = true;
        if (endsWithHead || lastWithHead) ending();
        output.headers(stream.id, (encoder, block) -> encodeHead(head, encoder, block), endsWithHead, work, 0, first,
                !endsWithHead && lastWithHead);
        if (endsWithHead || lastWithHead) return;
        sendData(work, first, length - first, complete && !trailers);
        if (complete) end(head);
    }

    @Override
    public void body(byte[] b, int off, int len, byte[] work) throws IOException {
        sendData(b, off, len, false);
    }

    @Override
    public void end(ResponseHead head) throws IOException {
        if (ended) return;
        ending();
        if (head.trailerCount() > 0 && head.sendsBody()) {
            output.headers(stream.id, (encoder, block) -> encodeTrailers(head, encoder, block), true, NO_BYTES, 0, 0, false);
        } else {
            output.data(stream.id, NO_BYTES, 0, 0, true);
        }
    }

    @Override
    public void flush() {
        // every frame is written through at once
    }

    /** An interim head ({@code 103 Early Hints}, say): a {@code HEADERS} block that does not end the stream. */
    @Override
    public void interim(int status, ResponseHead head) throws IOException {
        output.headers(stream.id, (encoder, block) -> {
            encoder.status(block, status);
            if (head != null) encodeFields(head, encoder, block);
        }, false, NO_BYTES, 0, 0, false);
    }

    /** Sends body bytes as DATA frames, each within the windows and the peer's frame size; a tunnel's bytes too. */
    void sendData(byte[] b, int off, int len, boolean endStream) throws IOException {
        if (len == 0) {
            if (endStream) {
                ending();
                output.data(stream.id, NO_BYTES, 0, 0, true);
            }
            return;
        }
        while (len > 0) {
            int wanted = Math.min(len, output.peerMaxFrameSize());
            int n = connection.windows().tryAcquire(stream, wanted);
            if (n == 0) {
                connection.beforeStreamWait(); // a handler inline on the reader hands reading on first
                n = connection.windows().acquire(stream, wanted, connection.writeTimeoutNanos());
            }
            boolean last = endStream && n == len;
            if (last) ending();
            output.data(stream.id, b, off, n, last);
            off += n;
            len -= n;
        }
    }

    /** The next frame ends the response. */
    private void ending() {
        ended = true;
        connection.responseEnding(stream);
    }

    private void encodeHead(ResponseHead head, HpackEncoder encoder, ByteSink block) {
        encoder.status(block, head.status());
        encodeFields(head, encoder, block);
        if (!head.hasDate()) encoder.field(block, DATE, dates.bytes(), false);
        long length = head.contentLength();
        if (length >= 0 && !HttpStatus.forbidsBody(head.status())) {
            encoder.field(block, CONTENT_LENGTH, Long.toString(length).getBytes(StandardCharsets.US_ASCII), false);
        }
    }

    private static void encodeFields(ResponseHead head, HpackEncoder encoder, ByteSink block) {
        for (int i = 0; i < head.headerCount(); i++) {
            String name = lowerCase(head.headerName(i));
            if (ConnectionSpecificFields.contains(name)) continue; // RFC 9113 section 8.2.2
            encoder.field(block, name, head.headerValue(i));
        }
    }

    private static void encodeTrailers(ResponseHead head, HpackEncoder encoder, ByteSink block) {
        for (int i = 0; i < head.trailerCount(); i++) {
            String name = lowerCase(head.trailerName(i));
            if (ConnectionSpecificFields.contains(name)) continue;
            encoder.field(block, name, head.trailerValue(i));
        }
    }

    /** Field names are lower case in HTTP/2 (RFC 9113 section 8.2.1); handlers write them as they like. */
    private static String lowerCase(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c >= 'A' && c <= 'Z') return name.toLowerCase(Locale.ROOT);
        }
        return name;
    }
}
