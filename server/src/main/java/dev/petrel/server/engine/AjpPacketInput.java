package dev.petrel.server.engine;

import dev.petrel.ajp.AjpFormatException;
import dev.petrel.ajp.AjpPackets;
import dev.petrel.server.IncompleteBodyException;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Whole AJP packets from one connection: a read buffer of exactly one packet size, since the
 * front end sends one packet and then waits for the answer (a body chunk only when asked, the
 * next request only after the end of the response), so a packet always fits and never shares the
 * buffer with more than the start of the next.
 */
final class AjpPacketInput {
    private final ConnectionInput input;
    private final int packetSize;
    private final BodyWaitLimits.Fill fill; // made once, not per packet

    AjpPacketInput(Endpoint endpoint, int packetSize) {
        this.input = new ConnectionInput(endpoint, packetSize);
        this.packetSize = packetSize;
        this.fill = input::fill;
    }

    /** Whether any byte of a packet is buffered. */
    boolean hasBytes() {
        return input.hasRemaining();
    }

    /**
     * The payload length of the whole packet at the buffer's position, or -1 while it is not all
     * there yet.
     *
     * @throws AjpFormatException when the bytes are not a front end's AJP packet
     */
    int complete() throws AjpFormatException {
        ByteBuffer buffer = input.buffer();
        int length = AjpPackets.payloadLength(buffer, packetSize);
        return length >= 0 && buffer.remaining() >= AjpPackets.HEADER_SIZE + length ? length : -1;
    }

    /**
     * Waits until a whole body chunk packet is buffered, as long as the body's wait limits allow.
     *
     * @return its payload length
     * @throws IncompleteBodyException when the front end closed first, or a limit ran out
     */
    int readBodyChunk(BodyWaitLimits waits) throws IOException {
        int length;
        while ((length = complete()) < 0) {
            if (waits.fill(fill) < 0) {
                throw IncompleteBodyException.cutShort("the front end closed the connection while a body chunk was due");
            }
        }
        return length;
    }

    /** Reads more, waiting up to {@code timeoutMillis}; -1 at end of stream. */
    int fill(int timeoutMillis) throws IOException {
        return input.fill(timeoutMillis);
    }

    /** Reads what has arrived without waiting; 0 when nothing, -1 at end of stream. */
    int fillAvailable() throws IOException {
        return input.fillAvailable();
    }

    /** The buffer holding the packet. */
    byte[] array() {
        return input.buffer().array();
    }

    /** Where the current packet's payload starts in {@link #array()}. */
    int payloadOffset() {
        return input.buffer().position() + AjpPackets.HEADER_SIZE;
    }

    /** Consumes {@code bytes} of the buffer (a header, or data read). */
    void skip(int bytes) {
        ByteBuffer buffer = input.buffer();
        buffer.position(buffer.position() + bytes);
    }

    /** Moves to {@code position} in {@link #array()}: the end of a packet partly read. */
    void skipTo(int position) {
        input.buffer().position(position);
    }

    /** The current position in {@link #array()}. */
    int position() {
        return input.buffer().position();
    }
}
