package dev.petrel.server.http1;

import dev.petrel.http.BodyFraming;
import dev.petrel.http.DateCache;
import dev.petrel.http.HttpError;
import dev.petrel.http.HttpVersion;
import dev.petrel.http.Methods;
import dev.petrel.http.ParseStatus;
import dev.petrel.http.RequestHead;
import dev.petrel.server.Handler;
import dev.petrel.server.config.ServerConfig;
import dev.petrel.server.engine.connection.ConnectionInput;
import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.connection.HeadWait;
import dev.petrel.server.engine.connection.InputBufferPool;
import dev.petrel.server.engine.connection.ProtocolConnection;
import dev.petrel.server.engine.connection.ReplayingEndpoint;
import dev.petrel.server.engine.connection.RequestConnection;
import dev.petrel.server.engine.connection.RequestOrigin;
import dev.petrel.server.engine.connection.Upgrade;
import dev.petrel.server.engine.exchange.BufferPool;
import dev.petrel.server.engine.exchange.ExchangeObserver;
import dev.petrel.server.engine.exchange.ExchangeResponse;
import dev.petrel.server.proxy.ForwardedOrigin;
import java.io.IOException;
import java.nio.ByteBuffer;

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
public final class Http1Connection extends RequestConnection implements Http1Stream.Connection {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.http1");
    /** The size of the read buffers borrowed for large heads, pipelined bursts and bodies. */
    static final int LARGE_INPUT_BYTES = 8192;

    private final Handler handler;
    private final boolean handlerMayBlock;
    private final ServerConfig config;
    private final Http1ExchangeParts.Pool partsPool;
    private final RequestBody.FirstReadListener continueOnFirstRead = this::sendContinue; // made once, not per request
    // taken from the pool at a head's first byte, given back when its exchange is over: see parts()
    private Http1ExchangeParts parts;

    private boolean rejecting;       // answering a head that could not be used: then the connection closes

    private final HeadWait.Parser headParser;
    private final ForwardedOrigin forwarded; // null: no proxy is trusted, the connection is every request's origin
    private final long headerTimeoutNanos;
    private final long idleTimeoutNanos;

    private RequestHead head;
    private ProtocolConnection successor; // the protocol the connection switched to after a 101 (see Upgrade)
    private boolean continueSent;
    private int served;
    // mayBlock()'s answer for the head of exchange served + 1, asked by the transport and by serve()
    private int decidedFor = -1;
    private boolean decision;

    /**
     * An engine for one connection with a response buffer, a large read buffer and a set of
     * exchange parts of its own (single-slot pools); call {@link #serve()} on the thread the
     * transport gives it.
     */
    public Http1Connection(Endpoint endpoint, Handler handler, ServerConfig config, DateCache dates) {
        this(endpoint, handler, ExchangeObserver.NONE, config, dates);
    }

    /** As {@link #Http1Connection(Endpoint, Handler, ServerConfig, DateCache)}, each exchange told to {@code observer}. */
    public Http1Connection(Endpoint endpoint, Handler handler, ExchangeObserver observer, ServerConfig config, DateCache dates) {
        this(endpoint, handler, handler.mayBlock(), config,
                new Http1ExchangeParts.Pool(config, dates, new BufferPool(responseBufferBytes(config), 1), 1, observer),
                new InputBufferPool(ConnectionInput.SMALL_BUFFER_BYTES, 1), new InputBufferPool(LARGE_INPUT_BYTES, 1), null);
    }

    /**
     * An engine for one connection taking the parts of each exchange from {@code partsPool}
     * (which also holds the response buffers, of {@link #responseBufferBytes}), small read buffers
     * from {@code smallInputPool} (of {@link ConnectionInput#SMALL_BUFFER_BYTES}, when the endpoint
     * waits without a thread) and large ones from {@code inputPool} (of {@link #LARGE_INPUT_BYTES};
     * see {@link ConnectionInput}), all shared by the listener's connections; {@code handlerMayBlock} is
     * {@code handler.mayBlock()}, asked once per listener rather than per connection.
     */
    Http1Connection(Endpoint endpoint, Handler handler, boolean handlerMayBlock, ServerConfig config,
                    Http1ExchangeParts.Pool partsPool, InputBufferPool smallInputPool, InputBufferPool inputPool,
                    ForwardedOrigin forwarded) {
        super(endpoint, input(endpoint, smallInputPool, inputPool), config.headerTimeout().toNanos());
        this.forwarded = forwarded;
        this.handler = handler;
        this.handlerMayBlock = handlerMayBlock;
        this.config = config;
        this.partsPool = partsPool;
        this.headerTimeoutNanos = config.headerTimeout().toNanos();
        this.idleTimeoutNanos = config.idleTimeout().toNanos();
        this.headParser = new HeadWait.Parser() { // made once, not per request
            @Override
            public void reset() {
                if (parts != null) parts.parser.reset(); // a set from the pool comes reset
            }

            @Override
            public ParseStatus parse() {
                return parts().parser.parse(input.buffer()); // called only once bytes of a head are here
            }
        };
    }

    /** The input: its small buffer pooled where the endpoint waits without a thread, else its own. */
    private static ConnectionInput input(Endpoint endpoint, InputBufferPool smallInputPool, InputBufferPool inputPool) {
        return endpoint.waitsWithoutThread()
                ? new ConnectionInput(endpoint, smallInputPool, inputPool)
                : new ConnectionInput(endpoint, ConnectionInput.SMALL_BUFFER_BYTES, inputPool);
    }

    /** The size of the pooled buffers a response needs: the body buffer and room for its framing. */
    static int responseBufferBytes(ServerConfig config) {
        return Http1Stream.HEAD_ROOM + config.responseBufferSize() + Http1Stream.TAIL_ROOM;
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
        heads.servingOnLoop(!mayBlockHere);
        try {
            while (true) {
                switch (readHead(!endpoint.waitsWithoutThread())) {
                    case WAITING -> {
                        waiting = true;
                        return true;
                    }
                    case COMPLETE -> {
                        if (!mayBlockHere && mayBlock()) {
                            waiting = true; // the head stays parsed; the transport's next serve() answers it
                            return true;
                        }
                        heads.taken();
                        boolean keep;
                        try {
                            keep = exchange();
                        } finally {
                            parts.response.release(); // an idle connection holds no response buffer
                            releaseParts();           // nor the exchange's parts
                            input.settle();           // nor a large read buffer, once what is left fits the small one
                        }
                        if (!keep) return false;
                    }
                    case REJECTED -> {
                        heads.taken();
                        HttpError error = parts().parser.error();
                        LOG.log(System.Logger.Level.DEBUG, () -> "rejected request from " + endpoint.remoteAddress()
                                + ": " + error.status() + " " + error.reason());
                        sendErrorAndClose(error.status(), error.reason());
                        return false;
                    }
                    case TIMED_OUT -> {
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
                releaseParts();
                input.release();
                if (successor == null) lifecycle.end(); // else the endpoint is the new protocol's
            }
        }
    }

    /**
     * Closed by another thread while it waits inside a head (a slow client, shed or stopped), the
     * connection holds that head's exchange parts and read buffer: served once more, it finds the
     * endpoint closed and gives them back to their pools.
     */
    @Override
    public boolean servesOnceClosed() {
        return parts != null;
    }

    /** A head taken in and handed back by serve() for the transport to run elsewhere. */
    @Override
    public boolean hasWork() {
        return heads.complete();
    }

    /**
     * Whether the next {@link #serve()} may block: never when the handler never does; otherwise,
     * once a whole head has arrived, what the handler says of this request (a router answers for
     * the route it picks), so that requests for non-blocking routes skip the hand-over to a worker.
     */
    @Override
    public boolean mayBlock() {
        if (!handlerMayBlock) return false;
        if (!heads.complete()) return true;
        if (decidedFor == served) return decision; // asked again for the same head
        RequestHead parsed = parts().parser.head();
        // an invalid path is answered with a 400 by the engine, which never blocks
        boolean valid = parsed.decodedPath() != null;
        if (valid) arm(parsed);
        decision = valid && handler.mayBlock(parts.request);
        decidedFor = served;
        return decision;
    }

    // ---- reading the head ----

    /**
     * Takes in bytes toward the next head (see {@link HeadWait}): the first request must begin
     * within the header timeout of accept, later ones within the idle timeout.
     */
    @Override
    protected HeadWait.Progress readHead(boolean mayWait) throws IOException {
        return heads.await(mayWait, served == 0 ? headerTimeoutNanos : idleTimeoutNanos, headParser);
    }

    // ---- the parts of an exchange ----

    /** The parts of the exchange in flight, taken from the pool and bound to this connection at the first call. */
    private Http1ExchangeParts parts() {
        Http1ExchangeParts taken = parts;
        if (taken == null) {
            taken = partsPool.acquire();
            taken.bind(this, endpoint, input, lifecycle);
            parts = taken;
        }
        return taken;
    }

    /**
     * The exchange is over, or the connection: its parts go back to the pool, unless the handler
     * detached the response and so may still hold its request and response on another thread;
     * such a set is left to the collector rather than handed to another connection.
     */
    private void releaseParts() {
        Http1ExchangeParts held = parts;
        if (held == null) return;
        parts = null;
        head = null;
        if (held.exchange.detached()) {
            partsPool.forget(held);
            return;
        }
        held.unbind();
        partsPool.release(held);
    }

    // ---- one exchange ----

    private boolean exchange() throws IOException {
        Http1ExchangeParts parts = parts();
        RequestBody body = parts.body;
        ExchangeResponse response = parts.response;
        head = parts.parser.head();
        served++;
        continueSent = false;
        if (head.decodedPath() == null) {
            sendErrorAndClose(400, "Invalid percent-encoding in the request target");
            return false;
        }
        switch (head.framing()) {
            case NONE -> body.none();
            case LENGTH -> body.fixed(head.contentLength(), continueOnFirstRead);
            case CHUNKED -> body.chunked(continueOnFirstRead);
        }
        arm(head);
        response.begin(Methods.HEAD.equals(head.method()));
        try {
            if (!parts.exchange.run(handler)) return false;
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "response to " + endpoint.remoteAddress() + " failed: " + e);
            return false;
        }
        Upgrade upgrade = response.switchedTo();
        if (upgrade != null) {
            switchTo(upgrade);
            return false;
        }
        if (body.readElsewhere()) {
            // the application's own thread still waits in a read of the body: the rest of the input is
            // that read's, so neither a drain nor a linger may take it; closing ends that read too
            lifecycle.abort();
            return false;
        }
        if (parts.stream.closesConnection()) {
            if (!clientSaidItsLast()) lifecycle.closeGracefully(); // else serve() closes at once
            return false;
        }
        if (!body.finished() && !body.drain(config.maxDrainBytes())) {
            lifecycle.closeGracefully();
            return false;
        }
        return true;
    }

    /**
     * Hands the endpoint to {@code upgrade}'s protocol after a 101: the bytes the client sent after
     * the request, read already, are copied out of the input (whose buffers go back to their pools)
     * for the new protocol to read first.
     */
    private void switchTo(Upgrade upgrade) {
        ByteBuffer rest = input.buffer();
        Endpoint handedOver = endpoint;
        if (rest.hasRemaining()) {
            ByteBuffer unread = ByteBuffer.allocate(rest.remaining()).put(rest).flip();
            handedOver = new ReplayingEndpoint(endpoint, unread);
        }
        LOG.log(System.Logger.Level.DEBUG, () -> "connection from " + endpoint.remoteAddress() + " switched protocols");
        successor = upgrade.open(handedOver);
    }

    @Override
    public ProtocolConnection successor() {
        return successor;
    }

    /** Fills the exchange's request from {@code parsed}; its origin is the connection, or what a trusted proxy forwarded. */
    private void arm(RequestHead parsed) {
        RequestOrigin origin = endpoint;
        if (forwarded != null && forwarded.apply(parsed.headers(), endpoint)) origin = forwarded;
        parts().request.begin(parsed, origin);
    }

    private void sendContinue() throws IOException {
        if (head.expectContinue() && !continueSent && !parts.response.committed()) {
            parts.response.interim(100);
            continueSent = true;
        }
    }

    // ---- what the response asks at commit ----

    @Override
    public boolean mustClose() {
        if (rejecting) return true;
        if (!head.keepAlive() || lifecycle.draining() || served >= config.maxRequestsPerConnection()) return true;
        RequestBody body = parts.body;
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
    public boolean canSwitchProtocols() {
        return !rejecting && head.version() == HttpVersion.HTTP_1_1 && parts.body.finished();
    }

    @Override
    public boolean confirmKeepAlive() {
        return !rejecting && head.version() == HttpVersion.HTTP_1_0;
    }

    /** A rejected head is answered as HTTP/1.1: its version may be what was wrong with it. */
    @Override
    public boolean http10() {
        return !rejecting && head.version() == HttpVersion.HTTP_1_0;
    }

    // ---- closing ----

    /** Answers a request whose head could not be used, then closes: the framing is in doubt. */
    private void sendErrorAndClose(int status, String reason) throws IOException {
        rejecting = true;
        Http1ExchangeParts parts = parts();
        parts.response.begin(false);
        try {
            parts.exchange.answerWithError(status, reason);
        } finally {
            parts.response.release();
        }
        lifecycle.closeGracefully();
    }

    /**
     * Whether the connection may close at once, without lingering: the client said this request
     * was its last (HTTP/1.0 without keep-alive, or {@code Connection: close}) and every byte it
     * sent has been read. Closing with nothing unread sends FIN, not RST, so the response in flight
     * is safe, and a client that ends the conversation sends nothing more; lingering would only
     * cost a half-close, a wait for the client's FIN and a wake-up per connection.
     */
    private boolean clientSaidItsLast() {
        return !head.keepAlive() && parts.body.finished() && !input.hasRemaining();
    }
}
