package dev.petrel.server.engine.connection;

import dev.petrel.http.ParseStatus;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;

/**
 * Waiting for a connection's next request head, the same for every protocol: the wait before its
 * first byte is bounded by an idle timeout the protocol gives, the head once begun by the header
 * timeout; the connection's lifecycle is told when it goes idle, when a head begins and when a
 * whole one is in. On a thread-per-connection transport the wait blocks; on an event loop it
 * never does, returns {@link Progress#WAITING} when nothing more has arrived, and goes on where
 * it stopped when called again.
 */
public final class HeadWait {
    /** No idle timeout: wait as long as the peer keeps the connection (a front end's pool). */
    public static final long FOREVER = TimeUnit.DAYS.toNanos(365);

    /** Where reading toward the next head stands. */
    public enum Progress {
        /** A whole head is parsed and ready. */
        COMPLETE,
        /** Nothing more has arrived and the endpoint waits without a thread. */
        WAITING,
        /** The head is invalid: the protocol answers with its parser's status and closes. */
        REJECTED,
        /** A head was begun but not finished within the header timeout. */
        TIMED_OUT,
        /** The peer closed, the connection idled out or is draining: close without a word. */
        ENDED
    }

    /** The protocol's head parser, over what the connection's input holds. */
    public interface Parser {
        /** Forgets the last head. */
        void reset();

        /** Parses what is buffered: {@code NEED_MORE}, {@code COMPLETE} or {@code ERROR}. */
        ParseStatus parse() throws IOException;
    }

    private final ConnectionLifecycle lifecycle;
    private final ConnectionInput input;
    private final long headerTimeoutNanos;
    private boolean awaiting;
    private ParseStatus status = ParseStatus.NEED_MORE;
    private long idleDeadline;  // nanoTime by which the next head must begin
    private long headDeadline;  // nanoTime by which a begun head must be complete; 0 before its first byte
    private boolean readinessReported; // the transport saw the socket readable
    private boolean servingOnLoop;     // the wait runs inline on an event loop

    public HeadWait(ConnectionLifecycle lifecycle, ConnectionInput input, long headerTimeoutNanos) {
        this.lifecycle = lifecycle;
        this.input = input;
        this.headerTimeoutNanos = headerTimeoutNanos;
    }

    /**
     * Takes in bytes toward the next head until it is complete, invalid, timed out or the
     * connection ended; a new wait begins, with {@code idleNanos} for the head to begin, when the
     * last head was {@linkplain #taken() taken}. With {@code mayWait} false it never blocks.
     */
    public Progress await(boolean mayWait, long idleNanos, Parser parser) throws IOException {
        if (!awaiting) {
            parser.reset();
            status = ParseStatus.NEED_MORE;
            long now = System.nanoTime();
            if (!lifecycle.enterIdle(now)) return Progress.ENDED;
            awaiting = true;
            headDeadline = 0;
            idleDeadline = now + Math.min(idleNanos, FOREVER);
        }
        while (true) {
            if (status == ParseStatus.NEED_MORE && input.hasRemaining()) {
                boolean firstBytes = headDeadline == 0;
                if (firstBytes) headDeadline = System.nanoTime() + headerTimeoutNanos;
                status = parser.parse();
                // one lock per request in the usual case, where the head arrives whole: idle, then busy
                if (status == ParseStatus.COMPLETE) {
                    if (!lifecycle.beginExchange()) return Progress.ENDED;
                } else if (firstBytes && status == ParseStatus.NEED_MORE) {
                    if (!lifecycle.headBegun()) return Progress.ENDED;
                }
            }
            if (status == ParseStatus.COMPLETE) return Progress.COMPLETE;
            if (status == ParseStatus.ERROR) return Progress.REJECTED;
            long remaining = wakeDeadline() - System.nanoTime();
            if (remaining <= 0) return timedOut();
            int n;
            if (mayWait) {
                try {
                    n = input.fill(Timeouts.millis(remaining));
                } catch (SocketTimeoutException e) {
                    return timedOut(); // the endpoint waited until the deadline
                }
            } else {
                // On the loop, a read that left the socket dry needs no second look: the loop's selector
                // watches for more. A worker looks once more, since a request found now saves the
                // hand-back to the loop (measured: skipping it there made same-CPU latency worse).
                boolean dry = servingOnLoop && !readinessReported && input.drained();
                // served once more because the server closed it while it waited (ProtocolConnection.servesOnceClosed)
                if (dry && lifecycle.closedByServer()) return Progress.ENDED;
                n = dry ? 0 : input.fillAvailable();
                if (n == 0) {
                    input.settle(); // the parser took every byte: wait without a large buffer
                    return Progress.WAITING;
                }
            }
            if (n < 0) return Progress.ENDED; // peer closed, between requests or inside a head: nothing to answer
        }
    }

    /** Idle past the timeout: close quietly (RFC 9112 section 9.5); inside a head: timed out. */
    private Progress timedOut() {
        return headDeadline != 0 ? Progress.TIMED_OUT : Progress.ENDED;
    }

    /** The head was taken (to serve, or to refuse): the next {@link #await} begins a new wait. */
    public void taken() {
        awaiting = false;
    }

    /** Whether a whole head is in and not taken yet: a request handed back for the transport to run elsewhere. */
    public boolean complete() {
        return awaiting && status == ParseStatus.COMPLETE;
    }

    /** When the transport must come back even if nothing arrives: the head's deadline once begun, else the idle one. */
    public long wakeDeadline() {
        return headDeadline != 0 ? headDeadline : idleDeadline;
    }

    /** Whether the waits run inline on an event loop (see {@link #await}). */
    public void servingOnLoop(boolean onLoop) {
        this.servingOnLoop = onLoop;
    }

    /** Inside a transport's poll: the socket is readable, so read however dry the last read left it. */
    public void readinessReported(boolean reported) {
        this.readinessReported = reported;
    }
}
