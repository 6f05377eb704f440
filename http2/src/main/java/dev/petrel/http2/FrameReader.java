package dev.petrel.http2;

import dev.petrel.http.ParseStatus;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * A push reader of HTTP/2 frames (RFC 9113 section 4), one frame per {@link ParseStatus#COMPLETE}:
 * feed it the bytes someone else read, in pieces of any size, and it answers
 * <ul>
 *   <li>{@link ParseStatus#NEED_MORE}: every byte given was consumed and more are needed;</li>
 *   <li>{@link ParseStatus#COMPLETE}: one frame is available through the accessors, and the
 *       buffer is positioned right after it; the next call starts reading the next frame;</li>
 *   <li>{@link ParseStatus#ERROR}: {@link #error()} says which. After a <em>stream</em> error the
 *       offending frame has been consumed whole, its header accessors ({@link #type()},
 *       {@link #streamId()}, ...) describe it, and the next call reads the next frame. After a
 *       <em>connection</em> error the reader stays failed: it answers ERROR and consumes nothing.</li>
 * </ul>
 *
 * <p>It copies what it keeps (the 9-byte header, the payload) into its own storage as it
 * consumes it, so callers may compact or reuse their buffer between calls. The payload store
 * grows with the bytes that actually arrive, not with the length a header claims, and is kept
 * for the next frame. It does no I/O, holds no threads, reads no clock and never throws from
 * {@link #read}.
 *
 * <p>It checks what can be checked from one frame and the header-block state (sections 4.2,
 * 4.3, 5.3.1, 6.1 to 6.10): sizes, which frames may use stream 0, padding, self-dependency,
 * zero window increments, and that nothing comes between a HEADERS or PUSH_PROMISE frame without
 * END_HEADERS and the CONTINUATION frames that finish its field block. Stream states, flow
 * control and settings are the connection's business. Frames of unknown types are reported
 * COMPLETE, for the caller to ignore (section 4.1), unless they break into a field block.
 *
 * <p>A HEADERS frame that carries a stream error (a stream depending on itself) still holds a
 * field block fragment the caller must decode, so that the HPACK context stays the same on both
 * sides (section 4.3): after that error {@link #payload()} and its offset and length are valid.
 */
public final class FrameReader {
    private enum State { HEADER, PAYLOAD, SKIP, FAILED }

    /** The weight of a stream given no priority, for {@link #weight()} (RFC 7540 section 5.3.5). */
    private static final int DEFAULT_WEIGHT = 16;

    private final byte[] header = new byte[Frames.HEADER_LENGTH];
    private byte[] payload = new byte[64];
    private int maxFrameSize;

    private State state = State.HEADER;
    private int headerFill;
    private int payloadFill;
    private int skipRemaining;
    /** The stream whose field block is open (after HEADERS or PUSH_PROMISE without END_HEADERS), else 0. */
    private int blockStream;
    private Http2Error error;
    /** A stream error found in the header of a frame being skipped, reported once it is consumed. */
    private Http2Error pending;

    // The current frame.
    private int length;
    private int type;
    private int flags;
    private int streamId;
    private int fragmentOffset;
    private int fragmentLength;
    private boolean exclusive;
    private int dependency;
    private int weight = DEFAULT_WEIGHT;

    /**
     * A reader accepting frames up to {@code maxFrameSize} payload bytes: our
     * SETTINGS_MAX_FRAME_SIZE.
     *
     * @throws IllegalArgumentException outside [16384, 2^24-1]
     */
    public FrameReader(int maxFrameSize) {
        maxFrameSize(maxFrameSize);
    }

    /**
     * Changes the largest payload accepted, once our SETTINGS announcing it are acknowledged.
     *
     * @throws IllegalArgumentException outside [16384, 2^24-1]
     */
    public void maxFrameSize(int value) {
        if (value < Frames.DEFAULT_MAX_FRAME_SIZE || value > Frames.MAX_MAX_FRAME_SIZE) {
            throw new IllegalArgumentException("max frame size outside 16384..16777215: " + value);
        }
        this.maxFrameSize = value;
    }

    /**
     * Consumes bytes from {@code in}, from its position to its limit, toward the next frame, and
     * stops right after it; see the class comment for the result.
     */
    public ParseStatus read(ByteBuffer in) {
        if (state == State.FAILED) return ParseStatus.ERROR;
        if (state == State.HEADER && headerFill == 0) startFrame();
        while (true) {
            switch (state) {
                case HEADER -> {
                    int n = Math.min(Frames.HEADER_LENGTH - headerFill, in.remaining());
                    in.get(header, headerFill, n);
                    headerFill += n;
                    if (headerFill < Frames.HEADER_LENGTH) return ParseStatus.NEED_MORE;
                    decodeHeader();
                    Http2Error invalid = checkHeader();
                    if (invalid == null) {
                        payloadFill = 0;
                        state = State.PAYLOAD;
                    } else if (invalid.isConnectionError()) {
                        return fail(invalid);
                    } else {
                        pending = invalid;
                        skipRemaining = length;
                        state = State.SKIP;
                    }
                }
                case PAYLOAD -> {
                    int n = Math.min(length - payloadFill, in.remaining());
                    if (payloadFill + n > payload.length) {
                        // grow by what arrived, so a header claiming a large length costs nothing until its bytes come
                        payload = Arrays.copyOf(payload, Math.min(length, Math.max(payloadFill + n, 2 * payload.length)));
                    }
                    in.get(payload, payloadFill, n);
                    payloadFill += n;
                    if (payloadFill < length) return ParseStatus.NEED_MORE;
                    state = State.HEADER;
                    headerFill = 0;
                    Http2Error invalid = decodePayload();
                    if (invalid == null) return ParseStatus.COMPLETE;
                    if (invalid.isConnectionError()) return fail(invalid);
                    error = invalid;
                    return ParseStatus.ERROR;
                }
                case SKIP -> {
                    int n = Math.min(skipRemaining, in.remaining());
                    in.position(in.position() + n);
                    skipRemaining -= n;
                    if (skipRemaining > 0) return ParseStatus.NEED_MORE;
                    state = State.HEADER;
                    headerFill = 0;
                    error = pending;
                    pending = null;
                    return ParseStatus.ERROR;
                }
                case FAILED -> { return ParseStatus.ERROR; }
                default -> throw new AssertionError(state);
            }
        }
    }

    /** Why the last call answered {@link ParseStatus#ERROR}; null otherwise. */
    public Http2Error error() {
        return error;
    }

    /** The frame's type, one of the {@link Frames} constants or an unknown one (0 to 255). */
    public int type() {
        return type;
    }

    /** The frame's flags as sent, unknown ones included (0 to 255). */
    public int flags() {
        return flags;
    }

    /** Whether {@code flag} (a {@code Frames.FLAG_*} constant) is set on the frame. */
    public boolean hasFlag(int flag) {
        return (flags & flag) == flag;
    }

    /** The frame's stream, with the reserved bit ignored (section 4.1). */
    public int streamId() {
        return streamId;
    }

    /**
     * The frame's whole payload length. For DATA this is what counts against flow control,
     * padding and the pad length byte included (section 6.9.1).
     */
    public int length() {
        return length;
    }

    /**
     * The array holding the frame's content (see {@link #payloadOffset()}): the reader's own,
     * valid until the next call to {@link #read}. Not to be modified.
     */
    public byte[] payload() {
        return payload;
    }

    /**
     * Where the frame's content starts in {@link #payload()}: for DATA the data without padding,
     * for HEADERS the field block fragment without padding and priority fields, for CONTINUATION
     * and PUSH_PROMISE the fragment, for GOAWAY the debug data, for unknown types the raw payload.
     */
    public int payloadOffset() {
        return fragmentOffset;
    }

    /** How many bytes of content start at {@link #payloadOffset()}. */
    public int payloadLength() {
        return fragmentLength;
    }

    /** How many settings a SETTINGS frame carries (0 for an ACK). */
    public int settingsCount() {
        return type == Frames.SETTINGS ? length / 6 : 0;
    }

    /** The identifier of setting {@code i} of a SETTINGS frame. */
    public int settingId(int i) {
        Objects.checkIndex(i, settingsCount());
        return ((payload[6 * i] & 0xFF) << 8) | (payload[6 * i + 1] & 0xFF);
    }

    /** The value of setting {@code i} of a SETTINGS frame, an unsigned 32-bit integer. */
    public long settingValue(int i) {
        Objects.checkIndex(i, settingsCount());
        return uint32(6 * i + 2);
    }

    /** A PING frame's 8 bytes, big-endian. */
    public long pingData() {
        long v = 0;
        for (int i = 0; i < 8; i++) v = (v << 8) | (payload[i] & 0xFF);
        return v;
    }

    /** The error code of RST_STREAM or GOAWAY; codes this codec does not know read as {@code INTERNAL_ERROR} (section 7). */
    public Http2ErrorCode errorCode() {
        return Http2ErrorCode.of(rawErrorCode());
    }

    /** The error code of RST_STREAM or GOAWAY as sent, an unsigned 32-bit integer. */
    public long rawErrorCode() {
        return switch (type) {
            case Frames.RST_STREAM -> uint32(0);
            case Frames.GOAWAY -> uint32(4);
            default -> 0;
        };
    }

    /** The last stream id of a GOAWAY frame, reserved bit ignored. */
    public int lastStreamId() {
        return type == Frames.GOAWAY ? uint31(0) : 0;
    }

    /** The increment of a WINDOW_UPDATE frame, 1 to 2^31-1, reserved bit ignored. */
    public int windowIncrement() {
        return type == Frames.WINDOW_UPDATE ? uint31(0) : 0;
    }

    /** The promised stream of a PUSH_PROMISE frame, reserved bit ignored. */
    public int promisedStreamId() {
        if (type != Frames.PUSH_PROMISE) return 0;
        return uint31(hasFlag(Frames.FLAG_PADDED) ? 1 : 0);
    }

    /** Whether a PRIORITY frame, or HEADERS with {@link Frames#FLAG_PRIORITY}, asks for an exclusive dependency. */
    public boolean exclusive() {
        return exclusive;
    }

    /** The stream a PRIORITY frame, or HEADERS with {@link Frames#FLAG_PRIORITY}, depends on; 0 otherwise. */
    public int dependency() {
        return dependency;
    }

    /** The weight, 1 to 256, of a PRIORITY frame or HEADERS with {@link Frames#FLAG_PRIORITY}; 16 otherwise. */
    public int weight() {
        return weight;
    }

    /**
     * Whether a field block is open: a HEADERS or PUSH_PROMISE frame without END_HEADERS was read
     * and only CONTINUATION frames on its stream may follow until one carries END_HEADERS.
     */
    public boolean expectingContinuation() {
        return blockStream != 0;
    }

    private void startFrame() {
        error = null;
        length = 0;
        type = 0;
        flags = 0;
        streamId = 0;
        fragmentOffset = 0;
        fragmentLength = 0;
        exclusive = false;
        dependency = 0;
        weight = DEFAULT_WEIGHT;
    }

    private void decodeHeader() {
        length = ((header[0] & 0xFF) << 16) | ((header[1] & 0xFF) << 8) | (header[2] & 0xFF);
        type = header[3] & 0xFF;
        flags = header[4] & 0xFF;
        streamId = ((header[5] & 0x7F) << 24) | ((header[6] & 0xFF) << 16) | ((header[7] & 0xFF) << 8) | (header[8] & 0xFF);
    }

    /** The checks a frame's header alone allows, made before its payload is buffered. */
    private Http2Error checkHeader() {
        if (length > maxFrameSize) return connection(Http2ErrorCode.FRAME_SIZE_ERROR, "frame larger than SETTINGS_MAX_FRAME_SIZE");
        if (blockStream != 0 && (type != Frames.CONTINUATION || streamId != blockStream)) {
            return connection(Http2ErrorCode.PROTOCOL_ERROR, "frame other than CONTINUATION inside a field block");
        }
        boolean padded = hasFlag(Frames.FLAG_PADDED);
        return switch (type) {
            case Frames.DATA -> {
                if (streamId == 0) yield connection(Http2ErrorCode.PROTOCOL_ERROR, "DATA on stream 0");
                yield padded && length < 1 ? connection(Http2ErrorCode.FRAME_SIZE_ERROR, "padded DATA without pad length") : null;
            }
            case Frames.HEADERS -> {
                if (streamId == 0) yield connection(Http2ErrorCode.PROTOCOL_ERROR, "HEADERS on stream 0");
                int fixed = (padded ? 1 : 0) + (hasFlag(Frames.FLAG_PRIORITY) ? 5 : 0);
                // too short for its own fields: a frame size error, on the connection since it carries a field block (section 4.2)
                yield length < fixed ? connection(Http2ErrorCode.FRAME_SIZE_ERROR, "HEADERS too short for its fields") : null;
            }
            case Frames.PRIORITY -> {
                if (streamId == 0) yield connection(Http2ErrorCode.PROTOCOL_ERROR, "PRIORITY on stream 0");
                yield length != 5 ? Http2Error.stream(Http2ErrorCode.FRAME_SIZE_ERROR, streamId, "PRIORITY length other than 5") : null;
            }
            case Frames.RST_STREAM -> {
                if (streamId == 0) yield connection(Http2ErrorCode.PROTOCOL_ERROR, "RST_STREAM on stream 0");
                yield length != 4 ? connection(Http2ErrorCode.FRAME_SIZE_ERROR, "RST_STREAM length other than 4") : null;
            }
            case Frames.SETTINGS -> {
                if (streamId != 0) yield connection(Http2ErrorCode.PROTOCOL_ERROR, "SETTINGS on a stream");
                if (hasFlag(Frames.FLAG_ACK) && length != 0) yield connection(Http2ErrorCode.FRAME_SIZE_ERROR, "SETTINGS ACK with a payload");
                yield length % 6 != 0 ? connection(Http2ErrorCode.FRAME_SIZE_ERROR, "SETTINGS length not a multiple of 6") : null;
            }
            case Frames.PUSH_PROMISE -> {
                if (streamId == 0) yield connection(Http2ErrorCode.PROTOCOL_ERROR, "PUSH_PROMISE on stream 0");
                int fixed = (padded ? 1 : 0) + 4;
                yield length < fixed ? connection(Http2ErrorCode.FRAME_SIZE_ERROR, "PUSH_PROMISE too short for its fields") : null;
            }
            case Frames.PING -> {
                if (streamId != 0) yield connection(Http2ErrorCode.PROTOCOL_ERROR, "PING on a stream");
                yield length != 8 ? connection(Http2ErrorCode.FRAME_SIZE_ERROR, "PING length other than 8") : null;
            }
            case Frames.GOAWAY -> {
                if (streamId != 0) yield connection(Http2ErrorCode.PROTOCOL_ERROR, "GOAWAY on a stream");
                yield length < 8 ? connection(Http2ErrorCode.FRAME_SIZE_ERROR, "GOAWAY shorter than 8") : null;
            }
            case Frames.WINDOW_UPDATE ->
                length != 4 ? connection(Http2ErrorCode.FRAME_SIZE_ERROR, "WINDOW_UPDATE length other than 4") : null;
            case Frames.CONTINUATION -> {
                if (streamId == 0) yield connection(Http2ErrorCode.PROTOCOL_ERROR, "CONTINUATION on stream 0");
                yield blockStream == 0 ? connection(Http2ErrorCode.PROTOCOL_ERROR, "CONTINUATION without an open field block") : null;
            }
            default -> null;
        };
    }

    /** Decodes the buffered payload into the accessors' fields and makes the checks that need it. */
    private Http2Error decodePayload() {
        fragmentOffset = 0;
        fragmentLength = length;
        switch (type) {
            case Frames.DATA -> {
                return unpad(hasFlag(Frames.FLAG_PADDED) ? 1 : 0, "DATA padding longer than the payload");
            }
            case Frames.HEADERS -> {
                int offset = hasFlag(Frames.FLAG_PADDED) ? 1 : 0;
                if (hasFlag(Frames.FLAG_PRIORITY)) {
                    decodePriority(offset);
                    offset += 5;
                }
                Http2Error invalid = unpad(offset, "HEADERS padding longer than the payload");
                if (invalid != null) return invalid;
                if (!hasFlag(Frames.FLAG_END_HEADERS)) blockStream = streamId;
                if (hasFlag(Frames.FLAG_PRIORITY) && dependency == streamId) {
                    return Http2Error.stream(Http2ErrorCode.PROTOCOL_ERROR, streamId, "stream depends on itself");
                }
                return null;
            }
            case Frames.PRIORITY -> {
                decodePriority(0);
                fragmentLength = 0;
                return dependency == streamId ? Http2Error.stream(Http2ErrorCode.PROTOCOL_ERROR, streamId, "stream depends on itself") : null;
            }
            case Frames.PUSH_PROMISE -> {
                Http2Error invalid = unpad((hasFlag(Frames.FLAG_PADDED) ? 1 : 0) + 4, "PUSH_PROMISE padding longer than the payload");
                if (invalid != null) return invalid;
                if (!hasFlag(Frames.FLAG_END_HEADERS)) blockStream = streamId;
                return null;
            }
            case Frames.CONTINUATION -> {
                if (hasFlag(Frames.FLAG_END_HEADERS)) blockStream = 0;
                return null;
            }
            case Frames.GOAWAY -> {
                fragmentOffset = 8;
                fragmentLength = length - 8;
                return null;
            }
            case Frames.WINDOW_UPDATE -> {
                fragmentLength = 0;
                if (uint31(0) != 0) return null;
                return streamId == 0
                        ? connection(Http2ErrorCode.PROTOCOL_ERROR, "WINDOW_UPDATE increment 0")
                        : Http2Error.stream(Http2ErrorCode.PROTOCOL_ERROR, streamId, "WINDOW_UPDATE increment 0");
            }
            case Frames.RST_STREAM, Frames.SETTINGS, Frames.PING -> {
                fragmentLength = 0;
                return null;
            }
            default -> {
                return null; // unknown type: the raw payload
            }
        }
    }

    /**
     * Sets the content of a frame whose fixed fields (pad length included) end at
     * {@code fieldsEnd}, less its padding when PADDED. Padding that does not fit in what follows
     * the fixed fields is a connection error (sections 6.1, 6.2, 6.6); padding that takes all of
     * it leaves empty content, which is allowed.
     */
    private Http2Error unpad(int fieldsEnd, String reason) {
        int padding = hasFlag(Frames.FLAG_PADDED) ? payload[0] & 0xFF : 0;
        int remaining = length - fieldsEnd;
        if (padding > remaining) return connection(Http2ErrorCode.PROTOCOL_ERROR, reason);
        fragmentOffset = fieldsEnd;
        fragmentLength = remaining - padding;
        return null;
    }

    private void decodePriority(int offset) {
        exclusive = (payload[offset] & 0x80) != 0;
        dependency = uint31(offset);
        weight = (payload[offset + 4] & 0xFF) + 1;
    }

    private int uint31(int offset) {
        return (int) (uint32(offset) & 0x7FFF_FFFFL);
    }

    private long uint32(int offset) {
        return ((long) (payload[offset] & 0xFF) << 24) | ((payload[offset + 1] & 0xFF) << 16)
                | ((payload[offset + 2] & 0xFF) << 8) | (payload[offset + 3] & 0xFF);
    }

    private static Http2Error connection(Http2ErrorCode code, String reason) {
        return Http2Error.connection(code, reason);
    }

    private ParseStatus fail(Http2Error invalid) {
        error = invalid;
        state = State.FAILED;
        return ParseStatus.ERROR;
    }
}
