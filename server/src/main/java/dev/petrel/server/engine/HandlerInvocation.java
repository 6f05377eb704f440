package dev.petrel.server.engine;

import dev.petrel.http.HttpStatus;
import dev.petrel.server.Handler;
import dev.petrel.server.HttpStatusException;
import dev.petrel.server.Request;
import dev.petrel.server.Response;
import java.io.IOException;

/**
 * Runs a handler for one exchange and turns what it throws into an answer, the same way for
 * every protocol engine: an {@link HttpStatusException} becomes its status, a request body that
 * broke becomes {@code 400}, anything else {@code 500} with the failure logged, never sent.
 */
final class HandlerInvocation {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.handler");

    /** The protocol's side of the exchange the handler runs in. */
    interface Exchange {
        /** Completes the response the handler left; throws when it broke a rule (a declared length not met). */
        void finish() throws IOException;

        /** Whether the response head has left. */
        boolean committed();

        /** Whether reading the request body failed (timed out, cut short): its framing is lost. */
        boolean bodyFailed();

        /**
         * Replaces the uncommitted response with an error answer, or cuts the connection when the
         * head has left; returns false when the connection must end.
         */
        boolean answerWithError(int status, String message) throws IOException;

        /** What to name the request by in a log line, e.g. {@code GET /path}. */
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
            if (exchange.committed()) throw e; // the client is gone, or the response broke
            if (exchange.bodyFailed()) {
                // the body read timed out or was cut short: the framing is lost, so answer and close
                return exchange.answerWithError(400, "Request body incomplete");
            }
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
