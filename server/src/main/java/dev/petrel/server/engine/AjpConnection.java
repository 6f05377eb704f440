package dev.petrel.server.engine;

import dev.petrel.ajp.AjpFormatException;
import dev.petrel.ajp.AjpPackets;
import dev.petrel.ajp.AjpRequestHead;
import dev.petrel.ajp.AjpResponseEncoder;
import dev.petrel.ajp.ForwardRequestParser;
import dev.petrel.http.HttpError;
import dev.petrel.http.HttpStatus;
import dev.petrel.http.Methods;
import dev.petrel.http.PercentDecoder;
import dev.petrel.server.Handler;
import dev.petrel.server.ServerConfig;
import dev.petrel.server.ajp.AjpConfig;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;

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
public final class AjpConnection implements ProtocolConnection, HandlerInvocation.Exchange {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.ajp");
    private static final byte[] CPONG = AjpResponseEncoder.cpong();
    private static final int LINGER_MILLIS = 1000;
    private static final int LINGER_BYTES = 256 * 1024;
    /** How often an idle connection without an idle timeout is looked at again. */
    private static final long IDLE_RECHECK_NANOS = TimeUnit.MINUTES.toNanos(10);

    private final Endpoint endpoint;
    private final Handler handler;
    private final boolean handlerMayBlock;
    private final ServerConfig config;
    private final long idleTimeoutNanos; // 0: wait as long as the front end keeps the connection
    private final AjpAccess access;
    private final AjpPacketInput packets;
    private final ForwardRequestParser parser;
    private final AjpRequestBody body;
    private final AjpRequest request;
    private final AjpResponse response;

    private final ConnectionLifecycle lifecycle;
    private boolean closeHandedOver;

    // waiting for the next packet; kept across returns from serve() while an event loop waits
    private boolean awaitingPacket;
    private long idleDeadline;
    private long packetDeadline; // 0 before the packet's first byte
    private int payloadLength;
    private long packetsSeen;
    private AjpRequestHead head;

    AjpConnection(Endpoint endpoint, Handler handler, boolean handlerMayBlock, ServerConfig config, AjpConfig ajp,
                  AjpAccess access, BufferPool pool) {
        this.endpoint = endpoint;
        this.lifecycle = new ConnectionLifecycle(endpoint);
        this.handler = handler;
        this.handlerMayBlock = handlerMayBlock;
        this.config = config;
        this.idleTimeoutNanos = ajp.idleTimeout().toNanos();
        this.access = access;
        this.packets = new AjpPacketInput(endpoint, ajp.packetSize());
        this.parser = new ForwardRequestParser(config.limits());
        this.body = new AjpRequestBody(packets, endpoint, ajp.packetSize(), config.limits().maxBodySize(),
                new BodyWaitLimits(config));
        this.request = new AjpRequest(body);
        this.response = new AjpResponse(endpoint, pool, ajp.packetSize(), body);
    }

    @Override
    public boolean serve() {
        boolean waiting = false;
        try {
            while (true) {
                switch (readPacket(!endpoint.waitsWithoutThread())) {
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
                    case COMPLETE -> {
                        awaitingPacket = false;
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
            if (!waiting && !closeHandedOver) endpoint.close();
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
    public boolean poll() {
        try {
            return readPacket(false) != PacketProgress.WAITING;
        } catch (IOException | RuntimeException e) {
            return true; // serve() meets the failure again and ends the connection
        }
    }

    @Override
    public boolean mayBlock() {
        return handlerMayBlock;
    }

    @Override
    public long wakeDeadline() {
        return packetDeadline != 0 ? packetDeadline : idleDeadline;
    }

    @Override
    public void drain() {
        lifecycle.drain();
    }

    @Override
    public void abort() {
        lifecycle.abort();
    }

    // ---- reading the next packet ----

    private enum PacketProgress { COMPLETE, WAITING, TIMED_OUT, ENDED }

    private PacketProgress readPacket(boolean mayWait) throws IOException {
        if (!awaitingPacket) {
            long now = System.nanoTime();
            if (!lifecycle.enterIdle(now)) return PacketProgress.ENDED;
            awaitingPacket = true;
            packetDeadline = 0;
            idleDeadline = now + idleWait();
        }
        while (true) {
            if (packets.hasBytes()) {
                if (packetDeadline == 0) {
                    if (!lifecycle.headBegun()) return PacketProgress.ENDED; // a packet begun is let finish
                    packetDeadline = System.nanoTime() + config.headerTimeout().toNanos();
                }
                int length = packets.complete();
                if (length >= 0) {
                    payloadLength = length;
                    return PacketProgress.COMPLETE;
                }
            }
            long now = System.nanoTime();
            if (wakeDeadline() - now <= 0) {
                if (packetDeadline != 0) return PacketProgress.TIMED_OUT;
                if (packetsSeen > 0 && idleTimeoutNanos == 0) {
                    idleDeadline = now + IDLE_RECHECK_NANOS; // no idle timeout: keep waiting for the front end
                } else {
                    return PacketProgress.ENDED;
                }
            }
            int n;
            if (mayWait) {
                try {
                    n = packets.fill(millis(wakeDeadline() - System.nanoTime()));
                } catch (SocketTimeoutException e) {
                    continue; // the deadline is looked at again above
                }
            } else {
                n = packets.fillAvailable();
                if (n == 0) return PacketProgress.WAITING;
            }
            if (n < 0) return PacketProgress.ENDED;
        }
    }

    /** The first packet must begin within the header timeout of accept; later ones within the idle timeout, if any. */
    private long idleWait() {
        if (packetsSeen == 0) return config.headerTimeout().toNanos();
        return idleTimeoutNanos > 0 ? idleTimeoutNanos : IDLE_RECHECK_NANOS;
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
        String path = head.uri().equals("*") ? "*" : PercentDecoder.decode(head.uri());
        if (path == null) return answerAndClose(400, "Invalid percent-encoding in the request target");
        if (head.contentLength() > 0) body.fixed(head.contentLength());
        else if (head.chunked()) body.unknownLength();
        else body.none();
        request.begin(head, path);
        response.begin(Methods.HEAD.equals(head.method()));
        try {
            if (!HandlerInvocation.run(handler, request, response, this)) return false;
            response.finish();
            boolean reuse = body.settle() && !lifecycle.draining();
            response.end(reuse);
            if (!reuse) {
                closeGracefully();
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
        response.status(status).header("Content-Type", "text/plain;charset=UTF-8");
        response.send(HttpStatus.reason(status) + (reason.equals(HttpStatus.reason(status)) ? "" : ": " + reason) + "\n");
        response.end(false);
        closeGracefully();
        return false;
    }

    // ---- the handler's exchange, as HandlerInvocation sees it ----

    @Override
    public void finish() throws IOException {
        response.finish();
    }

    /** Whether bytes of the response have left: until then an error can still replace it. */
    @Override
    public boolean committed() {
        return response.started();
    }

    @Override
    public Exception bodyFailure() {
        return body.failure();
    }

    @Override
    public boolean answerWithError(int status, String message) throws IOException {
        if (response.started()) {
            abort(); // the front end sees a cut response rather than a wrong one
            return false;
        }
        response.discard();
        response.status(status).header("Content-Type", "text/plain;charset=UTF-8");
        String reason = HttpStatus.reason(status);
        response.send(message == null || message.equals(reason) ? reason + "\n" : reason + ": " + message + "\n");
        return true;
    }

    @Override
    public String describe() {
        return head.method() + " " + head.target() + " over AJP from " + endpoint.remoteAddress();
    }

    /** Lets the last packets reach the front end before closing (see {@link Endpoint#closeGracefully}). */
    private void closeGracefully() {
        closeHandedOver = true;
        endpoint.closeGracefully(LINGER_MILLIS, LINGER_BYTES);
    }

    private static int millis(long nanos) {
        if (nanos <= 0) return 1;
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(nanos)));
    }
}
