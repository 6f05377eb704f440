package dev.petrel.server.engine.exchange;

import dev.petrel.http.HttpStatus;
import dev.petrel.server.Handler;
import dev.petrel.server.HttpStatusException;
import dev.petrel.server.IncompleteBodyException;
import java.io.IOException;

/**
 * One request and its response, whatever the protocol: runs the handler and turns what it throws
 * into an answer, the same way for every protocol. An {@link HttpStatusException} becomes its
 * status; a request body that broke becomes the body's own status (400 cut short, 408 too slow,
 * 400 or 413 malformed or too large); anything else a 500, logged, never sent. Once bytes of the
 * response have left, nothing can replace them: the response is cut instead ({@link ExchangeStream#reset}:
 * the connection reset, or over HTTP/2 the stream), so the client sees a failed response rather
 * than a wrong one. A failed request never ends as a complete response: a handler that closed
 * its body stream and then threw, or whose request body failed after it had committed, is cut the
 * same way (see {@link ExchangeResponse}).
 *
 * <p>Reused for every exchange of its stream; the protocol arms its {@link #request()} and
 * {@link #response()} before {@link #run}.
 */
public final class Exchange {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.handler");

    private final ExchangeRequest request;
    private final ExchangeResponse response;
    private final ExchangeStream stream;
    private final BodySource body;
    private final String protocol;
    private final ExchangeObserver observer;

    /**
     * An exchange on {@code stream}, its response buffered in {@code pool}'s buffers, told to
     * {@code observer}; {@code protocol} names it in log lines (e.g. {@code "AJP"}). It serves every
     * exchange of the stream; a pooled stream is rebound to another connection by its protocol.
     */
    public Exchange(ExchangeStream stream, BufferPool pool, String protocol, ExchangeObserver observer) {
        this.stream = stream;
        this.body = stream.body();
        this.request = new ExchangeRequest(body);
        this.response = new ExchangeResponse(stream, pool, body, request, observer);
        this.protocol = protocol;
        this.observer = observer;
    }

    /**
     * Whether the handler detached the last exchange's response (see
     * {@link dev.petrel.server.Response#detach}): another thread may then still hold its request
     * and response, so a pool must not hand this exchange to another connection.
     */
    public boolean detached() {
        return response.detached() != null;
    }

    /** The request, for the protocol to arm. */
    public ExchangeRequest request() {
        return request;
    }

    /** The response, for the protocol to arm and to complete. */
    public ExchangeResponse response() {
        return response;
    }

    /**
     * Runs {@code handler} and completes its response; when the handler detached the response,
     * waits for its completion first (see {@link dev.petrel.server.Response#detach}).
     *
     * @return false when the connection must end (an error after bytes of the response had left)
     * @throws IOException when the response could not be written: the client is gone
     */
    public boolean run(Handler handler) throws IOException {
        try {
            if (observer == ExchangeObserver.NONE) return runHandler(handler);
            long start = System.nanoTime();
            observer.started();
            try {
                return runHandler(handler);
            } finally {
                observer.finished(request, response, start); // whatever the outcome, with the status and bytes it had
            }
        } finally {
            request.end(); // what the handler left open (an upload's temporary files)
        }
    }

    private boolean runHandler(Handler handler) throws IOException {
        Throwable thrown = null;
        try {
            handler.handle(request, response);
        } catch (Exception | AssertionError | LinkageError | StackOverflowError e) {
            thrown = e;
        }
        Completion detached = response.detached();
        if (thrown == null && detached != null) {
            Completion.Outcome outcome;
            try {
                outcome = detached.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stream.abort(); // the server is going away
                return false;
            }
            if (outcome == Completion.Outcome.TIMED_OUT) return timedOut(detached);
            if (outcome == Completion.Outcome.FAILED) thrown = detached.failure();
        }
        if (thrown == null) {
            try {
                response.finish(); // an uncommitted response the handler got wrong is its failure too
                return true;
            } catch (Exception | AssertionError e) {
                thrown = e;
            }
        }
        return answer(thrown);
    }

    /** A detached response not completed in time: {@code 503} when nothing was sent, else the connection is cut. */
    private boolean timedOut(Completion detached) throws IOException {
        response.closeToHandler();
        LOG.log(System.Logger.Level.WARNING, "the detached response to " + describe() + " was not completed within "
                + detached.timeoutMillis() + " ms");
        return answerWithError(503, "The response was not completed in time");
    }

    /** Turns what the handler threw into an answer (see the class comment). */
    private boolean answer(Throwable thrown) throws IOException {
        switch (thrown) {
            case HttpStatusException e -> {
                return answerWithError(e.status(), e.getMessage());
            }
            case IOException e -> {
                Exception bodyFailure = body.failure();
                if (bodyFailure != null) {
                    // the body was cut short, too slow or malformed: the framing is lost, so answer (unless
                    // bytes have left) and close; the handler met the failure, whatever it threw then
                    LOG.log(System.Logger.Level.DEBUG, () -> "request body of " + describe() + " failed: " + bodyFailure.getMessage());
                    if (response.sent()) return cut(e);
                    return switch (bodyFailure) {
                        case IncompleteBodyException incomplete -> answerWithError(incomplete.status(), incomplete.getMessage());
                        case HttpStatusException status -> answerWithError(status.status(), status.getMessage());
                        default -> answerWithError(400, HttpStatus.reason(400));
                    };
                }
                if (response.sent()) return cut(e); // the client is gone, or the response broke
                // the handler's own I/O (a file, a database) failed with nothing sent: a 500 like any
                // exception; were the client gone instead, writing the 500 fails and the connection ends
                LOG.log(System.Logger.Level.WARNING, "handler failed on " + describe(), e);
                return answerWithError(500, HttpStatus.reason(500));
            }
            case Error e when !(e instanceof AssertionError || e instanceof LinkageError || e instanceof StackOverflowError) -> throw e;
            default -> {
                LOG.log(System.Logger.Level.WARNING, "handler failed on " + describe(), thrown);
                return answerWithError(500, HttpStatus.reason(500));
            }
        }
    }

    /**
     * Replaces the response with an error answer in plain text, or cuts the connection when bytes
     * of it have left; returns false when the connection must end. The message is a fixed text,
     * safe to send.
     */
    public boolean answerWithError(int status, String message) throws IOException {
        if (response.sent()) return cut(null); // the client sees a failed response rather than a wrong one
        String reason = HttpStatus.reason(status);
        response.answer(status, message == null || message.equals(reason) ? reason + "\n" : reason + ": " + message + "\n");
        return true;
    }

    /**
     * Ends an exchange that failed after bytes of its response had left: nothing can replace them,
     * so the connection (over HTTP/2, the stream) is aborted for the client to see the failure.
     * Returns false: the connection must end.
     */
    private boolean cut(IOException why) {
        if (why != null) LOG.log(System.Logger.Level.DEBUG, () -> "response to " + describe() + " cut: " + why);
        stream.reset();
        return false;
    }

    /** The request and its connection, for a log line: e.g. {@code GET /path over HTTP/1.1 from /10.0.0.1:50312}. */
    public String describe() {
        return request.method() + " " + request.target() + " over " + protocol + " from " + stream.remoteAddress();
    }
}
