package dev.petrel.http2;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Writes HTTP/2 frames (RFC 9113 section 6) into buffers in write mode. Each method checks first
 * that the whole frame fits in the buffer's remaining space and throws
 * {@link BufferOverflowException} before writing anything when it does not, so a caller can
 * flush and try again. Arguments that would make an invalid frame throw
 * {@link IllegalArgumentException}. Nothing is padded: padding is for senders hiding sizes, and a
 * server gains nothing by it.
 */
public final class FrameWriter {
    private FrameWriter() {}

    /**
     * A frame header (section 4.1): the payload must follow.
     *
     * @throws IllegalArgumentException for a length outside 0..2^24-1, a type or flags outside
     *     0..255, or a negative stream id
     */
    public static void header(ByteBuffer out, int length, int type, int flags, int streamId) {
        checkHeader(length, type, flags, streamId);
        checkRoom(out, Frames.HEADER_LENGTH);
        putHeader(out, length, type, flags, streamId);
    }

    /**
     * SETTINGS carrying {@code values}' settings that differ from the initial ones of section
     * 6.5.2, plus any given explicitly with {@link Http2Settings#set}, in identifier order.
     */
    public static void settings(ByteBuffer out, Http2Settings values) {
        int count = 0;
        for (int id : Http2Settings.KNOWN) {
            if (values.announced(id)) count++;
        }
        checkRoom(out, Frames.HEADER_LENGTH + 6 * count);
        putHeader(out, 6 * count, Frames.SETTINGS, 0, 0);
        for (int id : Http2Settings.KNOWN) {
            if (!values.announced(id)) continue;
            out.put((byte) (id >>> 8)).put((byte) id);
            // an unlimited value announced explicitly goes out as the largest a setting can say
            putInt(out, (int) Math.min(values.value(id), Http2Settings.MAX_VALUE));
        }
    }

    /** An empty SETTINGS with ACK, acknowledging the peer's (section 6.5.3). */
    public static void settingsAck(ByteBuffer out) {
        checkRoom(out, Frames.HEADER_LENGTH);
        putHeader(out, 0, Frames.SETTINGS, Frames.FLAG_ACK, 0);
    }

    /** PING with 8 bytes of {@code data}; {@code ack} for the answer to one received (section 6.7). */
    public static void ping(ByteBuffer out, boolean ack, long data) {
        checkRoom(out, Frames.HEADER_LENGTH + 8);
        putHeader(out, 8, Frames.PING, ack ? Frames.FLAG_ACK : 0, 0);
        putInt(out, (int) (data >>> 32));
        putInt(out, (int) data);
    }

    /**
     * GOAWAY (section 6.8).
     *
     * @param debug opaque diagnostic bytes, or null for none
     */
    public static void goaway(ByteBuffer out, int lastStreamId, Http2ErrorCode code, byte[] debug) {
        Objects.requireNonNull(code, "code");
        checkStreamId(lastStreamId);
        int debugLength = debug == null ? 0 : debug.length;
        if (debugLength > Frames.MAX_MAX_FRAME_SIZE - 8) throw new IllegalArgumentException("GOAWAY debug data too long");
        checkRoom(out, Frames.HEADER_LENGTH + 8 + debugLength);
        putHeader(out, 8 + debugLength, Frames.GOAWAY, 0, 0);
        putInt(out, lastStreamId);
        putInt(out, code.code());
        if (debug != null) out.put(debug);
    }

    /**
     * WINDOW_UPDATE (section 6.9), on stream 0 for the connection's window.
     *
     * @throws IllegalArgumentException for an increment outside 1..2^31-1
     */
    public static void windowUpdate(ByteBuffer out, int streamId, int increment) {
        checkStreamId(streamId);
        if (increment <= 0) throw new IllegalArgumentException("window increment outside 1..2^31-1: " + increment);
        checkRoom(out, Frames.HEADER_LENGTH + 4);
        putHeader(out, 4, Frames.WINDOW_UPDATE, 0, streamId);
        putInt(out, increment);
    }

    /** RST_STREAM (section 6.4) on a stream other than 0. */
    public static void rstStream(ByteBuffer out, int streamId, Http2ErrorCode code) {
        Objects.requireNonNull(code, "code");
        checkStream(streamId);
        checkRoom(out, Frames.HEADER_LENGTH + 4);
        putHeader(out, 4, Frames.RST_STREAM, 0, streamId);
        putInt(out, code.code());
    }

    /**
     * A field block as one HEADERS frame followed by as many CONTINUATION frames as
     * {@code maxFrameSize} (the peer's SETTINGS_MAX_FRAME_SIZE) requires (section 4.3): only the
     * last frame carries END_HEADERS, only the HEADERS frame END_STREAM. Writes
     * {@link #headersSize} bytes.
     *
     * @throws IllegalArgumentException for stream 0 or a {@code maxFrameSize} below 1
     */
    public static void headers(ByteBuffer out, int streamId, byte[] block, int offset, int length, boolean endStream, int maxFrameSize) {
        Objects.checkFromIndexSize(offset, length, block.length);
        checkStream(streamId);
        checkRoom(out, headersSize(length, maxFrameSize));
        int first = Math.min(length, maxFrameSize);
        int flags = (endStream ? Frames.FLAG_END_STREAM : 0) | (first == length ? Frames.FLAG_END_HEADERS : 0);
        putHeader(out, first, Frames.HEADERS, flags, streamId);
        out.put(block, offset, first);
        for (int done = first; done < length; ) {
            int n = Math.min(length - done, maxFrameSize);
            putHeader(out, n, Frames.CONTINUATION, done + n == length ? Frames.FLAG_END_HEADERS : 0, streamId);
            out.put(block, offset + done, n);
            done += n;
        }
    }

    /**
     * How many bytes {@link #headers} writes for a field block of {@code blockLength} bytes: one
     * frame header per {@code maxFrameSize} bytes of block (at least one), plus the block.
     */
    public static int headersSize(int blockLength, int maxFrameSize) {
        if (maxFrameSize < 1) throw new IllegalArgumentException("max frame size below 1: " + maxFrameSize);
        if (blockLength < 0) throw new IllegalArgumentException("negative block length");
        int frames = Math.max(1, (int) (((long) blockLength + maxFrameSize - 1) / maxFrameSize));
        return Math.addExact(Math.multiplyExact(frames, Frames.HEADER_LENGTH), blockLength);
    }

    /**
     * One DATA frame (section 6.1) holding {@code len} bytes of {@code b} from {@code off}. Keeping
     * {@code len} within the peer's SETTINGS_MAX_FRAME_SIZE and flow-control windows is the
     * caller's job.
     *
     * @throws IllegalArgumentException for stream 0 or {@code len} above 2^24-1
     */
    public static void data(ByteBuffer out, int streamId, byte[] b, int off, int len, boolean endStream) {
        Objects.checkFromIndexSize(off, len, b.length);
        checkStream(streamId);
        if (len > Frames.MAX_MAX_FRAME_SIZE) throw new IllegalArgumentException("DATA longer than 2^24-1: " + len);
        checkRoom(out, Frames.HEADER_LENGTH + len);
        putHeader(out, len, Frames.DATA, endStream ? Frames.FLAG_END_STREAM : 0, streamId);
        out.put(b, off, len);
    }

    private static void checkHeader(int length, int type, int flags, int streamId) {
        if (length < 0 || length > Frames.MAX_MAX_FRAME_SIZE) throw new IllegalArgumentException("frame length outside 0..2^24-1: " + length);
        if ((type & ~0xFF) != 0) throw new IllegalArgumentException("frame type outside 0..255: " + type);
        if ((flags & ~0xFF) != 0) throw new IllegalArgumentException("frame flags outside 0..255: " + flags);
        checkStreamId(streamId);
    }

    private static void putHeader(ByteBuffer out, int length, int type, int flags, int streamId) {
        out.put((byte) (length >>> 16)).put((byte) (length >>> 8)).put((byte) length);
        out.put((byte) type).put((byte) flags);
        putInt(out, streamId);
    }

    /** Big-endian whatever the buffer's byte order: the wire order of section 1. */
    private static void putInt(ByteBuffer out, int v) {
        out.put((byte) (v >>> 24)).put((byte) (v >>> 16)).put((byte) (v >>> 8)).put((byte) v);
    }

    private static void checkRoom(ByteBuffer out, int bytes) {
        if (out.remaining() < bytes) throw new BufferOverflowException();
    }

    private static void checkStreamId(int streamId) {
        if (streamId < 0) throw new IllegalArgumentException("negative stream id: " + streamId);
    }

    private static void checkStream(int streamId) {
        if (streamId <= 0) throw new IllegalArgumentException("frame needs a stream other than 0: " + streamId);
    }
}
