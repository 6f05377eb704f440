package dev.petrel.server.observe;

import dev.petrel.server.config.AccessLog;
import dev.petrel.server.engine.exchange.ExchangeRequest;
import dev.petrel.server.engine.exchange.WebSocketSessionObserver;
import java.time.InstantSource;
import java.time.ZoneId;

/**
 * Records one WebSocket session: counts it in its connector's {@link WebSocketCounters} as it goes,
 * and writes its access log line when it ends. The session's own totals, for the line, are plain
 * sums in volatile fields: each direction has one writer at a time (the reader thread; senders
 * under the session's lock), so an add needs no atomic operation, and volatile makes the last
 * of them visible to the thread that ends the session.
 */
final class WebSocketSessionRecorder implements WebSocketSessionObserver {
    private final WebSocketCounters counters; // null: not counted
    private final AccessLogWriter writer; // null: no access log
    private final AccessLog.Format format;
    private final InstantSource clock;
    private final ZoneId zone;
    private final HandshakeLine handshake; // null without an access log
    private long startNanos;
    private volatile long messagesReceived;
    private volatile long bytesReceived;
    private volatile long messagesSent;
    private volatile long bytesSent;

    /** A session opened by {@code request}, counted in {@code counters} and logged to {@code writer} (either null for none). */
    WebSocketSessionRecorder(ExchangeRequest request, WebSocketCounters counters, AccessLogWriter writer, AccessLog.Format format,
                             InstantSource clock, ZoneId zone) {
        this.counters = counters;
        this.writer = writer;
        this.format = format;
        this.clock = clock;
        this.zone = zone;
        this.handshake = writer == null ? null : HandshakeLine.of(request); // the request is re-armed after the switch
    }

    @Override
    public void opened() {
        startNanos = System.nanoTime(); // read by ended(), on the same thread
        if (counters != null) counters.opened();
    }

    @Override
    @SuppressWarnings("NonAtomicOperationOnVolatileField") // one writer at a time: see the class comment
    public void received(int bytes) {
        messagesReceived++;
        bytesReceived += bytes;
        if (counters != null) counters.received(bytes);
    }

    @Override
    @SuppressWarnings("NonAtomicOperationOnVolatileField") // one writer at a time: see the class comment
    public void sent(int bytes) {
        messagesSent++;
        bytesSent += bytes;
        if (counters != null) counters.sent(bytes);
    }

    @Override
    public void ended(int closeCode) {
        int code = closeCode == 0 ? 1006 : closeCode;
        if (counters != null) counters.ended(code);
        if (writer != null) {
            writer.record(AccessLogLine.formatSession(format, handshake, new SessionTotals(System.nanoTime() - startNanos,
                    messagesReceived, bytesReceived, messagesSent, bytesSent, code), clock.instant(), zone));
        }
    }

    /** What a session's line tells of the session itself. */
    record SessionTotals(long durationNanos, long messagesReceived, long bytesReceived, long messagesSent, long bytesSent,
                         int closeCode) {}
}
