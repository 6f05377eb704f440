package dev.petrel.server.engine;

import dev.petrel.server.AccessLog;
import dev.petrel.server.Handler;
import dev.petrel.server.Request;
import dev.petrel.server.Response;
import java.time.InstantSource;
import java.time.ZoneId;

/**
 * The application's handler with the server's access log: {@link Exchange#run} runs the handler
 * inside and, once the exchange is over (its response finished, replaced by an error answer, or
 * cut), writes its line. Wrapping the handler, rather than a setting passed to every protocol,
 * keeps the access log out of the protocols: each one only runs exchanges.
 */
public final class LoggedHandler implements Handler {
    private final Handler handler;
    private final AccessLogWriter writer;
    private final AccessLog.Format format;
    private final InstantSource clock;
    private final ZoneId zone;

    /** {@code handler}'s exchanges logged to {@code writer} in {@code format}, timed by {@code clock} in {@code zone}. */
    public LoggedHandler(Handler handler, AccessLogWriter writer, AccessLog.Format format, InstantSource clock, ZoneId zone) {
        this.handler = handler;
        this.writer = writer;
        this.format = format;
        this.clock = clock;
        this.zone = zone;
    }

    /** The application's handler. */
    Handler handler() {
        return handler;
    }

    @Override
    public void handle(Request request, Response response) throws Exception {
        handler.handle(request, response); // Exchange unwraps this; here only for a caller that does not
    }

    @Override
    public boolean mayBlock() {
        return handler.mayBlock();
    }

    @Override
    public boolean mayBlock(Request request) {
        return handler.mayBlock(request);
    }

    void log(ExchangeRequest request, ExchangeResponse response, long startNanos) {
        writer.record(AccessLogLine.format(format, request, response, startNanos, clock.instant(), zone));
    }
}
