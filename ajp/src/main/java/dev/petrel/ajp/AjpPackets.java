package dev.petrel.ajp;

import java.nio.ByteBuffer;

/**
 * The framing of AJP/1.3: every packet from the front end starts with {@code 0x12 0x34} and a
 * two-byte payload length; every packet to it with {@code 'A' 'B'} and the same length. The
 * first payload byte of a message is its type, except in the request body chunks the front end
 * sends, which carry only a length and data.
 */
public final class AjpPackets {
    /** Bytes before the payload: the magic and the length. */
    public static final int HEADER_SIZE = 4;
    /** The packet size mod_jk and mod_proxy_ajp use unless configured otherwise. */
    public static final int DEFAULT_PACKET_SIZE = 8192;
    /** The largest packet size either front end can be configured for. */
    public static final int MAX_PACKET_SIZE = 65536;

    // message types from the front end
    /** A request head: method, URI, headers, attributes. */
    public static final int FORWARD_REQUEST = 2;
    /** Asks the container to shut down; never honoured (see the engine). */
    public static final int SHUTDOWN = 7;
    /** An obsolete ping without a defined answer. */
    public static final int PING = 8;
    /** Asks whether the container is alive; answered with {@link #CPONG_REPLY}. */
    public static final int CPING = 10;

    // message types to the front end
    /** A piece of the response body. */
    public static final int SEND_BODY_CHUNK = 3;
    /** The response status and headers. */
    public static final int SEND_HEADERS = 4;
    /** The end of the response, and whether the connection may carry another request. */
    public static final int END_RESPONSE = 5;
    /** Asks for the next piece of the request body. */
    public static final int GET_BODY_CHUNK = 6;
    /** The answer to {@link #CPING}. */
    public static final int CPONG_REPLY = 9;

    private AjpPackets() {}

    /**
     * The payload length of the packet starting at {@code in}'s position, without consuming
     * anything, or -1 while fewer than {@link #HEADER_SIZE} bytes are there.
     *
     * @throws AjpFormatException when the magic is not the front end's, or the packet would be
     *         larger than {@code packetSize}
     */
    public static int payloadLength(ByteBuffer in, int packetSize) throws AjpFormatException {
        if (in.remaining() < HEADER_SIZE) return -1;
        int at = in.position();
        if ((in.get(at) & 0xFF) != 0x12 || (in.get(at + 1) & 0xFF) != 0x34) {
            throw new AjpFormatException("not an AJP/1.3 packet from a front end (no 0x1234 magic)");
        }
        int length = ((in.get(at + 2) & 0xFF) << 8) | (in.get(at + 3) & 0xFF);
        if (length > packetSize - HEADER_SIZE) {
            throw new AjpFormatException("AJP packet of " + (length + HEADER_SIZE) + " bytes exceeds the packet size "
                    + packetSize + " (set the same packet size on both sides)");
        }
        return length;
    }

    /**
     * The data length of a request body chunk whose payload is {@code payloadLength} bytes at
     * {@code offset}: 0 for the empty packet that ends a body of unknown length.
     *
     * @throws AjpFormatException when the declared data length exceeds the packet
     */
    public static int bodyChunkLength(byte[] payload, int offset, int payloadLength) throws AjpFormatException {
        if (payloadLength == 0) return 0;
        if (payloadLength < 2) throw new AjpFormatException("AJP body chunk too short for its length field");
        int length = ((payload[offset] & 0xFF) << 8) | (payload[offset + 1] & 0xFF);
        if (length > payloadLength - 2) {
            throw new AjpFormatException("AJP body chunk declares " + length + " bytes in a packet of " + (payloadLength - 2));
        }
        return length;
    }
}
