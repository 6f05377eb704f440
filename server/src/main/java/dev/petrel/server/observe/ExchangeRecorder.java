package dev.petrel.server.observe;

import dev.petrel.server.config.AccessLog;
import dev.petrel.server.engine.exchange.ExchangeObserver;
import dev.petrel.server.engine.exchange.ExchangeRequest;
import dev.petrel.server.engine.exchange.ExchangeResponse;
import dev.petrel.server.engine.exchange.WebSocketSessionObserver;
import java.time.InstantSource;
import java.time.ZoneId;

/**
 * Records each exchange of a listener: its access log line and its connector's request counters,
 * either or both. The exchange tells it when the handler starts and once the exchange is over (its
 * response finished, replaced by an error answer, or cut). A handshake that opens a WebSocket
 * session gets a {@link WebSocketSessionRecorder} for the session.
 */
public final class ExchangeRecorder implements ExchangeObserver {
    private final AccessLogWriter writer; // null: no access log
    private final AccessLog.Format format;
    private final InstantSource clock;
    private final ZoneId zone;
    private final ConnectorCounters counters; // null: not counted

    /**
     * Exchanges logged to {@code writer} (null for none) in {@code format}, timed by {@code clock}
     * in {@code zone}, and counted in {@code counters} (null for none).
     */
    public ExchangeRecorder(AccessLogWriter writer, AccessLog.Format format, InstantSource clock, ZoneId zone,
                            ConnectorCounters counters) {
        if (writer == null && counters == null) throw new IllegalArgumentException("nothing to observe: use ExchangeObserver.NONE");
        this.writer = writer;
        this.format = format;
        this.clock = clock;
        this.zone = zone;
        this.counters = counters;
    }

    @Override
    public void started() {
        if (counters != null) counters.requestStarted();
    }

    /** Counted and logged with the status it had, and as incomplete when its response never ended (cut after a failure, or its client gone). */
    @Override
    public void finished(ExchangeRequest request, ExchangeResponse response, long startNanos) {
        if (counters != null) {
            counters.requestFinished(request.method(), response.status(), response.complete(), System.nanoTime() - startNanos);
        }
        if (writer != null) writer.record(AccessLogLine.format(format, request, response, startNanos, clock.instant(), zone));
    }

    /** A session recorded like the exchanges: in the connector's WebSocket counters, and by a line when it ends. */
    @Override
    public WebSocketSessionObserver webSocketSession(ExchangeRequest request) {
        return new WebSocketSessionRecorder(request, counters == null ? null : counters.webSocketCounters(), writer, format, clock, zone);
    }
}
