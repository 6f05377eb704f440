package dev.petrel.server.engine.exchange;

/**
 * Why the current request body could not be read, as the rest of the exchange asks it: the
 * response refuses to claim success after one, and the handler's failure is answered with its
 * status. The same for every protocol's body.
 */
public interface BodyFailure {
    /**
     * What reading the body threw: an {@link dev.petrel.server.IncompleteBodyException} (cut short,
     * too slow) or an {@link dev.petrel.server.HttpStatusException} (malformed, too large); null
     * while reading has not failed.
     */
    public Exception failure();
}
