package dev.petrel.server.engine;

import dev.petrel.server.AccessLog;
import dev.petrel.server.Handler;
import dev.petrel.server.Request;
import dev.petrel.server.Response;
import java.time.InstantSource;
import java.time.ZoneId;

/**
 * The application's handler with what the server observes of each exchange: its access log line
 * and its connector's request counters, either or both. {@link Exchange#run} runs the handler
 * inside and, once the exchange is over (its response finished, replaced by an error answer, or
 * cut), records it. Wrapping the handler, rather than settings passed to every protocol, keeps the
 * observing out of the protocols: each one only runs exchanges.
 */
public final class ObservedHandler extends DelegatingHandler {
    private final AccessLogWriter writer; // null: no access log
    private final AccessLog.Format format;
    private final InstantSource clock;
    private final ZoneId zone;
    private final ConnectorCounters counters; // null: not counted

    /**
     * {@code handler}'s exchanges logged to {@code writer} (null for none) in {@code format}, timed by
     * {@code clock} in {@code zone}, and counted in {@code counters} (null for none).
     */
    public ObservedHandler(Handler handler, AccessLogWriter writer, AccessLog.Format format, InstantSource clock, ZoneId zone,
                           ConnectorCounters counters) {
        super(handler);
        if (writer == null && counters == null) throw new IllegalArgumentException("nothing to observe: run the handler itself");
        this.writer = writer;
        this.format = format;
        this.clock = clock;
        this.zone = zone;
        this.counters = counters;
    }

    /** The application's handler. */
    Handler handler() {
        return handler;
    }

    @Override
    public void handle(Request request, Response response) throws Exception {
        handler.handle(request, response); // Exchange unwraps this; here only for a caller that does not
    }

    /** An exchange is starting. */
    void started() {
        if (counters != null) counters.requestStarted();
    }

    /**
     * The exchange that started at {@code startNanos} is over: counted and logged with the status
     * it had, and as incomplete when its response never ended (cut after a failure, or its client gone).
     */
    void finished(ExchangeRequest request, ExchangeResponse response, long startNanos) {
        if (counters != null) {
            counters.requestFinished(request.method(), response.status(), response.complete(), System.nanoTime() - startNanos);
        }
        if (writer != null) writer.record(AccessLogLine.format(format, request, response, startNanos, clock.instant(), zone));
    }
}
