package dev.petrel.server;

/**
 * Application code that answers one request. Handlers are plain blocking code: they may read
 * the body, call a database and write the response in straight lines; the transport decides on
 * which thread that runs.
 *
 * <p>What the handler leaves unsent is completed when it returns: a response never written
 * becomes an empty 200 (or the status set), a body stream left open is closed. An exception
 * becomes a 500 ({@link HttpStatusException} its own status) when nothing was sent yet, or an
 * aborted connection when the head already left; it is logged once and never shown to the client.
 */
@FunctionalInterface
public interface Handler {
    /**
     * Answers {@code request} through {@code response}.
     *
     * @throws Exception anything; see the class comment for what the client then sees
     */
    void handle(Request request, Response response) throws Exception;
}
