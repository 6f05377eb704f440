package dev.petrel.http;

import java.util.Objects;

/**
 * A rejected input: the status code the RFC prescribes and a fixed reason. The reason never
 * quotes the input, so it is safe to send to the client and to log.
 *
 * @param status the response status, 4xx or 5xx
 * @param reason a short fixed description of what was wrong
 */
public record HttpError(int status, String reason) {
    /** Checks the status is an error status. */
    public HttpError {
        if (status < 400 || status > 599) throw new IllegalArgumentException("not an error status: " + status);
        Objects.requireNonNull(reason, "reason");
    }

    static HttpError badRequest(String reason) {
        return new HttpError(400, reason);
    }
}
