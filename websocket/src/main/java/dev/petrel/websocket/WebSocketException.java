package dev.petrel.websocket;

/**
 * A violation of the protocol by the peer, found while decoding (or a response to our offer that
 * cannot be accepted): the close code to send in the close frame that fails the connection
 * (RFC 6455 section 7.1.7) and, as the message, a reason for the log. The reason is fixed text
 * that never quotes the input.
 */
public final class WebSocketException extends Exception {
    /** The close code to fail the connection with. */
    private final int closeCode;

    /**
     * A violation to answer with {@code closeCode} (one of {@link CloseCodes}), {@code reason}
     * saying what was wrong in words for the log.
     */
    public WebSocketException(int closeCode, String reason) {
        super(reason);
        this.closeCode = closeCode;
    }

    /** The close code to send: {@link CloseCodes#PROTOCOL_ERROR}, {@link CloseCodes#INVALID_PAYLOAD}, {@link CloseCodes#MESSAGE_TOO_BIG}, ... */
    public int closeCode() {
        return closeCode;
    }
}
