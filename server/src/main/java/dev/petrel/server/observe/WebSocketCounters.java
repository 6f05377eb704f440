package dev.petrel.server.observe;

import dev.petrel.server.WebSocketMetrics;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters behind one connector's {@link WebSocketMetrics}, bumped by each session's
 * {@link WebSocketSessionRecorder}. Messages and bytes are added as each message goes, not at the
 * session's end, so that a session lasting hours shows its traffic while it lasts (a rate over
 * them would otherwise jump when it closes). A {@link LongAdder} takes that without contention
 * between sessions on different threads, for an uncontended add per message beside the frame's
 * decoding and its write; it allocates only when two threads first collide on it.
 */
final class WebSocketCounters implements WebSocketMetrics {
    private final LongAdder opened = new LongAdder();
    private final LongAdder ended = new LongAdder();
    private final LongAdder messagesReceived = new LongAdder();
    private final LongAdder messagesSent = new LongAdder();
    private final LongAdder bytesReceived = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();
    private final LongAdder[] closes = new LongAdder[CLOSE_CODES.size() + 1]; // the last: any other code

    WebSocketCounters() {
        for (int i = 0; i < closes.length; i++) closes[i] = new LongAdder();
    }

    // ---- counting ----

    void opened() {
        opened.increment();
    }

    void received(int bytes) {
        messagesReceived.increment();
        bytesReceived.add(bytes);
    }

    void sent(int bytes) {
        messagesSent.increment();
        bytesSent.add(bytes);
    }

    void ended(int closeCode) {
        closes[closeIndex(closeCode)].increment();
        ended.increment();
    }

    /** Where {@code code} is counted: its place in {@link #CLOSE_CODES}, or the last for any other. */
    private static int closeIndex(int code) {
        return switch (code) {
            case 1000 -> 0;
            case 1001 -> 1;
            case 1002 -> 2;
            case 1003 -> 3;
            case 1005 -> 4;
            case 1006 -> 5;
            case 1007 -> 6;
            case 1008 -> 7;
            case 1009 -> 8;
            case 1011 -> 9;
            default -> CLOSE_CODES.size();
        };
    }

    // ---- reading ----

    @Override
    public long sessionsOpened() {
        return opened.sum();
    }

    @Override
    public long sessionsOpen() {
        return Math.max(0, opened.sum() - ended.sum()); // read apart: an end may be seen before its open
    }

    @Override
    public long messagesReceived() {
        return messagesReceived.sum();
    }

    @Override
    public long messagesSent() {
        return messagesSent.sum();
    }

    @Override
    public long bytesReceived() {
        return bytesReceived.sum();
    }

    @Override
    public long bytesSent() {
        return bytesSent.sum();
    }

    @Override
    public long closes(int code) {
        int i = closeIndex(code);
        if (i == CLOSE_CODES.size()) throw new IllegalArgumentException("close code " + code + " is not counted apart: see closesOther()");
        return closes[i].sum();
    }

    @Override
    public long closesOther() {
        return closes[CLOSE_CODES.size()].sum();
    }
}
