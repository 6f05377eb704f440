package dev.petrel.server.engine.exchange;

import dev.petrel.http.HttpStatus;
import dev.petrel.server.Response;
import dev.petrel.server.WebSocketHandler;
import dev.petrel.server.config.WebSocketConfig;
import dev.petrel.server.engine.connection.Upgrade;
import dev.petrel.server.handler.FileCopy;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The response of one exchange, whatever the protocol: what a handler sets before the head is
 * committed (status, headers, a declared length, trailers), the body buffered until it overflows
 * or the handler finishes, and the rules, checked alike for every protocol. The protocol's
 * {@link ExchangeStream} only frames what this decides.
 *
 * <ul>
 *   <li>A body that fits the buffer leaves with its head, its length known, in one write.</li>
 *   <li>A longer one, or one flushed, is streamed; its length is the declared one, else the stream
 *       frames it (chunked over HTTP/1.1, closed over HTTP/1.0, in chunks over AJP).</li>
 *   <li>A declared length must be met; bytes past it fail the write, bytes short of it fail the
 *       finish (a 500 when nothing was sent yet).</li>
 *   <li>HEAD requests and 1xx, 204 and 304 count their body for {@code Content-Length} and send none.</li>
 *   <li>After the request body failed (cut short, too slow, malformed, too large), the response may
 *       not claim success: a commit with a status below 400 throws, since it would rest on a body
 *       the client never sent whole. The exchange then answers with the body's own status.</li>
 *   <li>A response committed before the request body failed can never end as complete: the client
 *       would take a response made from part of its body for a whole one. {@link #finish()} throws
 *       instead, and the exchange cuts the response (no last chunk, a short length, a reset stream).</li>
 *   <li>Nor can one whose write failed (the client gone, the stream reset), even when the handler
 *       caught the exception and returned as if all was well.</li>
 *   <li>Closing the body stream ends what the handler writes, not the response: the response is
 *       complete only when the exchange {@linkplain #finish() finishes} it, after the handler has
 *       returned (or its detached response was completed). A handler that closes its stream in a
 *       try-with-resources block and then throws has failed, and its client must see that.</li>
 * </ul>
 *
 * <p>One per {@link Exchange}, {@linkplain #begin re-armed} for every exchange. The work
 * buffer comes from the server's {@link BufferPool} when the first body byte is buffered and goes
 * back at {@link #release()}, so an idle connection holds none.
 */
public final class ExchangeResponse implements Response, ResponseHead {
    private enum State { OPEN, COMMITTED, COMPLETE }

    private static final byte[] EMPTY = new byte[0];

    private final ExchangeStream stream;
    private final ExchangeRequest request; // for a WebSocket handshake, which reads the request's fields
    private final ExchangeObserver observer; // for a WebSocket handshake: what observes the session
    private final BufferPool pool;
    private final BodyFailure requestBody;
    private final int headRoom;
    private final int bufferSize;
    private final ResponseHeaders headers = new ResponseHeaders();
    private final ResponseHeaders trailers = new ResponseHeaders();
    private final BodyStream bodyStream = new BodyStream();
    private byte[] work; // from the pool while this exchange has body bytes
    private State state = State.OPEN;
    private boolean bodyClosed; // the handler closed the body stream: no more bytes; the end waits for the exchange
    private boolean committedOnFailure; // committed after the request body had failed: an error answer of the handler's own
    private boolean writeFailed; // a write to the client failed: what left is all that ever will
    private boolean headRequest;
    private int status;
    private long declaredLength;
    private int buffered; // body bytes held at headRoom in work, not sent yet
    private long written; // body bytes the handler wrote, sent or not
    private Completion detached; // when the handler detached the response
    private Upgrade switchedTo; // the protocol the connection goes on in, after a 101
    private volatile boolean closedToHandler; // a detached response timed out: the late handler's calls fail

    /**
     * A response framed by {@code stream}, buffering in {@code pool}'s buffers, ruled by
     * {@code requestBody}'s state; a WebSocket session it opens is observed by {@code observer}.
     */
    ExchangeResponse(ExchangeStream stream, BufferPool pool, BodyFailure requestBody, ExchangeRequest request,
                     ExchangeObserver observer) {
        this.stream = stream;
        this.request = request;
        this.observer = observer;
        this.pool = pool;
        this.requestBody = requestBody;
        this.headRoom = stream.headRoom();
        this.bufferSize = pool.bufferSize() - stream.headRoom() - stream.tailRoom();
        if (bufferSize < 1) throw new IllegalArgumentException("pool buffers leave no room for a body");
    }

    /** Begins the next exchange's response; {@code headRequest}: the body is counted, never sent. */
    public void begin(boolean headRequest) {
        this.headRequest = headRequest;
        state = State.OPEN;
        bodyClosed = false;
        committedOnFailure = false;
        writeFailed = false;
        status = 200;
        declaredLength = -1;
        buffered = 0;
        written = 0;
        headers.clear();
        trailers.clear();
        detached = null;
        switchedTo = null;
        closedToHandler = false;
        stream.begin();
    }

    /** Gives the work buffer back to the pool; the engine calls it when the exchange is over. */
    public void release() {
        if (work != null) {
            pool.release(work);
            work = null;
        }
    }

    /** The work buffer, which the stream may also use to send what it held back. */
    public byte[] work() {
        if (work == null) work = pool.acquire();
        return work;
    }

    // ---- what the engine asks ----

    /** Body bytes of this response (the handler's, or the error answer's), for the access log. */
    public long bodyBytes() {
        return headRequest ? 0 : written;
    }

    /** Whether any byte of this response has left: until then an error answer can replace it. */
    public boolean sent() {
        return switchedTo != null || stream.sent(); // after a 101 the connection is another protocol's
    }

    /** Whether the handler's response is complete. */
    public boolean complete() {
        return state == State.COMPLETE;
    }

    /** Forgets everything, to answer with an error instead. Only while nothing was sent. */
    public void discard() {
        if (stream.sent()) throw new IllegalStateException("response already sent in part");
        stream.discard();
        boolean closed = closedToHandler;
        begin(headRequest);
        closedToHandler = closed; // a late handler stays out of the server's answer
    }

    /**
     * Completes the response: commits what is buffered, or ends a streamed body. The exchange calls
     * it once the handler is done; only then does a streamed body get its end (see the class comment).
     *
     * @throws IllegalStateException when nothing was sent and a declared length was not met (a
     *         handler error, answered with a 500)
     * @throws IOException when the head has left and a declared length was not met, when the request
     *         body failed after the head had left, or when the write failed
     */
    public void finish() throws IOException {
        if (writeFailed && state != State.COMPLETE) throw new IOException("a write of the response failed; it cannot end as complete");
        switch (state) {
            case OPEN -> {
                if (declaredLength < 0) declaredLength = written;
                if (declaredLength != written && sendsBody()) {
                    throw new IllegalStateException("Content-Length " + declaredLength + " declared, " + written + " bytes written");
                }
                commit(sendsBody() ? buffered : 0, true);
            }
            case COMMITTED -> {
                Exception failure = requestBody.failure();
                if (failure != null && !committedOnFailure) {
                    throw new IOException("the request body failed (" + failure.getMessage() + ") after a " + status
                            + " response was committed; it cannot end as complete", failure);
                }
                if (declaredLength >= 0 && written != declaredLength && sendsBody()) {
                    throw new IOException("Content-Length " + declaredLength + " declared, " + written + " bytes written");
                }
                end();
            }
            case COMPLETE -> { }
        }
    }

    /** The completion the handler detached the response with, or null. */
    Completion detached() {
        return detached;
    }

    /** A detached response timed out: the handler's thread may no longer touch it. */
    void closeToHandler() {
        closedToHandler = true;
    }

    /** Answers with an error in plain text in place of whatever was buffered; only while nothing was sent. */
    void answer(int status, String text) throws IOException {
        discard(); // keeps a detached response's late handler out: this is the server's own answer
        this.status = status;
        headers.set("Content-Type", "text/plain;charset=UTF-8");
        sendWhole(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Answers {@code 101 (Switching Protocols)} with the headers set so far (the handler sets
     * {@code Upgrade} and {@code Connection: upgrade}, and what the new protocol's handshake needs),
     * sends it at once, and has the connection go on in {@code upgrade}'s protocol once the
     * exchange is over (RFC 9110 section 7.8). The response is then complete: nothing more of it
     * may be written.
     *
     * @throws IllegalStateException when the response is committed, or when the connection cannot
     *         switch: its protocol is not HTTP/1.1, or the request's body has not been read to its end
     * @throws IOException when the 101 could not be written: the client is gone
     */
    public void switchProtocols(Upgrade upgrade) throws IOException {
        checkOpen();
        if (!stream.canSwitchProtocols()) {
            throw new IllegalStateException("this connection cannot switch protocols: only an HTTP/1.1 connection can,"
                    + " once the request's body has been read");
        }
        status = 101;
        try {
            stream.interim(101, this);
            stream.flush();
        } catch (IOException e) {
            throw writeFailed(e);
        }
        state = State.COMPLETE;
        switchedTo = upgrade;
    }

    @Override
    public void upgradeToWebSocket(WebSocketHandler handler, WebSocketConfig config) throws IOException {
        checkOpen();
        WebSocketCarrier carrier = stream.webSockets();
        if (carrier == null) {
            // AJP has no way to switch
            status(501).send("Not Implemented: this connection's protocol carries no WebSocket; open it over HTTP/1.1 or HTTP/2\n");
            return;
        }
        carrier.accept(request, this, handler, config);
    }

    /**
     * What observes the WebSocket session this exchange's handshake opens, for its
     * {@link WebSocketCarrier} to ask once it accepts the handshake, while the request is armed.
     */
    public WebSocketSessionObserver webSocketSessionObserver() {
        return observer.webSocketSession(request);
    }

    /**
     * Answers an HTTP/2 extended CONNECT (RFC 8441) with {@code 200} and the headers set so far,
     * sent at once, the stream left open: once the exchange is over, the stream's {@code DATA}
     * in both directions carry {@code upgrade}'s protocol (RFC 9113 section 8.5). The response is
     * then complete, as after {@link #switchProtocols}; the protocol asks {@link #switchedTo()}.
     *
     * @throws IllegalStateException when the response is committed, or the stream is no
     *         extended CONNECT's ({@link ExchangeStream#carriesTunnel()})
     * @throws IOException when the head could not be written: the client is gone, or reset the stream
     */
    public void openTunnel(Upgrade upgrade) throws IOException {
        checkOpen();
        if (!stream.carriesTunnel()) {
            throw new IllegalStateException("this stream cannot carry a tunnel: only an HTTP/2 extended CONNECT's can");
        }
        status = 200;
        declaredLength = -1; // a 2xx to CONNECT has no Content-Length (RFC 9110 section 9.3.6)
        commit(0, false);    // the head without the end of the stream: the tunnel's bytes follow
        state = State.COMPLETE;
        switchedTo = upgrade;
    }

    /**
     * The protocol the connection switches to after this exchange (see {@link #switchProtocols}),
     * or the one an HTTP/2 stream carries (see {@link #openTunnel}), or null.
     */
    public Upgrade switchedTo() {
        return switchedTo;
    }

    /** Sends {@code 100 Continue}, or another interim status with no headers. */
    public void interim(int status) throws IOException {
        if (state == State.OPEN) stream.interim(status, null);
    }

    /**
     * Just before the head is committed: throws when the request body failed and the status
     * claims anything but an error (see the class comment). An error status of the handler's own
     * is let through.
     */
    private void checkRequestBody() throws IOException {
        Exception failure = requestBody.failure();
        if (failure == null) return;
        if (status < 400) {
            throw new IOException("the request body failed (" + failure.getMessage() + "); a " + status
                    + " response would claim success", failure);
        }
        committedOnFailure = true;
    }

    private void commit(int length, boolean complete) throws IOException {
        checkRequestBody();
        try {
            stream.commit(this, work(), length, complete);
        } catch (IOException e) {
            throw writeFailed(e);
        }
        buffered = 0;
        state = complete ? State.COMPLETE : State.COMMITTED;
    }

    /** Body bytes after the commit, through the stream. */
    private void body(byte[] b, int off, int len) throws IOException {
        try {
            stream.body(b, off, len, work);
        } catch (IOException e) {
            throw writeFailed(e);
        }
    }

    /** The end of a streamed body, through the stream: the response is complete. */
    private void end() throws IOException {
        state = State.COMPLETE;
        try {
            stream.end(this);
        } catch (IOException e) {
            state = State.COMMITTED; // its end never left
            throw writeFailed(e);
        }
    }

    /** Notes that a write failed, so that the response can never end as complete; returns {@code e}, to be thrown. */
    private IOException writeFailed(IOException e) {
        writeFailed = true;
        return e;
    }

    private void checkOpen() {
        checkHandler();
        if (state != State.OPEN) throw new IllegalStateException("response already committed");
    }

    private void checkHandler() {
        if (closedToHandler) throw new IllegalStateException("the detached response timed out; the server answered it");
    }

    // ---- the handler's Response ----

    @Override
    public Response status(int status) {
        checkOpen();
        this.status = ResponseRules.checkStatus(status);
        return this;
    }

    @Override
    public int status() {
        return status;
    }

    @Override
    public Response header(String name, String value) {
        checkOpen();
        if (!isFraming(name, value)) headers.set(name, value);
        return this;
    }

    @Override
    public Response addHeader(String name, String value) {
        checkOpen();
        if (!isFraming(name, value)) headers.add(name, value);
        return this;
    }

    /** A {@code Content-Length} set as a header is taken as the declared length; {@code Transfer-Encoding} is refused. */
    private boolean isFraming(String name, String value) {
        long length = ResponseRules.framingLength(name, value);
        if (length == -1) return false;
        contentLength(length);
        return true;
    }

    @Override
    public String header(String name) {
        if ("Content-Length".equalsIgnoreCase(name)) return declaredLength < 0 ? null : Long.toString(declaredLength);
        return headers.get(name);
    }

    @Override
    public Response contentLength(long length) {
        checkOpen();
        if (length < 0) throw new IllegalArgumentException("negative Content-Length");
        if (buffered > length) throw new IllegalStateException("more than " + length + " bytes already written");
        declaredLength = length;
        return this;
    }

    @Override
    public Response trailer(String name, String value) {
        if (state == State.COMPLETE) throw new IllegalStateException("response already complete");
        trailers.add(name, value);
        return this;
    }

    @Override
    public void sendInterim(int status) throws IOException {
        if (status < 100 || status > 199 || status == 100 || status == 101) {
            throw new IllegalArgumentException("an interim status is 1xx, other than 100 and 101: " + status);
        }
        checkOpen();
        stream.interim(status, this);
    }

    @Override
    public dev.petrel.server.Detached detach(java.time.Duration timeout) {
        java.util.Objects.requireNonNull(timeout, "timeout");
        checkHandler();
        if (detached != null) throw new IllegalStateException("the response is detached already");
        if (stream.onEventLoop()) {
            throw new IllegalStateException("a handler running inline (on an event loop, or an HTTP/2 connection's reader) cannot detach its response:"
                    + " one that detaches may block, so it must not be marked non-blocking");
        }
        detached = new Completion(timeout);
        return detached;
    }

    @Override
    public void reset() {
        checkOpen();
        begin(headRequest);
    }

    @Override
    public void send(byte[] body) throws IOException {
        checkOpen();
        Objects.requireNonNull(body, "body");
        sendWhole(body);
    }

    private void sendWhole(byte[] body) throws IOException {
        if (buffered > 0) {
            bodyStream.write(body);
            finish();
            return;
        }
        boolean sendsBody = sendsBody();
        if (declaredLength >= 0 && declaredLength != body.length && sendsBody) {
            throw new IllegalStateException("Content-Length " + declaredLength + " declared, " + body.length + " bytes sent");
        }
        if (declaredLength < 0) declaredLength = body.length; // a HEAD answer keeps the length it declared
        written = body.length;
        if (!sendsBody) {
            commit(0, true);
        } else if (body.length <= bufferSize) {
            System.arraycopy(body, 0, work(), headRoom, body.length);
            commit(body.length, true);
        } else {
            commit(0, false); // the length is declared: the stream sends the caller's array as it is
            body(body, 0, body.length);
            end();
        }
    }

    /**
     * A body larger than the buffer goes after the head straight from the file where the stream and
     * endpoint can (see {@link ExchangeStream#bodyFromFile}); a smaller one is read into the buffer
     * to leave with the head in one write, which beats two system calls.
     */
    @Override
    public void sendFile(FileChannel file, long position, long count) throws IOException {
        checkOpen();
        Objects.requireNonNull(file, "file");
        if (position < 0 || count < 0) throw new IllegalArgumentException("position and count must not be negative: " + position + ", " + count);
        if (declaredLength >= 0 && declaredLength != count && sendsBody()) {
            throw new IllegalStateException("Content-Length " + declaredLength + " declared, " + count + " bytes sent");
        }
        if (declaredLength < 0) declaredLength = count;
        if (!sendsBody()) { // HEAD: the head alone, with the length the body would have
            written = count;
            commit(0, true);
            return;
        }
        if (buffered == 0 && count > bufferSize) {
            commit(0, false);
            boolean sent;
            try {
                sent = stream.bodyFromFile(file, position, count);
            } catch (IOException e) {
                throw writeFailed(e);
            }
            if (sent) {
                written = count;
                end();
                return;
            }
        }
        FileCopy.copy(file, position, count, bodyStream); // the length is declared: buffered, or streamed after the head
        finish();
    }

    @Override
    public void send(String text) throws IOException {
        if (headers.get("Content-Type") == null) header("Content-Type", "text/plain;charset=UTF-8");
        send(text.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void send() throws IOException {
        send(EMPTY);
    }

    @Override
    public OutputStream body() {
        return bodyStream;
    }

    @Override
    public boolean committed() {
        return state != State.OPEN;
    }

    // ---- the stream's ResponseHead ----

    @Override
    public int headerCount() {
        return headers.size();
    }

    @Override
    public String headerName(int i) {
        return headers.name(i);
    }

    @Override
    public String headerValue(int i) {
        return headers.value(i);
    }

    @Override
    public boolean hasDate() {
        return headers.get("Date") != null;
    }

    @Override
    public long contentLength() {
        return declaredLength;
    }

    @Override
    public boolean sendsBody() {
        return !headRequest && !HttpStatus.forbidsBody(status);
    }

    @Override
    public boolean asksToClose() {
        String connection = headers.get("Connection");
        if (connection == null) return false;
        for (String token : connection.split(",")) {
            if (token.strip().equalsIgnoreCase("close")) return true;
        }
        return false;
    }

    @Override
    public int trailerCount() {
        return trailers.size();
    }

    @Override
    public String trailerName(int i) {
        return trailers.name(i);
    }

    @Override
    public String trailerValue(int i) {
        return trailers.value(i);
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
            checkHandler();
            if (state == State.COMPLETE) throw new IOException("response already complete");
            if (bodyClosed) throw new IOException("response body already closed");
            if (len == 0) return;
            written += len;
            if (state == State.COMMITTED && declaredLength >= 0 && written > declaredLength) {
                throw new IOException("more body bytes than the declared Content-Length " + declaredLength);
            }
            if (!sendsBody()) return; // HEAD and bodiless statuses: counted for Content-Length, never sent
            if (state == State.OPEN) {
                if (buffered + len <= bufferSize) {
                    System.arraycopy(b, off, work(), headRoom + buffered, len);
                    buffered += len;
                    return;
                }
                commit(buffered, false);
            }
            body(b, off, len);
        }

        /** Sends what is buffered and asks the protocol to pass it on now. */
        @Override
        public void flush() throws IOException {
            if (bodyClosed) return;
            if (state == State.OPEN && sendsBody()) commit(buffered, false);
            if (state == State.COMMITTED) {
                try {
                    stream.flush();
                } catch (IOException e) {
                    throw writeFailed(e);
                }
            }
        }

        /**
         * Ends the body as the handler writes it; the response itself is completed by the exchange
         * when the handler has returned, so that one which fails after closing (an exception
         * thrown out of a try-with-resources block) never reaches its client as a whole response.
         */
        @Override
        public void close() {
            bodyClosed = true;
        }
    }
}
