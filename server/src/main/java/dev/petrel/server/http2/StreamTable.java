package dev.petrel.server.http2;

import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The streams of one connection: those open or half closed (RFC 9113 section 5.1), found by id;
 * how many count against {@code SETTINGS_MAX_CONCURRENT_STREAMS}; how many run an exchange, which
 * keeps the connection busy; and the highest stream the client has opened. The reader adds
 * streams; the reader and the streams' handlers take them out, each stream once.
 */
final class StreamTable {
    // open or half closed: those whose exchange runs, and those answered whose client has not ended them
    // yet (half closed, local), which stay for the state machine and the windows until it does
    private final ConcurrentHashMap<Integer, StreamState> streams = new ConcurrentHashMap<>();
    // counted against SETTINGS_MAX_CONCURRENT_STREAMS: open or half closed (section 5.1.2), and reset ones
    // until their handler is done, so that resetting streams never frees room for more work
    private final AtomicInteger counted = new AtomicInteger();
    private final AtomicInteger exchanges = new AtomicInteger(); // streams whose exchange runs: the connection is busy
    private volatile int lastStreamId; // the highest stream the client opened
    private volatile long idleSince = System.nanoTime();

    /** The stream {@code id}, or null when it is idle or closed and gone. */
    StreamState get(int id) {
        return streams.get(id);
    }

    /** Every stream in the table. */
    Collection<StreamState> all() {
        return streams.values();
    }

    /** Whether {@code id} names a stream the client has not opened yet (or one it could never open: even). */
    boolean idle(int id) {
        return id > lastStreamId || (id & 1) == 0;
    }

    /** The client opens stream {@code id}, the highest so far, whether or not it will be served. */
    void opening(int id) {
        lastStreamId = id;
    }

    /** The highest stream the client has opened. */
    int lastStreamId() {
        return lastStreamId;
    }

    /** Whether {@code max} streams count already: a new one is refused. */
    boolean full(int max) {
        return counted.get() >= max;
    }

    /** {@code stream} is served: counted, busy, and in the table. */
    void add(StreamState stream) {
        counted.incrementAndGet();
        exchanges.incrementAndGet();
        streams.put(stream.id, stream);
    }

    /** The response on {@code stream} is about to send its last frame: it stops counting when the client had ended its side. */
    void responseEnding(StreamState stream) {
        if (stream.endResponse()) counted.decrementAndGet();
    }

    /** The client ended its side of {@code stream}: it stops counting when the response has ended too, and leaves when done. */
    void remoteEnded(StreamState stream) {
        if (stream.closeIfBothEnded()) counted.decrementAndGet();
        releaseIfDone(stream);
    }

    /** Takes {@code stream} out once it is closed and its exchange over (see {@link StreamState#releasable}). */
    void releaseIfDone(StreamState stream) {
        if (stream.releasable()) release(stream);
    }

    /**
     * {@code stream}'s exchange is over; {@code done}: the stream is done with as well, and leaves.
     *
     * @return whether no exchange runs any longer: the connection is idle
     */
    boolean exchangeOver(StreamState stream, boolean done) {
        if (done) release(stream);
        if (exchanges.decrementAndGet() != 0) return false;
        idleSince = System.nanoTime();
        return true;
    }

    private void release(StreamState stream) {
        if (stream.close()) counted.decrementAndGet();
        streams.remove(stream.id);
    }

    /** Whether no exchange runs. */
    boolean noExchanges() {
        return exchanges.get() == 0;
    }

    /** The {@link System#nanoTime()} the last exchange ended at, or the connection opened. */
    long idleSince() {
        return idleSince;
    }
}
