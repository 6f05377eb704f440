package dev.petrel.server.ajp;

import dev.petrel.ajp.AjpFormatException;
import dev.petrel.ajp.AjpPackets;
import dev.petrel.server.engine.connection.ConnectionInput;
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

    /** Packets of at most {@code packetSize} bytes from {@code input}, a buffer of exactly that size. */
    AjpPacketInput(ConnectionInput input, int packetSize) {
        this.input = input;
        this.packetSize = packetSize;
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

    /** Reads more, waiting up to {@code timeoutMillis}; -1 at end of stream. */
    int fill(int timeoutMillis) throws IOException {
        return input.fill(timeoutMillis);
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
