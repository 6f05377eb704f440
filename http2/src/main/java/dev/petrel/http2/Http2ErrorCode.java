package dev.petrel.http2;

/**
 * The error codes of RFC 9113 section 7, carried by {@code RST_STREAM} and {@code GOAWAY}.
 */
public enum Http2ErrorCode {
    NO_ERROR(0x0),
    PROTOCOL_ERROR(0x1),
    INTERNAL_ERROR(0x2),
    FLOW_CONTROL_ERROR(0x3),
    SETTINGS_TIMEOUT(0x4),
    STREAM_CLOSED(0x5),
    FRAME_SIZE_ERROR(0x6),
    REFUSED_STREAM(0x7),
    CANCEL(0x8),
    COMPRESSION_ERROR(0x9),
    CONNECT_ERROR(0xa),
    ENHANCE_YOUR_CALM(0xb),
    INADEQUATE_SECURITY(0xc),
    HTTP_1_1_REQUIRED(0xd);

    private static final Http2ErrorCode[] BY_CODE = values();

    private final int code;

    Http2ErrorCode(int code) {
        this.code = code;
    }

    /** The 32-bit code on the wire. */
    public int code() {
        return code;
    }

    /**
     * The error a peer's code names. Codes this list does not know "MUST NOT trigger any special
     * behavior" (RFC 9113 section 7) and may be treated as {@link #INTERNAL_ERROR}, which this does.
     */
    public static Http2ErrorCode of(long code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[(int) code] : INTERNAL_ERROR;
    }
}
