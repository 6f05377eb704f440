package dev.petrel.server.ajp;

import dev.petrel.ajp.AjpFormatException;
import dev.petrel.ajp.AjpPackets;
import dev.petrel.ajp.AjpRequestHead;
import dev.petrel.ajp.AjpResponseEncoder;
import dev.petrel.ajp.ForwardRequestParser;
import dev.petrel.http.HttpError;
import dev.petrel.http.Methods;
import dev.petrel.http.ParseStatus;
import dev.petrel.server.Handler;
import dev.petrel.server.config.AjpConfig;
import dev.petrel.server.config.ServerConfig;
import dev.petrel.server.engine.connection.ConnectionInput;
import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.connection.HeadWait;
import dev.petrel.server.engine.connection.RequestConnection;
import dev.petrel.server.engine.exchange.BodyWaitLimits;
import dev.petrel.server.engine.exchange.BufferPool;
import dev.petrel.server.engine.exchange.Exchange;
import dev.petrel.server.engine.exchange.ExchangeObserver;
import dev.petrel.server.engine.exchange.ExchangeRequest;
import dev.petrel.server.engine.exchange.ExchangeResponse;
import java.io.IOException;

/**
 * The AJP/1.3 protocol engine for one connection from a front end, the same for every transport.
 * The front end sends a forward-request, the engine runs the handler, answers with send-headers,
 * body chunks and an end-response, and the front end reuses the connection for its next request.
 * A CPing between requests gets a CPong; a shutdown request is refused.
 *
 * <p>Between requests the connection waits for the front end as long as the listener's idle
 * timeout allows (by default as long as the front end keeps it open, since it pools its
 * connections); a packet once begun must be complete within {@code headerTimeout}, and the first
 * must begin within it of accept. Bytes that are not AJP close the connection, with a log line
 * naming what was wrong; a forward-request that cannot be used is answered with the HTTP codec's
 * status, then the connection closes.
 */
public final class AjpConnection extends RequestConnection {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.ajp");
    private static final byte[] CPONG = AjpResponseEncoder.cpong();

    private final Handler handler;
    private final boolean handlerMayBlock;
    private final ServerConfig config;
    private final long idleTimeoutNanos; // 0: wait as long as the front end keeps the connection
    private final AjpAccess access;
    private final AjpPacketInput packets;
    private final ForwardRequestParser parser;
    private final AjpRequestBody body;
    private final AjpOrigin origin = new AjpOrigin();
    private final AjpStream stream;
    private final Exchange exchange;
    private final ExchangeRequest request;
    private final ExchangeResponse response;


    private final HeadWait.Parser packetParser;
    private int payloadLength;
    private long packetsSeen;
    private AjpRequestHead head;

    AjpConnection(Endpoint endpoint, Handler handler, ExchangeObserver observer, boolean handlerMayBlock, ServerConfig config, AjpConfig ajp,
                  AjpAccess access, BufferPool pool) {
        super(endpoint, new ConnectionInput(endpoint, ajp.packetSize()), config.headerTimeout().toNanos());
        this.handler = handler;
        this.handlerMayBlock = handlerMayBlock;
        this.config = config;
        this.idleTimeoutNanos = ajp.idleTimeout().toNanos();
        this.access = access;
        this.packets = new AjpPacketInput(input, ajp.packetSize());
        this.packetParser = new HeadWait.Parser() { // made once, not per packet
            @Override
            public void reset() {
                // a packet is parsed whole, when complete: nothing is kept between attempts
            }

            @Override
            public ParseStatus parse() throws AjpFormatException {
                int length = packets.complete();
                if (length < 0) return ParseStatus.NEED_MORE;
                payloadLength = length;
                return ParseStatus.COMPLETE;
            }
        };
        this.parser = new ForwardRequestParser(config.limits());
        this.body = new AjpRequestBody(packets, endpoint, ajp.packetSize(), config.limits().maxBodySize(),
                new BodyWaitLimits(config));
        this.stream = new AjpStream(endpoint, lifecycle, ajp.packetSize(), body);
        this.exchange = new Exchange(stream, pool, "AJP", observer);
        this.request = exchange.request();
        this.response = exchange.response();
    }

    @Override
    public boolean serve() {
        boolean waiting = false;
        try {
            while (true) {
                switch (readHead(!endpoint.waitsWithoutThread())) {
                    case WAITING -> {
                        waiting = true;
                        return true;
                    }
                    case ENDED -> {
                        return false;
                    }
                    case TIMED_OUT -> {
                        LOG.log(System.Logger.Level.DEBUG, () -> "AJP packet from " + endpoint.remoteAddress() + " not complete in time");
                        return false;
                    }
                    case REJECTED -> {
                        return false; // never: a packet is complete or not yet, and bytes that are not AJP throw
                    }
                    case COMPLETE -> {
                        heads.taken();
                        if (!dispatch()) return false;
                    }
                }
            }
        } catch (AjpFormatException e) {
            LOG.log(System.Logger.Level.WARNING, "closed the AJP connection from " + endpoint.remoteAddress() + ": " + e.getMessage());
            return false;
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "AJP connection from " + endpoint.remoteAddress() + " ended: " + e);
            return false;
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.ERROR, "unexpected failure on the AJP connection from " + endpoint.remoteAddress(), e);
            return false;
        } finally {
            if (!waiting) lifecycle.end();
        }
    }

    /** Acts on the whole packet in the buffer; returns whether the connection goes on. */
    private boolean dispatch() throws IOException {
        packetsSeen++;
        int type = payloadLength == 0 ? -1 : packets.array()[packets.payloadOffset()] & 0xFF;
        switch (type) {
            case AjpPackets.CPING -> {
                packets.skip(AjpPackets.HEADER_SIZE + payloadLength);
                endpoint.write(CPONG, 0, CPONG.length);
                return true;
            }
            case AjpPackets.FORWARD_REQUEST -> {
                try {
                    return exchange();
                } finally {
                    response.release(); // an idle connection holds no work buffer
                }
            }
            case AjpPackets.SHUTDOWN -> {
                LOG.log(System.Logger.Level.WARNING, "refused an AJP shutdown request from " + endpoint.remoteAddress()
                        + ": Petrel stops only by its own process");
                return false;
            }
            default -> {
                int shown = type;
                LOG.log(System.Logger.Level.WARNING, "closed the AJP connection from " + endpoint.remoteAddress()
                        + ": unexpected packet type " + shown + " where a request was due");
                return false;
            }
        }
    }

    @Override
    public boolean mayBlock() {
        return handlerMayBlock;
    }

    /** Never: a front end pools its connections on purpose, and bounds them itself. */
    @Override
    public boolean shed(long waitingSinceBefore) {
        return false;
    }

    // ---- reading the next packet ----

    /**
     * Takes in bytes toward the next packet (see {@link HeadWait}): the first must begin within
     * the header timeout of accept; later ones within the idle timeout, or as long as the front
     * end keeps the connection when there is none (it pools its connections).
     */
    @Override
    protected HeadWait.Progress readHead(boolean mayWait) throws IOException {
        long idle = packetsSeen == 0 ? config.headerTimeout().toNanos() : idleTimeoutNanos > 0 ? idleTimeoutNanos : HeadWait.FOREVER;
        return heads.await(mayWait, idle, packetParser);
    }

    // ---- one exchange ----

    private boolean exchange() throws IOException {
        HttpError error = parser.parse(packets.array(), packets.payloadOffset(), payloadLength);
        packets.skip(AjpPackets.HEADER_SIZE + payloadLength);
        head = parser.head();
        if (error != null) {
            LOG.log(System.Logger.Level.DEBUG, () -> "refused AJP request from " + endpoint.remoteAddress() + ": "
                    + error.status() + " " + error.reason());
            return answerAndClose(error.status(), error.reason());
        }
        String refusal = access.refusal(head);
        if (refusal != null) {
            LOG.log(System.Logger.Level.WARNING, "refused an AJP request from " + endpoint.remoteAddress() + " with 403: "
                    + refusal);
            return answerAndClose(403, "Forbidden");
        }
        if (head.request().decodedPath() == null) return answerAndClose(400, "Invalid percent-encoding in the request target");
        if (head.contentLength() > 0) body.fixed(head.contentLength());
        else if (head.chunked()) body.unknownLength();
        else body.none();
        origin.begin(head);
        request.begin(head.request(), origin);
        response.begin(Methods.HEAD.equals(head.method()));
        try {
            if (!exchange.run(handler)) return false;
            boolean readElsewhere = body.readElsewhere(); // see Http1Connection: the rest of the input is that read's
            boolean reuse = !readElsewhere && body.settle() && !lifecycle.draining();
            stream.endResponse(reuse, response.work());
            if (readElsewhere) {
                lifecycle.abort();
                return false;
            }
            if (!reuse) {
                lifecycle.closeGracefully();
                return false;
            }
            return true;
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "response to " + endpoint.remoteAddress() + " failed: " + e);
            return false;
        }
    }

    /** Answers a request that cannot be served, then closes: its body (if any) is never read. */
    private boolean answerAndClose(int status, String reason) throws IOException {
        response.begin(false);
        exchange.answerWithError(status, reason);
        stream.endResponse(false, response.work());
        lifecycle.closeGracefully();
        return false;
    }
}
