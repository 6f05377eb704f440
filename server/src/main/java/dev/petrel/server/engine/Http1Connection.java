package dev.petrel.server.engine;

import dev.petrel.http.ByteSink;
import dev.petrel.http.DateCache;
import dev.petrel.http.HttpError;
import dev.petrel.http.HttpStatus;
import dev.petrel.http.HttpVersion;
import dev.petrel.http.Methods;
import dev.petrel.http.ParseStatus;
import dev.petrel.http.PercentDecoder;
import dev.petrel.http.RequestHead;
import dev.petrel.http.RequestParser;
import dev.petrel.http.ResponseHeadEncoder;
import dev.petrel.http.TargetForm;
import dev.petrel.server.Handler;
import dev.petrel.server.ServerConfig;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP/1.1 protocol engine for one connection, the same for every transport: it reads
 * heads, runs the handler, and decides persistence. Transports give it an {@link Endpoint} and a
 * thread to run {@link #serve()} on.
 *
 * <p>Per exchange: parse the head (within {@code headerTimeout} of its first byte; 408 after),
 * reject invalid heads with the codec's status and close, arm the body stream (sending
 * {@code 100 Continue} on the handler's first read), run the handler, complete its response,
 * then keep the connection only if the request allowed it, the body was read or drained within
 * {@code maxDrainBytes}, and the server is not stopping. Pipelined requests wait in the input
 * buffer and are answered in order, one at a time.
 */
public final class Http1Connection implements ProtocolConnection, Http1Response.Exchange, HandlerInvocation.Exchange {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.http1");
    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLOSE = "close".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TEXT_PLAIN = "text/plain;charset=UTF-8".getBytes(StandardCharsets.US_ASCII);
    private static final int LINGER_MILLIS = 1000;
    private static final int LINGER_BYTES = 256 * 1024;
    /** The size of the read buffers borrowed for large heads, pipelined bursts and bodies. */
    static final int LARGE_INPUT_BYTES = 8192;

    private final Endpoint endpoint;
    private final Handler handler;
    private final boolean handlerMayBlock;
    private final ServerConfig config;
    private final DateCache dates;
    private final ConnectionInput input;
    private final RequestParser parser;
    private final RequestBody body;
    private final Http1Request request;
    private final Http1Response response;
    private final ByteSink sink = new ByteSink(256);
    private final RequestBody.FirstReadListener continueOnFirstRead = this::sendContinue; // made once, not per request

    private final ConnectionLifecycle lifecycle;
    private boolean closeHandedOver; // closeGracefully() closes the endpoint, now or after lingering

    // reading the next head; kept across returns from serve() while an event loop waits for input
    private boolean awaitingHead;
    private ParseStatus headStatus = ParseStatus.NEED_MORE;
    private long idleDeadline;  // nanoTime by which the next head must begin
    private long headDeadline;  // nanoTime by which a begun head must be complete; 0 before its first byte
    private boolean readinessReported; // inside poll(): the transport saw the socket readable
    private boolean servingOnLoop;     // this serve() runs inline on an event loop

    private RequestHead head;
    // the parser hands back the same rawPath String for a repeated target; so is its decoded path
    private String lastRawPath;
    private String lastPath;
    private boolean continueSent;
    private int served;
    // mayBlock()'s answer for the head of exchange served + 1, asked by the transport and by serve()
    private int decidedFor = -1;
    private boolean decision;

    /**
     * An engine for one connection with a response buffer and a large read buffer of its own
     * (single-slot pools); call {@link #serve()} on the thread the transport gives it.
     */
    public Http1Connection(Endpoint endpoint, Handler handler, ServerConfig config, DateCache dates) {
        this(endpoint, handler, handler.mayBlock(), config, dates, new BufferPool(responseBufferBytes(config), 1),
                new InputBufferPool(LARGE_INPUT_BYTES, 1));
    }

    /**
     * An engine for one connection taking response buffers from {@code pool} (see
     * {@link #responseBufferBytes}) and large read buffers from {@code inputPool} (of
     * {@link #LARGE_INPUT_BYTES}; see {@link ConnectionInput}), both shared by the listener's
     * connections; {@code handlerMayBlock} is {@code handler.mayBlock()}, asked once per listener
     * rather than per connection.
     */
    Http1Connection(Endpoint endpoint, Handler handler, boolean handlerMayBlock, ServerConfig config, DateCache dates,
                    BufferPool pool, InputBufferPool inputPool) {
        this.endpoint = endpoint;
        this.lifecycle = new ConnectionLifecycle(endpoint);
        this.handler = handler;
        this.handlerMayBlock = handlerMayBlock;
        this.config = config;
        this.dates = dates;
        this.input = new ConnectionInput(endpoint, ConnectionInput.SMALL_BUFFER_BYTES, inputPool);
        this.parser = new RequestParser(config.limits());
        this.body = new RequestBody(input, config.limits(), new BodyWaitLimits(config));
        this.request = new Http1Request(endpoint, body);
        this.response = new Http1Response(endpoint, new ByteSink(256), dates, pool, body);
    }

    /** The size of the pooled buffers a response needs: the body buffer and room for its framing. */
    static int responseBufferBytes(ServerConfig config) {
        return Http1Response.HEAD_ROOM + config.responseBufferSize() + Http1Response.TAIL_ROOM;
    }

    /**
     * Serves requests until the connection ends, then closes it and returns false. On an endpoint
     * that waits without a thread it also returns, with true, when the next request has not
     * arrived yet; the transport calls it again later (see {@link ProtocolConnection}). Never
     * throws.
     */
    @Override
    public boolean serve() {
        boolean waiting = false;
        // On an event loop the transport ran this serve() inline because mayBlock() said no; a
        // later request that may block must go back to the transport to be handed to a worker.
        boolean mayBlockHere = !endpoint.waitsWithoutThread() || mayBlock();
        servingOnLoop = !mayBlockHere;
        try {
            while (true) {
                HeadProgress progress = readHead(!endpoint.waitsWithoutThread());
                switch (progress) {
                    case WAITING -> {
                        waiting = true;
                        return true;
                    }
                    case COMPLETE -> {
                        if (!mayBlockHere && mayBlock()) {
                            waiting = true; // the head stays parsed; the transport's next serve() answers it
                            return true;
                        }
                        awaitingHead = false;
                        boolean keep;
                        try {
                            keep = exchange();
                        } finally {
                            response.release(); // an idle connection holds no response buffer
                            input.settle();     // nor a large read buffer, once what is left fits the small one
                        }
                        if (!keep) return false;
                    }
                    case REJECTED -> {
                        awaitingHead = false;
                        HttpError error = parser.error();
                        LOG.log(System.Logger.Level.DEBUG, () -> "rejected request from " + endpoint.remoteAddress()
                                + ": " + error.status() + " " + error.reason());
                        sendErrorAndClose(error.status(), error.reason());
                        return false;
                    }
                    case HEAD_TIMED_OUT -> {
                        LOG.log(System.Logger.Level.DEBUG, () -> "request head from " + endpoint.remoteAddress() + " timed out");
                        sendErrorAndClose(408, "Request head not received in time");
                        return false;
                    }
                    case ENDED -> {
                        return false;
                    }
                }
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "connection from " + endpoint.remoteAddress() + " ended: " + e);
            return false;
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.ERROR, "unexpected failure on connection from " + endpoint.remoteAddress(), e);
            return false;
        } finally {
            if (!waiting) {
                input.release();
                if (!closeHandedOver) endpoint.close();
            }
        }
    }

    @Override
    public boolean poll() {
        readinessReported = true; // the socket is readable: read, however dry the last read left it
        try {
            return readHead(false) != HeadProgress.WAITING;
        } catch (IOException | RuntimeException e) {
            return true; // serve() meets the failure again and ends the connection
        } finally {
            readinessReported = false;
        }
    }

    /** A head taken in and handed back by serve() for the transport to run elsewhere. */
    @Override
    public boolean hasWork() {
        return awaitingHead && headStatus == ParseStatus.COMPLETE;
    }

    /**
     * Whether the next {@link #serve()} may block: never when the handler never does; otherwise,
     * once a whole head has arrived, what the handler says of this request (a router answers for
     * the route it picks), so that requests for non-blocking routes skip the hand-over to a worker.
     */
    @Override
    public boolean mayBlock() {
        if (!handlerMayBlock) return false;
        if (!awaitingHead || headStatus != ParseStatus.COMPLETE) return true;
        if (decidedFor == served) return decision; // asked again for the same head
        RequestHead parsed = parser.head();
        String path = pathOf(parsed);
        // an invalid path is answered with a 400 by the engine, which never blocks
        if (path != null) request.begin(parsed, path);
        decision = path != null && handler.mayBlock(request);
        decidedFor = served;
        return decision;
    }

    @Override
    public long wakeDeadline() {
        return headDeadline != 0 ? headDeadline : idleDeadline;
    }

    /**
     * Asks the connection to finish: an idle one closes now, a busy one after its current
     * response (which then says {@code Connection: close}). Safe from any thread.
     */
    @Override
    public void drain() {
        lifecycle.drain();
    }

    /** Closes the connection now, whatever it is doing. Safe from any thread. */
    @Override
    public void abort() {
        lifecycle.abort();
    }

    /** Closes the connection if it has waited for its next head since before {@code waitingSinceBefore}. Safe from any thread. */
    @Override
    public boolean shed(long waitingSinceBefore) {
        return lifecycle.shed(waitingSinceBefore);
    }

    // ---- reading the head ----

    /** Where reading toward the next request head stands. */
    private enum HeadProgress {
        /** A whole head is parsed and ready for {@link #exchange()}. */
        COMPLETE,
        /** Nothing more has arrived and the endpoint waits without a thread. */
        WAITING,
        /** The head is invalid: answer with the parser's status and close. */
        REJECTED,
        /** A head was started but not finished within {@code headerTimeout}: answer 408. */
        HEAD_TIMED_OUT,
        /** The peer closed, the connection idled out or is draining: close without a word. */
        ENDED
    }

    /**
     * Takes in bytes toward the next head until it is complete, invalid, timed out or the
     * connection ended. With {@code mayWait} false it never blocks: it returns
     * {@link HeadProgress#WAITING} when nothing more has arrived, and may be called again later
     * to go on where it stopped.
     */
    private HeadProgress readHead(boolean mayWait) throws IOException {
        if (!awaitingHead) {
            parser.reset();
            headStatus = ParseStatus.NEED_MORE;
            long now = System.nanoTime();
            if (!lifecycle.enterIdle(now)) return HeadProgress.ENDED;
            awaitingHead = true;
            headDeadline = 0;
            // the first request must come within the header timeout of accept; later ones within the idle timeout
            idleDeadline = now + (served == 0 ? config.headerTimeout() : config.idleTimeout()).toNanos();
        }
        while (true) {
            if (headStatus == ParseStatus.NEED_MORE && input.hasRemaining()) {
                boolean firstBytes = headDeadline == 0;
                if (firstBytes) headDeadline = System.nanoTime() + config.headerTimeout().toNanos();
                headStatus = parser.parse(input.buffer());
                // one lock per request in the usual case, where the head arrives whole: idle, then busy
                if (headStatus == ParseStatus.COMPLETE) {
                    if (!lifecycle.beginExchange()) return HeadProgress.ENDED;
                } else if (firstBytes && headStatus == ParseStatus.NEED_MORE) {
                    if (!lifecycle.headBegun()) return HeadProgress.ENDED;
                }
            }
            if (headStatus == ParseStatus.COMPLETE) return HeadProgress.COMPLETE;
            if (headStatus == ParseStatus.ERROR) return HeadProgress.REJECTED;
            long remaining = wakeDeadline() - System.nanoTime();
            if (remaining <= 0) return timedOut();
            int n;
            if (mayWait) {
                try {
                    n = input.fill(millis(remaining));
                } catch (SocketTimeoutException e) {
                    return timedOut(); // the endpoint waited until the deadline
                }
            } else {
                // On the loop, a read that left the socket dry needs no second look: the loop's selector
                // watches for more. A worker looks once more, since a request found now saves the
                // hand-back to the loop (measured: skipping it there made same-CPU latency worse).
                n = servingOnLoop && !readinessReported && input.drained() ? 0 : input.fillAvailable();
                if (n == 0) {
                    input.settle(); // the parser took every byte: wait without a large buffer
                    return HeadProgress.WAITING;
                }
            }
            if (n < 0) return HeadProgress.ENDED; // peer closed, between requests or inside a head: nothing to answer
        }
    }

    /** Idle past the timeout: close quietly (RFC 9112 section 9.5); inside a head: 408. */
    private HeadProgress timedOut() {
        return headDeadline != 0 ? HeadProgress.HEAD_TIMED_OUT : HeadProgress.ENDED;
    }

    // ---- one exchange ----

    private boolean exchange() throws IOException {
        head = parser.head();
        served++;
        continueSent = false;
        String path = pathOf(head);
        if (path == null) {
            sendErrorAndClose(400, "Invalid percent-encoding in the request target");
            return false;
        }
        switch (head.framing()) {
            case NONE -> body.none();
            case LENGTH -> body.fixed(head.contentLength(), continueOnFirstRead);
            case CHUNKED -> body.chunked(continueOnFirstRead);
        }
        request.begin(head, path);
        response.begin(this);
        try {
            if (!HandlerInvocation.run(handler, request, response, this)) return false;
            response.finish();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "response to " + endpoint.remoteAddress() + " failed: " + e);
            return false;
        }
        if (response.closesConnection()) {
            if (!clientSaidItsLast()) closeGracefully(); // else serve() closes at once
            return false;
        }
        if (!body.finished() && !body.drain(config.maxDrainBytes())) {
            closeGracefully();
            return false;
        }
        return true;
    }

    // ---- the handler's exchange, as HandlerInvocation sees it ----

    @Override
    public void finish() throws IOException {
        response.finish();
    }

    @Override
    public boolean committed() {
        return response.committed();
    }

    @Override
    public Exception bodyFailure() {
        return body.failure();
    }

    @Override
    public String describe() {
        return head.method() + " " + head.target() + " from " + endpoint.remoteAddress();
    }

    /** Replaces an uncommitted response by an error; returns false when the head had left and the connection must be cut. */
    @Override
    public boolean answerWithError(int status, String message) throws IOException {
        if (response.committed()) {
            abort(); // the client sees a truncated response rather than a wrong one
            return false;
        }
        response.discard();
        response.status(status).header("Content-Type", "text/plain;charset=UTF-8");
        String reason = HttpStatus.reason(status);
        response.send(message == null || message.equals(reason) ? reason + "\n" : reason + ": " + message + "\n");
        return true;
    }

    private void sendContinue() throws IOException {
        if (head.expectContinue() && !continueSent && !response.committed()) {
            endpoint.write(CONTINUE, 0, CONTINUE.length);
            continueSent = true;
        }
    }

    /** The decoded path of {@code head}, or null when its percent-encoding is invalid; a repeated target is decoded once. */
    private String pathOf(RequestHead head) {
        String rawPath = head.rawPath();
        if (rawPath != null && rawPath == lastRawPath) return lastPath;
        String path = decodedPath(head);
        lastRawPath = rawPath;
        lastPath = path;
        return path;
    }

    private static String decodedPath(RequestHead head) {
        if (head.targetForm() == TargetForm.ASTERISK) return "*";
        if (head.targetForm() == TargetForm.AUTHORITY) return "";
        return PercentDecoder.decode(head.rawPath());
    }

    // ---- what the response asks at commit ----

    @Override
    public boolean mustClose() {
        if (!head.keepAlive() || lifecycle.draining() || served >= config.maxRequestsPerConnection()) return true;
        if (body.failed()) return true;
        if (!body.finished()) {
            // A client that waits for 100-continue and got a final answer may or may not send the body.
            if (head.expectContinue() && !continueSent) return true;
            // A handler that has not started on a large body will not read it; one that has (a streaming
            // echo, an upload) usually reads it all, so the connection is kept and drained afterwards.
            if (!body.touched() && body.remainingDeclared() > config.maxDrainBytes()) return true;
        }
        return false;
    }

    @Override
    public boolean confirmKeepAlive() {
        return head.version() == HttpVersion.HTTP_1_0;
    }

    @Override
    public boolean http10() {
        return head.version() == HttpVersion.HTTP_1_0;
    }

    @Override
    public boolean headRequest() {
        return Methods.HEAD.equals(head.method());
    }

    // ---- closing ----

    /** Answers a request whose head could not be used, then closes: the framing is in doubt. */
    private void sendErrorAndClose(int status, String reason) throws IOException {
        byte[] text = (HttpStatus.reason(status) + ": " + reason + "\n").getBytes(StandardCharsets.UTF_8);
        sink.clear();
        ResponseHeadEncoder.statusLine(status, sink);
        ResponseHeadEncoder.field(ResponseHeadEncoder.DATE, dates.bytes(), sink);
        ResponseHeadEncoder.field(ResponseHeadEncoder.CONTENT_TYPE, TEXT_PLAIN, sink);
        ResponseHeadEncoder.field(ResponseHeadEncoder.CONTENT_LENGTH, text.length, sink);
        ResponseHeadEncoder.field(ResponseHeadEncoder.CONNECTION, CLOSE, sink);
        ResponseHeadEncoder.end(sink);
        sink.write(text);
        endpoint.write(sink.array(), 0, sink.length());
        closeGracefully();
    }

    /**
     * Whether the connection may close at once, without lingering: the client said this request
     * was its last (HTTP/1.0 without keep-alive, or {@code Connection: close}) and every byte it
     * sent has been read. Closing with nothing unread sends FIN, not RST, so the response in flight
     * is safe, and a client that ends the conversation sends nothing more; lingering would only
     * cost a half-close, a wait for the client's FIN and a wake-up per connection.
     */
    private boolean clientSaidItsLast() {
        return !head.keepAlive() && body.finished() && !input.hasRemaining();
    }

    /** Lets the response reach the client before the connection closes (see {@link Endpoint#closeGracefully}). */
    private void closeGracefully() {
        closeHandedOver = true;
        endpoint.closeGracefully(LINGER_MILLIS, LINGER_BYTES);
    }

    private static int millis(long nanos) {
        if (nanos <= 0) return 0;
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(nanos)));
    }
}
