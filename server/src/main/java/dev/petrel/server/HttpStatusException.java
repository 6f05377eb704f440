package dev.petrel.server;

import dev.petrel.http.HttpStatus;

/**
 * Ends an exchange with an error status, from a handler or from the server itself (for
 * instance a request body that turns out malformed or too large while the handler reads it).
 * The message is a fixed text that is safe to send to the client.
 */
public class HttpStatusException extends RuntimeException {
    private final int status;

    /** An exception answering {@code status} with a message. */
    public HttpStatusException(int status, String message) {
        super(message, null, false, false);
        if (status < 400 || status > 599) throw new IllegalArgumentException("not an error status: " + status);
        this.status = status;
    }

    /** An exception answering {@code status} with its reason phrase. */
    public HttpStatusException(int status) {
        this(status, HttpStatus.reason(status));
    }

    /** The status to answer with. */
    public int status() {
        return status;
    }
}
