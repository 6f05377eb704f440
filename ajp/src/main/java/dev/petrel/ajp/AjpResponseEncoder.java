package dev.petrel.ajp;

import dev.petrel.http.ByteSink;
import java.nio.charset.StandardCharsets;

/**
 * Encodes the container's messages to the front end: the response head, body chunks, the end of
 * the response, requests for more body, and the answer to a CPing. Every packet starts with
 * {@code 'A' 'B'} and its payload length; strings carry a two-byte length and a trailing NUL.
 */
public final class AjpResponseEncoder {
    /** Bytes before a body chunk's data: magic, length, type, data length. */
    public static final int BODY_CHUNK_HEADER = 7;
    /** Bytes a body chunk adds around its data: the header and the trailing NUL. */
    public static final int BODY_CHUNK_OVERHEAD = BODY_CHUNK_HEADER + 1;

    private static final byte[] END_REUSE = {'A', 'B', 0, 2, AjpPackets.END_RESPONSE, 1};
    private static final byte[] END_CLOSE = {'A', 'B', 0, 2, AjpPackets.END_RESPONSE, 0};
    private static final byte[] CPONG = {'A', 'B', 0, 1, AjpPackets.CPONG_REPLY};
    private static final byte[] FLUSH = {'A', 'B', 0, 4, AjpPackets.SEND_BODY_CHUNK, 0, 0, 0};

    private AjpResponseEncoder() {}

    /** The most body bytes one chunk can carry in packets of {@code packetSize}. */
    public static int maxChunkData(int packetSize) {
        return packetSize - BODY_CHUNK_OVERHEAD;
    }

    /** The most body bytes to ask for at once: what fits in one packet from the front end. */
    public static int maxBodyRequest(int packetSize) {
        return packetSize - AjpPackets.HEADER_SIZE - 2;
    }

    /**
     * Starts a send-headers packet in {@code sink}: status, reason and the number of headers that
     * {@link #header} will add. Returns where the packet starts, for {@link #endPacket}.
     */
    public static int beginHeaders(int status, String reason, int headerCount, ByteSink sink) {
        int start = sink.length();
        sink.write('A').write('B').write(0).write(0);
        sink.write(AjpPackets.SEND_HEADERS);
        int16(status, sink);
        string(reason, sink);
        int16(headerCount, sink);
        return start;
    }

    /** Adds a response header: common names as their two-byte code, others as a string. */
    public static void header(String name, String value, ByteSink sink) {
        int code = AjpCodes.responseHeader(name);
        if (code != 0) int16(code, sink);
        else string(name, sink);
        string(value, sink);
    }

    /**
     * Writes the payload length of the packet begun at {@code start}.
     *
     * @throws IllegalStateException when the packet is larger than {@code packetSize}: the front
     *         end would refuse it
     */
    public static void endPacket(int start, int packetSize, ByteSink sink) {
        int payload = sink.length() - start - AjpPackets.HEADER_SIZE;
        if (payload > packetSize - AjpPackets.HEADER_SIZE) {
            throw new IllegalStateException("response head of " + (payload + AjpPackets.HEADER_SIZE)
                    + " bytes exceeds the AJP packet size " + packetSize);
        }
        byte[] bytes = sink.array();
        bytes[start + 2] = (byte) (payload >>> 8);
        bytes[start + 3] = (byte) payload;
    }

    /**
     * Writes the {@link #BODY_CHUNK_HEADER} bytes of a body chunk of {@code length} data bytes at
     * {@code offset}; the data follows, then one NUL byte.
     */
    public static void bodyChunkHeader(int length, byte[] dst, int offset) {
        int payload = length + 4; // type, data length, data, NUL
        dst[offset] = 'A';
        dst[offset + 1] = 'B';
        dst[offset + 2] = (byte) (payload >>> 8);
        dst[offset + 3] = (byte) payload;
        dst[offset + 4] = AjpPackets.SEND_BODY_CHUNK;
        dst[offset + 5] = (byte) (length >>> 8);
        dst[offset + 6] = (byte) length;
    }

    /** An empty body chunk: asks the front end to flush what it has sent to the client. */
    public static byte[] flush() {
        return FLUSH.clone();
    }

    /** The end-response packet; {@code reuse} says the connection may carry the next request. */
    public static byte[] endResponse(boolean reuse) {
        return (reuse ? END_REUSE : END_CLOSE).clone();
    }

    /** Bytes of an end-response packet. */
    public static final int END_RESPONSE_SIZE = 6;

    /** Writes the end-response packet at {@code offset} of {@code dst}, without allocating; returns its size. */
    public static int endResponse(boolean reuse, byte[] dst, int offset) {
        System.arraycopy(reuse ? END_REUSE : END_CLOSE, 0, dst, offset, END_RESPONSE_SIZE);
        return END_RESPONSE_SIZE;
    }

    /** The CPong answering a CPing. */
    public static byte[] cpong() {
        return CPONG.clone();
    }

    /** A get-body-chunk packet asking for up to {@code length} more body bytes. */
    public static byte[] getBodyChunk(int length) {
        return new byte[] {'A', 'B', 0, 3, AjpPackets.GET_BODY_CHUNK, (byte) (length >>> 8), (byte) length};
    }

    private static void int16(int value, ByteSink sink) {
        sink.write((value >>> 8) & 0xFF).write(value & 0xFF);
    }

    /** A string as ISO-8859-1 (header values may carry obs-text), with its length and NUL. */
    private static void string(String s, ByteSink sink) {
        byte[] bytes = s.getBytes(StandardCharsets.ISO_8859_1);
        int16(bytes.length, sink);
        sink.write(bytes);
        sink.write(0);
    }
}
