package dev.petrel.tomcat;

import java.io.IOException;

/**
 * Catalina gave up on a response (Coyote's {@code CLOSE_NOW}: the client went away, or the
 * application failed after the response was committed): thrown out of Petrel's handler so that
 * Petrel cuts the connection, or answers 500 when nothing was sent yet.
 */
final class AbandonedResponseException extends IOException {
    AbandonedResponseException() {
        super("the application abandoned the response");
    }
}
