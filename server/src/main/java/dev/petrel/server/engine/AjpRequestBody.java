package dev.petrel.server.engine;

import dev.petrel.ajp.AjpFormatException;
import dev.petrel.ajp.AjpPackets;
import dev.petrel.ajp.AjpResponseEncoder;
import dev.petrel.server.HttpStatusException;
import dev.petrel.server.IncompleteBodyException;
import java.io.IOException;
import java.io.InputStream;

/**
 * The body of the current AJP request. The front end sends the first chunk of a body of declared
 * length on its own, right after the request; every later chunk, and the first of a body of
 * unknown length, only when asked with a get-body-chunk. A body of unknown length ends with an
 * empty chunk; one of declared length when that many bytes came. One per connection, re-armed for
 * every request.
 *
 * <p>A front end that closes the connection, or sends the empty chunk, before the declared length
 * has come cuts the body short: reads then throw {@link IncompleteBodyException} (400), never
 * report a normal end; so does a front end too slow to send (408, see {@link BodyWaitLimits}).
 */
final class AjpRequestBody extends InputStream implements BodyFailure {
    private enum Mode { NONE, LENGTH, UNKNOWN }

    private final AjpPacketInput packets;
    private final Endpoint endpoint;
    private final byte[] askForMore;
    private final long maxBodySize;
    private final BodyWaitLimits waits;
    private final byte[] single = new byte[1];
    private Mode mode = Mode.NONE;
    private long remaining;        // declared bytes not yet received (LENGTH)
    private long received;
    private boolean firstPending;  // the unsolicited first chunk has not been read yet
    private int chunkLeft;         // data bytes of the current chunk still in the buffer
    private int packetEnd;         // where the current chunk's packet ends in the buffer
    private boolean finished = true;
    private Exception failure; // once reading failed: what it threw

    AjpRequestBody(AjpPacketInput packets, Endpoint endpoint, int packetSize, long maxBodySize, BodyWaitLimits waits) {
        this.packets = packets;
        this.endpoint = endpoint;
        this.askForMore = AjpResponseEncoder.getBodyChunk(AjpResponseEncoder.maxBodyRequest(packetSize));
        this.maxBodySize = maxBodySize;
        this.waits = waits;
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
        this.received = 0;
        this.firstPending = false;
        this.chunkLeft = 0;
        this.finished = mode == Mode.NONE;
        this.failure = null;
        waits.reset();
    }

    @Override
    public Exception failure() {
        return failure;
    }

    /**
     * Before the end of the response: reads the first chunk if the front end sent it unasked and
     * nobody read it, and drops what is left of a chunk, so the next packet on the connection is
     * the next request. Later chunks were never asked for; the front end discards them at the end
     * of the response. Returns false when the connection cannot carry another request.
     */
    boolean settle() {
        if (failure != null) return false;
        try {
            if (firstPending) nextChunk();
            if (chunkLeft > 0) {
                packets.skipTo(packetEnd);
                chunkLeft = 0;
            }
            return true;
        } catch (IOException | HttpStatusException e) {
            return false; // nextChunk() noted the failure
        }
    }

    @Override
    public int read() throws IOException {
        int n = read(single, 0, 1);
        return n < 0 ? -1 : single[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) return 0;
        if (failure instanceof IOException e) throw e; // every read after a failure fails alike
        if (failure != null) throw (RuntimeException) failure;
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
        return failure != null ? 0 : chunkLeft;
    }

    /** Reads the next chunk into the buffer, asking for it unless it is the unsolicited first. */
    private void nextChunk() throws IOException {
        try {
            if (firstPending) {
                firstPending = false;
            } else {
                endpoint.write(askForMore, 0, askForMore.length);
            }
            int payload = packets.readBodyChunk(waits);
            int start = packets.payloadOffset();
            int length = AjpPackets.bodyChunkLength(packets.array(), start, payload);
            packetEnd = start + payload;
            packets.skip(AjpPackets.HEADER_SIZE + (payload == 0 ? 0 : 2));
            chunkLeft = length;
            received += length;
            if (length == 0) {
                packets.skipTo(packetEnd);
                if (mode == Mode.LENGTH && remaining > 0) {
                    throw IncompleteBodyException.cutShort("the front end ended the body before its declared length");
                }
                finished = true;
                return;
            }
            if (mode == Mode.LENGTH) {
                if (length > remaining) throw new AjpFormatException("more body than the declared Content-Length");
                remaining -= length;
                if (remaining == 0) finished = true;
            } else if (received > maxBodySize) {
                throw new HttpStatusException(413, "Request body larger than the limit");
            }
        } catch (IncompleteBodyException | AjpFormatException | HttpStatusException e) {
            failure = e; // an AjpFormatException: the front end broke the framing, answered 400
            chunkLeft = 0;
            throw e;
        } catch (IOException e) { // the connection broke
            IncompleteBodyException cut = IncompleteBodyException.cutShort("the connection failed while a body chunk was due");
            cut.initCause(e);
            failure = cut;
            chunkLeft = 0;
            throw cut;
        }
    }

    @Override
    public void close() {
        // The connection owns the stream; what is left unread is settled before the end of the response.
    }
}
