package dev.petrel.server.engine;

import dev.petrel.http.HttpStatus;
import dev.petrel.server.Handler;
import dev.petrel.server.HttpStatusException;
import dev.petrel.server.IncompleteBodyException;
import dev.petrel.server.Request;
import dev.petrel.server.Response;
import java.io.IOException;

/**
 * Runs a handler for one exchange and turns what it throws into an answer, the same way for
 * every protocol engine: an {@link HttpStatusException} becomes its status, a request body that
 * broke becomes the body's own status ({@code 400} cut short, {@code 408} too slow, {@code 400} or
 * {@code 413} malformed or too large), anything else {@code 500} with the failure logged, never
 * sent.
 */
final class HandlerInvocation {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.handler");

    /** The protocol's side of the exchange the handler runs in. */
    interface Exchange {
        /** Completes the response the handler left; throws when it broke a rule (a declared length not met). */
        void finish() throws IOException;

        /** Whether the response head has left. */
        boolean committed();

        /** What reading the request body threw (cut short, too slow, malformed), or null: its framing is then lost. */
        Exception bodyFailure();

        /**
         * Replaces the uncommitted response with an error answer, or cuts the connection when the
         * head has left; returns false when the connection must end.
         */
        boolean answerWithError(int status, String message) throws IOException;

        /** What to name the request by in a log line, with its connection, e.g. {@code GET /path from /10.0.0.1:50312}. */
        String describe();
    }

    private HandlerInvocation() {}

    /**
     * Runs {@code handler} and completes its response.
     *
     * @return false when the connection must end (an error after the head had left)
     * @throws IOException when the response could not be written: the client is gone
     */
    static boolean run(Handler handler, Request request, Response response, Exchange exchange) throws IOException {
        try {
            handler.handle(request, response);
            exchange.finish(); // inside: an uncommitted response the handler got wrong is its failure too
            return true;
        } catch (HttpStatusException e) {
            return exchange.answerWithError(e.status(), e.getMessage());
        } catch (IOException e) {
            Exception bodyFailure = exchange.bodyFailure();
            if (bodyFailure != null) {
                // the body was cut short, too slow or malformed: the framing is lost, so answer (unless
                // the head has left) and close; the handler met the failure, whatever it threw then
                LOG.log(System.Logger.Level.DEBUG, () -> "request body of " + exchange.describe() + " failed: "
                        + bodyFailure.getMessage());
                if (exchange.committed()) throw e;
                return switch (bodyFailure) {
                    case IncompleteBodyException incomplete -> exchange.answerWithError(incomplete.status(), incomplete.getMessage());
                    case HttpStatusException status -> exchange.answerWithError(status.status(), status.getMessage());
                    default -> exchange.answerWithError(400, HttpStatus.reason(400));
                };
            }
            if (exchange.committed()) throw e; // the client is gone, or the response broke
            // the handler's own I/O (a file, a database) failed with nothing sent: a 500 like any
            // exception; were the client gone instead, writing the 500 fails and the connection ends
            LOG.log(System.Logger.Level.WARNING, "handler failed on " + exchange.describe(), e);
            return exchange.answerWithError(500, HttpStatus.reason(500));
        } catch (Exception | AssertionError | LinkageError | StackOverflowError e) {
            LOG.log(System.Logger.Level.WARNING, "handler failed on " + exchange.describe(), e);
            return exchange.answerWithError(500, HttpStatus.reason(500));
        }
    }
}
