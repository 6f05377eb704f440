package dev.petrel.server.http2;

import dev.petrel.http.Methods;
import dev.petrel.http.RequestHead;
import dev.petrel.server.Handler;
import dev.petrel.server.engine.connection.ProtocolConnection;
import dev.petrel.server.engine.connection.RequestOrigin;
import dev.petrel.server.engine.connection.Upgrade;
import dev.petrel.server.engine.exchange.BodyWaitLimits;
import dev.petrel.server.engine.exchange.Exchange;
import dev.petrel.server.engine.exchange.ExchangeResponse;
import dev.petrel.server.proxy.ForwardedOrigin;
import java.io.IOException;

/**
 * One request and its response on a stream: the exchange every protocol shares, over the
 * stream's {@link Http2Stream}, run on a thread of its own so that streams proceed side by side
 * (or inline on the connection's reader, see {@link Http2Connection}). A request the server cannot hand to the handler (a
 * malformed target, a header list over the limit) is answered here with its status.
 */
final class StreamExchange implements Runnable {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.http2");

    private final StreamState stream;
    private final Http2Connection connection;
    private final Handler handler;
    private final Exchange exchange;
    private final StreamBody body;
    private final Http2Stream frames;
    private final ForwardedOrigin forwarded; // null: no proxy is trusted
    private final RequestHead head = new RequestHead();
    private boolean headRequest;
    private int rejectStatus; // not 0: answer with this status instead of running the handler
    private String rejectReason;

    StreamExchange(StreamState stream, Http2Connection connection, Http2Protocol protocol) {
        this.stream = stream;
        this.connection = connection;
        this.handler = protocol.handler();
        this.forwarded = protocol.forwardedOrigin();
        this.body = new StreamBody(stream, connection, new BodyWaitLimits(protocol.config()),
                protocol.config().limits().maxBodySize());
        this.frames = new Http2Stream(stream, connection, body, protocol.dates());
        this.exchange = new Exchange(frames, protocol.buffers(), "HTTP/2", protocol.observer());
    }

    /** The request's head, for the connection's reader to fill from the stream's fields before {@link #arm}. */
    RequestHead head() {
        return head;
    }

    /** Arms the request from its {@link #head()}: refused with 400 when its path does not decode. */
    void arm() {
        headRequest = Methods.HEAD.equals(head.method());
        frames.extendedConnect(head.connectProtocol() != null);
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
     * handler says its route never blocks. An extended CONNECT always may: the protocol it opens
     * runs on after the handler, on the exchange's thread.
     */
    boolean mayBlock() {
        return rejectStatus == 0 && (head.connectProtocol() != null || handler.mayBlock(exchange.request()));
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
                Upgrade tunnel = response.switchedTo();
                if (tunnel != null) {
                    response.release();
                    carry(tunnel);
                }
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

    /**
     * Runs what an extended CONNECT opened (a WebSocket session) over the stream, on this thread,
     * until it ends: the stream is then finished as any other, its exchange long logged.
     */
    private void carry(Upgrade upgrade) {
        ProtocolConnection carried = upgrade.open(new StreamTunnel(stream, connection, frames));
        connection.tunnelOpened(carried);
        try {
            carried.serve();
        } finally {
            connection.tunnelClosed(carried);
        }
    }
}
