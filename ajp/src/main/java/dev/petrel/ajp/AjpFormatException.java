package dev.petrel.ajp;

import java.io.IOException;

/**
 * Bytes that are not AJP/1.3: a packet without the front end's magic, a length beyond the packet
 * size, a body chunk longer than its packet. The framing is lost, so the connection must close;
 * the message says what was wrong and never quotes the input.
 */
public final class AjpFormatException extends IOException {
    /** A format error described by {@code message}. */
    public AjpFormatException(String message) {
        super(message);
    }
}
