package dev.petrel.bench.soak;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The HTTP/2 frames the faults send, built by hand so that they can be wrong on purpose (RFC 9113
 * section 4.1: a 9-byte header of a 24-bit length, a type, flags and a 31-bit stream id, then the
 * payload), and the names of frame types and error codes for the details.
 */
final class H2Frames {
    /** The client connection preface of prior knowledge (RFC 9113 section 3.4). */
    static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    static final int HEADER_BYTES = 9;

    static final int DATA = 0x0;
    static final int HEADERS = 0x1;
    static final int RST_STREAM = 0x3;
    static final int SETTINGS = 0x4;
    static final int GOAWAY = 0x7;
    static final int CONTINUATION = 0x9;

    static final int FLAG_END_STREAM = 0x1;
    static final int FLAG_END_HEADERS = 0x4;

    /** RST_STREAM's error code when the client no longer wants the stream. */
    static final int CANCEL = 0x8;
    /** SETTINGS_ENABLE_PUSH (RFC 9113 section 6.5.2). */
    static final int SETTINGS_ENABLE_PUSH = 0x2;

    private static final String[] TYPE_NAMES = {"DATA", "HEADERS", "PRIORITY", "RST_STREAM", "SETTINGS", "PUSH_PROMISE", "PING",
        "GOAWAY", "WINDOW_UPDATE", "CONTINUATION"};
    private static final String[] ERROR_NAMES = {"NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR",
        "SETTINGS_TIMEOUT", "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR", "CONNECT_ERROR",
        "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED"};

    private H2Frames() {}

    /** The preface and an empty SETTINGS, as an h2c client opens its connection. */
    static byte[] opening() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(PREFACE);
        write(out, SETTINGS, 0, 0, new byte[0]);
        return out.toByteArray();
    }

    /** Appends one frame to {@code out}. */
    static void write(ByteArrayOutputStream out, int type, int flags, int streamId, byte[] payload) {
        int length = payload.length;
        out.write(length >>> 16);
        out.write(length >>> 8);
        out.write(length);
        out.write(type);
        out.write(flags);
        out.write(streamId >>> 24 & 0x7F); // the reserved bit stays clear
        out.write(streamId >>> 16);
        out.write(streamId >>> 8);
        out.write(streamId);
        out.writeBytes(payload);
    }

    /** One frame on its own. */
    static byte[] frame(int type, int flags, int streamId, byte[] payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(HEADER_BYTES + payload.length);
        write(out, type, flags, streamId, payload);
        return out.toByteArray();
    }

    /** A SETTINGS frame of {@code idsAndValues} (id, value, id, value...): none makes the empty one. */
    static byte[] settings(int... idsAndValues) {
        byte[] payload = new byte[idsAndValues.length / 2 * 6];
        for (int i = 0, at = 0; i + 1 < idsAndValues.length; i += 2, at += 6) {
            int id = idsAndValues[i];
            int value = idsAndValues[i + 1];
            payload[at] = (byte) (id >>> 8);
            payload[at + 1] = (byte) id;
            payload[at + 2] = (byte) (value >>> 24);
            payload[at + 3] = (byte) (value >>> 16);
            payload[at + 4] = (byte) (value >>> 8);
            payload[at + 5] = (byte) value;
        }
        return frame(SETTINGS, 0, 0, payload);
    }

    /** Appends an RST_STREAM of {@code streamId} with {@code errorCode}. */
    static void writeRstStream(ByteArrayOutputStream out, int streamId, int errorCode) {
        byte[] payload = {(byte) (errorCode >>> 24), (byte) (errorCode >>> 16), (byte) (errorCode >>> 8), (byte) errorCode};
        write(out, RST_STREAM, 0, streamId, payload);
    }

    /** E.g. {@code SETTINGS}, or {@code type 0x42} for a type this file does not know. */
    static String typeName(int type) {
        return type < TYPE_NAMES.length ? TYPE_NAMES[type] : String.format("type 0x%x", type);
    }

    /** E.g. {@code ENHANCE_YOUR_CALM}, or {@code error 0x42}. */
    static String errorName(long code) {
        return code >= 0 && code < ERROR_NAMES.length ? ERROR_NAMES[(int) code] : String.format("error 0x%x", code);
    }
}
