package dev.petrel.server;

import java.io.IOException;

/**
 * A request body that did not arrive whole: the client closed the connection (or, over AJP, the
 * front end ended the body) before its framing said it was complete, or it sent too slowly. A
 * body read throws it instead of reporting a normal end of stream, so that a handler never takes
 * a truncated body for a complete one; every later read throws it again.
 *
 * <p>Once a body has failed, the exchange will not let the response claim success: a response
 * committed with a status below 400 (a handler that closes its output stream in a
 * try-with-resources, or catches this exception and answers anyway) fails with an
 * {@link IOException}, and the server answers {@link #status()} instead with
 * {@code Connection: close}, unless the head has already left. A handler may still answer with an
 * error status of its own.
 */
public final class IncompleteBodyException extends IOException {
    private final int status;

    /**
     * A body that ended early ({@code 400}) or came too slowly ({@code 408}).
     *
     * @param status {@code 400} or {@code 408}
     * @param message a fixed text, safe to send to the client
     */
    public IncompleteBodyException(int status, String message) {
        super(message);
        if (status != 400 && status != 408) throw new IllegalArgumentException("status must be 400 or 408: " + status);
        this.status = status;
    }

    /** A body cut short by the end of the connection or of the body's stream: {@code 400}. */
    public static IncompleteBodyException cutShort(String where) {
        return new IncompleteBodyException(400, "Request body cut short: " + where);
    }

    /** A body that did not come fast enough: {@code 408}. */
    public static IncompleteBodyException tooSlow(String why) {
        return new IncompleteBodyException(408, "Request body too slow: " + why);
    }

    /** The status the server answers with when nothing was sent yet: 400 (cut short) or 408 (too slow). */
    public int status() {
        return status;
    }
}
