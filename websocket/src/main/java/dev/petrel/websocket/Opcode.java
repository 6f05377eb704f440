package dev.petrel.websocket;

/**
 * The frame opcodes of RFC 6455 section 5.2. The other values of the 4-bit field (3 to 7 and 11
 * to 15) are reserved; {@link #of} answers null for them, and a frame carrying one is a protocol
 * error (section 5.2: "If an unknown opcode is received, the receiving endpoint MUST Fail the
 * WebSocket Connection").
 */
public enum Opcode {
    /** A further fragment of a fragmented message (section 5.4). */
    CONTINUATION(0x0),
    /** The first (or only) frame of a text message, UTF-8 encoded (section 5.6). */
    TEXT(0x1),
    /** The first (or only) frame of a binary message (section 5.6). */
    BINARY(0x2),
    /** The closing handshake's frame (section 5.5.1). */
    CLOSE(0x8),
    /** A ping, to be answered with a pong carrying the same payload (section 5.5.2). */
    PING(0x9),
    /** A pong, in answer to a ping or unsolicited as a heartbeat (section 5.5.3). */
    PONG(0xA);

    /** Indexed by the 4-bit code; null where the code is reserved. */
    private static final Opcode[] BY_CODE = new Opcode[16];

    static {
        for (Opcode opcode : values()) BY_CODE[opcode.code] = opcode;
    }

    private final int code;

    Opcode(int code) {
        this.code = code;
    }

    /** The value of the frame's 4-bit opcode field. */
    public int code() {
        return code;
    }

    /** The opcode whose field value is {@code code}, or null when it is reserved or not a 4-bit value. */
    public static Opcode of(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /**
     * Whether frames with this opcode are control frames (section 5.5): close, ping and pong, which
     * may come between the fragments of a message but may not be fragmented themselves.
     */
    public boolean isControl() {
        return code >= 0x8;
    }
}
