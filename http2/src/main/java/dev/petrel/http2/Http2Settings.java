package dev.petrel.http2;

/**
 * The six settings of RFC 9113 section 6.5.2 and RFC 8441's SETTINGS_ENABLE_CONNECT_PROTOCOL, holding
 * their initial values until told otherwise.
 * One instance describes one side of a connection: what the peer announced (fed with
 * {@link #apply}) or what we announce (configured with {@link #set}, written by
 * {@link FrameWriter#settings}). Mutable and not thread-safe, like the connection that owns it.
 *
 * <p>A limit the RFC leaves unbounded by default ({@code SETTINGS_MAX_CONCURRENT_STREAMS},
 * {@code SETTINGS_MAX_HEADER_LIST_SIZE}) reads as {@link Long#MAX_VALUE} until a value is given,
 * so that comparisons against it need no special case.
 */
public final class Http2Settings {
    /** SETTINGS_HEADER_TABLE_SIZE: the HPACK dynamic table size the sender's decoder allows. */
    public static final int HEADER_TABLE_SIZE = 0x1;
    /** SETTINGS_ENABLE_PUSH: 0 or 1. */
    public static final int ENABLE_PUSH = 0x2;
    /** SETTINGS_MAX_CONCURRENT_STREAMS: streams the sender lets its peer open. */
    public static final int MAX_CONCURRENT_STREAMS = 0x3;
    /** SETTINGS_INITIAL_WINDOW_SIZE: the sender's initial stream flow-control window. */
    public static final int INITIAL_WINDOW_SIZE = 0x4;
    /** SETTINGS_MAX_FRAME_SIZE: the largest frame payload the sender accepts. */
    public static final int MAX_FRAME_SIZE = 0x5;
    /** SETTINGS_MAX_HEADER_LIST_SIZE: advisory limit on a field section's size. */
    public static final int MAX_HEADER_LIST_SIZE = 0x6;
    /** SETTINGS_ENABLE_CONNECT_PROTOCOL (RFC 8441 section 3): 1 when the sender accepts the extended CONNECT. */
    public static final int ENABLE_CONNECT_PROTOCOL = 0x8;

    /** The settings this class knows, in the order they are announced. */
    static final int[] KNOWN = {HEADER_TABLE_SIZE, ENABLE_PUSH, MAX_CONCURRENT_STREAMS, INITIAL_WINDOW_SIZE, MAX_FRAME_SIZE,
        MAX_HEADER_LIST_SIZE, ENABLE_CONNECT_PROTOCOL};

    /** The initial SETTINGS_HEADER_TABLE_SIZE. */
    static final long DEFAULT_HEADER_TABLE_SIZE = 4096;
    /** Setting values are unsigned 32-bit integers on the wire (section 6.5.1). */
    static final long MAX_VALUE = 0xFFFF_FFFFL;

    private long headerTableSize;
    private boolean enablePush;
    private long maxConcurrentStreams;
    private int initialWindowSize;
    private int maxFrameSize;
    private long maxHeaderListSize;
    private boolean enableConnectProtocol;
    /** Bit {@code id} set when {@link #set} was called for setting {@code id}. */
    private int explicit;

    /** The initial values: 4096, push enabled, unlimited streams, 65535, 16384, unlimited list size, no extended CONNECT. */
    public Http2Settings() {
        headerTableSize = DEFAULT_HEADER_TABLE_SIZE;
        enablePush = true;
        maxConcurrentStreams = Long.MAX_VALUE;
        initialWindowSize = Frames.DEFAULT_WINDOW;
        maxFrameSize = Frames.DEFAULT_MAX_FRAME_SIZE;
        maxHeaderListSize = Long.MAX_VALUE;
    }

    /**
     * Applies one setting received from the peer.
     *
     * @param id the setting's identifier; unknown identifiers are ignored (section 6.5.2)
     * @param value the value as sent, an unsigned 32-bit integer
     * @return null when applied or ignored, else the connection error to end the connection with:
     *     {@code PROTOCOL_ERROR} for ENABLE_PUSH or ENABLE_CONNECT_PROTOCOL other than 0 or 1 and for MAX_FRAME_SIZE outside
     *     [16384, 2^24-1], {@code FLOW_CONTROL_ERROR} for INITIAL_WINDOW_SIZE above 2^31-1
     */
    public Http2Error apply(int id, long value) {
        String invalid = check(id, value);
        if (invalid != null) {
            Http2ErrorCode code = id == INITIAL_WINDOW_SIZE ? Http2ErrorCode.FLOW_CONTROL_ERROR : Http2ErrorCode.PROTOCOL_ERROR;
            return Http2Error.connection(code, invalid);
        }
        store(id, value);
        return null;
    }

    /**
     * Sets one of our own settings, to be announced with {@link FrameWriter#settings}; a value set
     * here is announced even when it equals the initial one.
     *
     * @throws IllegalArgumentException for an unknown id, a value outside 0..2^32-1, or a value
     *     {@link #apply} would refuse
     */
    public void set(int id, long value) {
        if (!known(id)) throw new IllegalArgumentException("unknown setting " + id);
        if (value < 0 || value > MAX_VALUE) throw new IllegalArgumentException("setting value out of range: " + value);
        String invalid = check(id, value);
        if (invalid != null) throw new IllegalArgumentException(invalid + ": " + value);
        store(id, value);
        explicit |= 1 << id;
    }

    /** SETTINGS_HEADER_TABLE_SIZE. */
    public long headerTableSize() {
        return headerTableSize;
    }

    /** SETTINGS_ENABLE_PUSH. */
    public boolean enablePush() {
        return enablePush;
    }

    /** SETTINGS_MAX_CONCURRENT_STREAMS, {@link Long#MAX_VALUE} when unlimited. */
    public long maxConcurrentStreams() {
        return maxConcurrentStreams;
    }

    /** SETTINGS_INITIAL_WINDOW_SIZE. */
    public int initialWindowSize() {
        return initialWindowSize;
    }

    /** SETTINGS_MAX_FRAME_SIZE. */
    public int maxFrameSize() {
        return maxFrameSize;
    }

    /** SETTINGS_MAX_HEADER_LIST_SIZE, {@link Long#MAX_VALUE} when unlimited. */
    public long maxHeaderListSize() {
        return maxHeaderListSize;
    }

    /** SETTINGS_ENABLE_CONNECT_PROTOCOL: whether the extended CONNECT of RFC 8441 is accepted. */
    public boolean enableConnectProtocol() {
        return enableConnectProtocol;
    }

    private static boolean known(int id) {
        for (int k : KNOWN) if (k == id) return true;
        return false;
    }

    /** The value of setting {@code id} (one of {@link #KNOWN}) as it goes on the wire; unlimited reads as {@link Long#MAX_VALUE}. */
    long value(int id) {
        return switch (id) {
            case HEADER_TABLE_SIZE -> headerTableSize;
            case ENABLE_PUSH -> enablePush ? 1 : 0;
            case MAX_CONCURRENT_STREAMS -> maxConcurrentStreams;
            case INITIAL_WINDOW_SIZE -> initialWindowSize;
            case MAX_FRAME_SIZE -> maxFrameSize;
            case MAX_HEADER_LIST_SIZE -> maxHeaderListSize;
            case ENABLE_CONNECT_PROTOCOL -> enableConnectProtocol ? 1 : 0;
            default -> throw new IllegalArgumentException("unknown setting " + id);
        };
    }

    /** Whether setting {@code id} (one of {@link #KNOWN}) is to be announced: set explicitly, or not at its initial value. */
    boolean announced(int id) {
        if ((explicit & (1 << id)) != 0) return true;
        return switch (id) {
            case HEADER_TABLE_SIZE -> headerTableSize != DEFAULT_HEADER_TABLE_SIZE;
            case ENABLE_PUSH -> !enablePush;
            case MAX_CONCURRENT_STREAMS -> maxConcurrentStreams != Long.MAX_VALUE;
            case INITIAL_WINDOW_SIZE -> initialWindowSize != Frames.DEFAULT_WINDOW;
            case MAX_FRAME_SIZE -> maxFrameSize != Frames.DEFAULT_MAX_FRAME_SIZE;
            case MAX_HEADER_LIST_SIZE -> maxHeaderListSize != Long.MAX_VALUE;
            case ENABLE_CONNECT_PROTOCOL -> enableConnectProtocol;
            default -> false;
        };
    }

    /** Why {@code value} is not allowed for setting {@code id}, or null. */
    private static String check(int id, long value) {
        return switch (id) {
            case ENABLE_PUSH -> value == 0 || value == 1 ? null : "SETTINGS_ENABLE_PUSH other than 0 or 1";
            case ENABLE_CONNECT_PROTOCOL -> value == 0 || value == 1 ? null : "SETTINGS_ENABLE_CONNECT_PROTOCOL other than 0 or 1";
            case INITIAL_WINDOW_SIZE -> value <= Frames.MAX_WINDOW ? null : "SETTINGS_INITIAL_WINDOW_SIZE above 2^31-1";
            case MAX_FRAME_SIZE -> value >= Frames.DEFAULT_MAX_FRAME_SIZE && value <= Frames.MAX_MAX_FRAME_SIZE
                    ? null : "SETTINGS_MAX_FRAME_SIZE outside 16384..16777215";
            default -> null;
        };
    }

    private void store(int id, long value) {
        switch (id) {
            case HEADER_TABLE_SIZE -> headerTableSize = value;
            case ENABLE_PUSH -> enablePush = value == 1;
            case MAX_CONCURRENT_STREAMS -> maxConcurrentStreams = value;
            case INITIAL_WINDOW_SIZE -> initialWindowSize = (int) value;
            case MAX_FRAME_SIZE -> maxFrameSize = (int) value;
            case MAX_HEADER_LIST_SIZE -> maxHeaderListSize = value;
            case ENABLE_CONNECT_PROTOCOL -> enableConnectProtocol = value == 1;
            default -> { } // unknown settings are ignored (section 6.5.2)
        }
    }
}
