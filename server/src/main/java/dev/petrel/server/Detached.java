package dev.petrel.server;

/**
 * A response a handler took out of its return with {@link Response#detach}: the exchange stays
 * open until one of these is called, from any thread, or the detach's timeout passes. Until then
 * the request body stays readable and the response writable by whichever one thread finishes it.
 */
public interface Detached {
    /**
     * The response is done, as when a handler returns: what is left unsent is completed.
     *
     * @return false when the exchange was over already (completed, failed, or timed out)
     */
    boolean complete();

    /**
     * The response failed, as when a handler throws {@code failure}: an error answer when nothing
     * was sent yet (its own status for an {@link HttpStatusException}, else 500), else the
     * connection is cut.
     *
     * @return false when the exchange was over already
     */
    boolean fail(Throwable failure);

    /** Whether the exchange is over: completed, failed or timed out. */
    boolean done();
}
