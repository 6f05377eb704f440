package dev.petrel.server.ajp;

import dev.petrel.ajp.AjpFormatException;
import dev.petrel.ajp.AjpPackets;
import dev.petrel.ajp.AjpResponseEncoder;
import dev.petrel.server.HttpStatusException;
import dev.petrel.server.IncompleteBodyException;
import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.exchange.BodySource;
import dev.petrel.server.engine.exchange.BodyWaitLimits;
import java.io.IOException;

/**
 * The body of the current AJP request. The front end sends the first chunk of a body of declared
 * length on its own, right after the request; every later chunk, and the first of a body of
 * unknown length, only when asked with a get-body-chunk. A body of unknown length ends with an
 * empty chunk; one of declared length when that many bytes came. A front end that sends the empty
 * chunk before the declared length has come cuts the body short. The failure rules are
 * {@link BodySource}'s. One per connection, re-armed for every request.
 */
final class AjpRequestBody extends BodySource {
    private enum Mode { NONE, LENGTH, UNKNOWN }

    private final AjpPacketInput packets;
    private final Endpoint endpoint;
    private final byte[] askForMore;
    private final BodyWaitLimits.Fill fill; // made once, not per chunk
    private Mode mode = Mode.NONE;
    private long remaining;        // declared bytes not yet received (LENGTH)
    private boolean firstPending;  // the unsolicited first chunk has not been read yet
    private int chunkLeft;         // data bytes of the current chunk still in the buffer
    private int packetEnd;         // where the current chunk's packet ends in the buffer
    private boolean finished = true;

    AjpRequestBody(AjpPacketInput packets, Endpoint endpoint, int packetSize, long maxBodySize, BodyWaitLimits waits) {
        super(waits, maxBodySize);
        this.packets = packets;
        this.endpoint = endpoint;
        this.askForMore = AjpResponseEncoder.getBodyChunk(AjpResponseEncoder.maxBodyRequest(packetSize));
        this.fill = packets::fill;
    }

    void none() {
        arm(Mode.NONE, 0);
    }

    void fixed(long length) {
        arm(Mode.LENGTH, length);
        firstPending = true;
    }

    void unknownLength() {
        arm(Mode.UNKNOWN, -1);
    }

    private void arm(Mode mode, long length) {
        this.mode = mode;
        this.remaining = length;
        this.firstPending = false;
        this.chunkLeft = 0;
        this.finished = mode == Mode.NONE;
        rearm();
    }

    /**
     * Before the end of the response: reads the first chunk if the front end sent it unasked and
     * nobody read it, and drops what is left of a chunk, so the next packet on the connection is
     * the next request. Later chunks were never asked for; the front end discards them at the end
     * of the response. Returns false when the connection cannot carry another request.
     */
    boolean settle() {
        if (failed()) return false;
        try {
            if (firstPending) nextChunk();
            if (chunkLeft > 0) {
                packets.skipTo(packetEnd);
                chunkLeft = 0;
            }
            return true;
        } catch (IOException | HttpStatusException e) {
            return false; // noted as the body's failure
        }
    }

    @Override
    protected int readBody(byte[] b, int off, int len) throws IOException {
        while (chunkLeft == 0) {
            if (finished) return -1;
            nextChunk();
        }
        int n = Math.min(len, chunkLeft);
        System.arraycopy(packets.array(), packets.position(), b, off, n);
        packets.skip(n);
        chunkLeft -= n;
        if (chunkLeft == 0) packets.skipTo(packetEnd);
        return n;
    }

    @Override
    public int available() {
        return failed() ? 0 : chunkLeft;
    }

    /** Reads the next chunk into the buffer, asking for it unless it is the unsolicited first. */
    private void nextChunk() throws IOException {
        chunkLeft = 0;
        if (firstPending) {
            firstPending = false;
        } else {
            endpoint.write(askForMore, 0, askForMore.length);
        }
        int payload;
        int length;
        try {
            while ((payload = packets.complete()) < 0) fill(fill, "a body chunk");
            length = AjpPackets.bodyChunkLength(packets.array(), packets.payloadOffset(), payload);
        } catch (AjpFormatException e) {
            throw fail(new HttpStatusException(400, "The front end broke the AJP body framing: " + e.getMessage()));
        }
        int start = packets.payloadOffset();
        packetEnd = start + payload;
        packets.skip(AjpPackets.HEADER_SIZE + (payload == 0 ? 0 : 2));
        if (length == 0) {
            packets.skipTo(packetEnd);
            if (mode == Mode.LENGTH && remaining > 0) {
                throw fail(IncompleteBodyException.cutShort("the front end ended the body before its declared length"));
            }
            finished = true;
            return;
        }
        if (mode == Mode.LENGTH) {
            if (length > remaining) throw fail(new HttpStatusException(400, "Request body longer than its declared length"));
            remaining -= length;
            if (remaining == 0) finished = true;
        } // a body of unknown length is held to maxBodySize as every protocol's is, by BodySource
        chunkLeft = length;
    }
}
