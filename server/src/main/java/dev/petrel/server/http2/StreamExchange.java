package dev.petrel.server.http2;

import dev.petrel.http.Methods;
import dev.petrel.http.RequestHead;
import dev.petrel.http2.Http2ErrorCode;
import dev.petrel.server.Handler;
import dev.petrel.server.engine.BodyWaitLimits;
import dev.petrel.server.engine.Exchange;
import dev.petrel.server.engine.ExchangeResponse;
import dev.petrel.server.engine.ExchangeStream;
import dev.petrel.server.engine.RequestOrigin;
import dev.petrel.server.proxy.ForwardedOrigin;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * One request and its response on a stream: the exchange every protocol shares, over the
 * stream's body ({@link StreamBody}) and wire ({@link Http2Wire}), run on a thread of its own so
 * that streams proceed side by side. A request the server cannot hand to the handler (a
 * malformed target, a header list over the limit) is answered here with its status.
 */
final class StreamExchange implements Runnable, ExchangeStream {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.http2");

    private final Http2Stream stream;
    private final Http2Connection connection;
    private final Handler handler;
    private final Exchange exchange;
    private final StreamBody body;
    private final ForwardedOrigin forwarded; // null: no proxy is trusted
    private final RequestHead head = new RequestHead();
    private boolean headRequest;
    private int rejectStatus; // not 0: answer with this status instead of running the handler
    private String rejectReason;

    StreamExchange(Http2Stream stream, Http2Connection connection, Http2Protocol protocol) {
        this.stream = stream;
        this.connection = connection;
        this.handler = protocol.handler();
        this.forwarded = protocol.forwardedOrigin();
        this.body = new StreamBody(stream, connection, new BodyWaitLimits(protocol.config()),
                protocol.config().limits().maxBodySize());
        Http2Wire wire = new Http2Wire(stream, connection, connection.output(), protocol.dates());
        this.exchange = new Exchange(body, wire, protocol.buffers(), this, "HTTP/2", protocol.observer());
    }

    /** The request's head, for the connection's reader to fill from the stream's fields before {@link #arm}. */
    RequestHead head() {
        return head;
    }

    /** Arms the request from its {@link #head()}: refused with 400 when its path does not decode. */
    void arm() {
        headRequest = Methods.HEAD.equals(head.method());
        if (head.decodedPath() == null) reject(400, "Invalid percent-encoding in the request target");
        if (head.expectContinue()) {
            body.onFirstRead(() -> {
                if (!exchange.response().committed()) exchange.response().interim(100);
            });
        }
        RequestOrigin origin = connection.endpoint();
        if (forwarded != null && forwarded.apply(head.headers(), origin)) {
            origin = forwarded; // a trusted proxy speaking HTTP/2 to this server says who its client was
        }
        exchange.request().begin(head, origin);
    }

    /** Answers with {@code status} instead of running the handler. */
    void reject(int status, String reason) {
        if (rejectStatus == 0) {
            rejectStatus = status;
            rejectReason = reason;
        }
    }

    /**
     * Whether running this exchange may block: not when it answers a rejection, nor when the
     * handler says its route never blocks.
     */
    boolean mayBlock() {
        return rejectStatus == 0 && handler.mayBlock(exchange.request());
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
    public void run() {
        ExchangeResponse response = exchange.response();
        response.begin(headRequest);
        try {
            if (rejectStatus != 0) {
                exchange.answerWithError(rejectStatus, rejectReason);
                response.finish();
            } else {
                exchange.run(handler);
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "stream " + stream.id + " from " + connection.endpoint().remoteAddress()
                    + " failed: " + e);
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.ERROR, "unexpected failure on stream " + stream.id + " from "
                    + connection.endpoint().remoteAddress(), e);
        } finally {
            response.release();
            connection.streamFinished(stream);
        }
    }
}
