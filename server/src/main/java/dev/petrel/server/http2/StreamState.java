package dev.petrel.server.http2;

import dev.petrel.http.HeaderFields;
import dev.petrel.http.HeaderFieldsBuilder;
import dev.petrel.http2.Http2Error;
import dev.petrel.http2.Http2ErrorCode;
import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * One stream of an HTTP/2 connection as the server sees it (RFC 9113 section 5.1): the request
 * body the client sends on it, buffered until the handler reads it and bounded by the stream's
 * receive window, and whether either side has ended it or reset it.
 *
 * <p>Its state is section 5.1's, past idle (a server that never pushes has no reserved streams):
 * {@link State#OPEN}, half closed by the client's END_STREAM or by the response's last frame,
 * and {@link State#CLOSED} once both have ended or either side reset it. The state changes under
 * this object's monitor and is read without it.
 *
 * <p>The connection's reader puts frames in; the stream's handler takes the body out on its own
 * thread; the two meet on this object's monitor. The send window is kept here but guarded by
 * {@link SendWindows}.
 */
final class StreamState {
    /** RFC 9113 section 5.1's states of a stream the client opened. */
    enum State {
        /** Both sides may send. */
        OPEN,
        /** The client ended its side (END_STREAM); the response may still be sent. */
        HALF_CLOSED_REMOTE,
        /** The response has ended; the client may still send its body. */
        HALF_CLOSED_LOCAL,
        /** Both sides have ended, or either side reset it ({@link #resetCode()} says why). */
        CLOSED
    }

    final int id;
    /** The request's header fields, decoded by the reader before the handler starts. */
    final HeaderFieldsBuilder fields = new HeaderFieldsBuilder(256);
    /** What the peer still lets this stream send; guarded by {@link SendWindows}. */
    int sendWindow;

    private final ArrayDeque<byte[]> chunks = new ArrayDeque<>(); // guarded by this
    private int chunkOffset;          // guarded by this: read position in the first chunk
    private int buffered;             // guarded by this: body bytes received, not read
    private int receiveWindow;        // guarded by this: what the client may still send
    private int unacknowledged;       // guarded by this: bytes read, not yet given back by WINDOW_UPDATE
    private long received;            // guarded by this: body bytes received in all
    private long declaredLength = -1; // content-length, or -1
    private volatile State state = State.OPEN; // written under this
    private boolean malformed;        // guarded by this: the body broke the request's rules; a reset follows
    private HeaderFieldsBuilder trailerFields; // guarded by this
    private volatile Http2ErrorCode reset;     // why the stream was reset, by either side; written under this
    private volatile boolean resetByPeer;      // the client's RST_STREAM did it
    private boolean uncounted;                 // guarded by this: no longer counted against the concurrent stream limit
    private boolean exchangeOver;              // guarded by this: its handler is done
    private boolean released;                  // guarded by this: taken out of the connection's table of streams
    private volatile boolean inline;           // its handler runs on the connection's reader

    StreamState(int id, int receiveWindow) {
        this.id = id;
        this.receiveWindow = receiveWindow;
    }

    /** Its handler runs inline on the connection's reader, as on an event loop: it must never wait for the client. */
    void runsInline() {
        inline = true;
    }

    /** Whether its handler runs inline on the connection's reader. */
    boolean isInline() {
        return inline;
    }

    /** The request's declared body length, from {@code content-length}, to check the DATA against. */
    void declaredLength(long length) {
        this.declaredLength = length;
    }

    // ---- the reader's side ----

    /**
     * Body bytes from a {@code DATA} frame: {@code length} bytes of data in a frame of
     * {@code flowLength} (padding counts against the window too).
     *
     * @return null, or the stream error to reset it with
     */
    synchronized Http2Error data(byte[] b, int off, int length, int flowLength, boolean endStream) {
        if (remoteClosed()) return Http2Error.stream(Http2ErrorCode.STREAM_CLOSED, id, "DATA after the end of the stream");
        receiveWindow -= flowLength;
        if (receiveWindow < 0) return Http2Error.stream(Http2ErrorCode.FLOW_CONTROL_ERROR, id, "DATA beyond the stream's window");
        received += length;
        if (declaredLength >= 0 && received > declaredLength) {
            return malformed("more DATA than content-length");
        }
        if (length > 0) {
            chunks.add(Arrays.copyOfRange(b, off, off + length));
            buffered += length;
        }
        if (endStream) return endOfBody();
        notifyAll();
        return null;
    }

    /** The trailer section ended the request. */
    synchronized Http2Error trailers(HeaderFieldsBuilder trailers) {
        if (remoteClosed()) return Http2Error.stream(Http2ErrorCode.STREAM_CLOSED, id, "HEADERS after the end of the stream");
        trailerFields = trailers;
        return endOfBody();
    }

    /** The request ended with its headers: no body. */
    synchronized void endedWithHeaders() {
        endRemote();
        notifyAll();
    }

    private Http2Error endOfBody() {
        if (declaredLength >= 0 && received != declaredLength) return malformed("less DATA than content-length");
        endRemote();
        notifyAll();
        return null;
    }

    /**
     * The body broke the request's framing (section 8.1.1): the connection resets the stream with
     * the error returned, and until then the handler's read already fails as if it had, rather than
     * taking a body cut short for a whole one.
     */
    private Http2Error malformed(String why) {
        malformed = true;
        notifyAll();
        return Http2Error.stream(Http2ErrorCode.PROTOCOL_ERROR, id, why);
    }

    /** The client ended its side: open becomes half closed (remote), half closed (local) closed. */
    private void endRemote() {
        if (state == State.OPEN) state = State.HALF_CLOSED_REMOTE;
        else if (state == State.HALF_CLOSED_LOCAL) state = State.CLOSED;
    }

    /** Whether both sides ended it with END_STREAM, neither resetting it: closed, as section 5.1 names it. */
    boolean endedByBoth() {
        return state == State.CLOSED && reset == null;
    }

    /** Whether the client sends no more on it: it ended its side, or the stream was reset. */
    boolean remoteClosed() {
        State now = state;
        return now == State.HALF_CLOSED_REMOTE || now == State.CLOSED;
    }

    /**
     * Resets the stream; the first reason stands. Returns whether this call reset it. Body bytes
     * buffered and unread are returned for the connection's window.
     */
    int resetAndDiscard(Http2ErrorCode code) {
        synchronized (this) {
            if (reset != null) return -1;
            reset = code;
            state = State.CLOSED;
            int discarded = buffered;
            chunks.clear();
            buffered = 0;
            notifyAll();
            return discarded;
        }
    }

    /** Drops the body bytes received and never read, once the exchange is over; returns how many, for the connection's window. */
    synchronized int discardUnread() {
        int discarded = buffered;
        chunks.clear();
        chunkOffset = 0;
        buffered = 0;
        return discarded;
    }

    /**
     * The client reset the stream ({@code RST_STREAM}); as {@link #resetAndDiscard}. From then on
     * any frame but {@code PRIORITY} on it is an error of the client's (RFC 9113 section 5.1).
     */
    int resetByPeer(Http2ErrorCode code) {
        synchronized (this) {
            int discarded = resetAndDiscard(code);
            if (discarded >= 0) resetByPeer = true;
            return discarded;
        }
    }

    boolean isReset() {
        return reset != null;
    }

    /** Whether the client reset it (rather than the server): see {@link #resetByPeer}. */
    boolean isResetByPeer() {
        return resetByPeer;
    }

    Http2ErrorCode resetCode() {
        return reset;
    }

    // ---- the handler's side ----

    /**
     * Moves buffered body bytes into {@code b}.
     *
     * @return bytes moved; 0 when none are here yet; -1 at the body's end; -2 when the stream was reset
     */
    synchronized int take(byte[] b, int off, int len) {
        if (reset != null || malformed) return -2;
        if (buffered == 0) return remoteClosed() ? -1 : 0;
        int moved = 0;
        while (moved < len && !chunks.isEmpty()) {
            byte[] chunk = chunks.peek();
            int n = Math.min(len - moved, chunk.length - chunkOffset);
            System.arraycopy(chunk, chunkOffset, b, off + moved, n);
            moved += n;
            chunkOffset += n;
            if (chunkOffset == chunk.length) {
                chunks.poll();
                chunkOffset = 0;
            }
        }
        buffered -= moved;
        return moved;
    }

    /**
     * Waits up to {@code timeoutMillis} for body bytes or the body's end.
     *
     * @return the bytes there are to take (0 at the body's end), which the body's minimum rate
     *         counts as received; -1 when the stream was reset meanwhile
     * @throws SocketTimeoutException when nothing came in time
     */
    synchronized int await(int timeoutMillis) throws SocketTimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (buffered == 0 && !remoteClosed() && !malformed) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) throw new SocketTimeoutException("no DATA within " + timeoutMillis + " ms");
            wait(left);
        }
        return reset != null || malformed ? -1 : buffered;
    }

    /**
     * The handler read {@code n} bytes: they go back to the client's window for this stream once
     * half of it is used.
     *
     * @return the increment to send in a {@code WINDOW_UPDATE} for the stream now, or 0
     */
    synchronized int consumed(int n, int initialWindow) {
        if (remoteClosed()) return 0; // the client sends no more on it
        unacknowledged += n;
        if (unacknowledged < initialWindow / 2) return 0;
        int increment = unacknowledged;
        receiveWindow += increment;
        unacknowledged = 0;
        return increment;
    }

    /** The trailer fields that ended the body, or none. */
    synchronized HeaderFields trailerFields() {
        return trailerFields == null ? HeaderFields.empty() : trailerFields.fields();
    }

    /** The body bytes received so far, read or not. */
    synchronized long received() {
        return received;
    }

    /**
     * Whether the client may still end the body within the window it was already given, once
     * nobody reads it: some window is left and, when the length was declared, the rest fits in it.
     * Those bytes may be on the wire already, so taking them in costs nothing more than asking the
     * client to stop, and the stream then ends cleanly, its trailers checked by section 8.1's rules.
     */
    synchronized boolean restFitsWindow() {
        if (receiveWindow <= 0) return false;
        return declaredLength < 0 || declaredLength - received <= receiveWindow;
    }

    /**
     * The response's last frame is about to leave; returns whether that closes the stream (the
     * client had ended its side), so that it no longer counts against the stream limit. Called
     * before the frame is written: a client that sees the end may open its next stream at once.
     */
    synchronized boolean endResponse() {
        if (state == State.OPEN) state = State.HALF_CLOSED_LOCAL;
        else if (state == State.HALF_CLOSED_REMOTE) state = State.CLOSED;
        return closeIfBothEnded();
    }

    /** Stops counting the stream once both sides have ended it; returns whether this call did (section 5.1). */
    synchronized boolean closeIfBothEnded() {
        if (state != State.CLOSED || reset != null) return false; // a reset stream stops counting when released
        return close();
    }

    /** Stops counting the stream against the concurrent stream limit, whatever its state; returns whether this call did. */
    synchronized boolean close() {
        if (uncounted) return false;
        uncounted = true;
        return true;
    }

    /**
     * Its exchange is over. Returns whether the stream is done with (reset, or ended by the
     * client too), and so leaves the connection's table now; otherwise its response is complete
     * and it stays half closed (local) until the client ends or resets it (section 5.1), and
     * {@link #releasable()} says when. Either way only one caller is told to take it out.
     */
    synchronized boolean endExchange() {
        exchangeOver = true;
        return releasable();
    }

    /**
     * Whether the stream leaves the connection's table now: its exchange is over and the client
     * ended or reset it, or the server reset it. True once, for whichever thread sees it first.
     */
    synchronized boolean releasable() {
        if (released || !exchangeOver || !remoteClosed()) return false;
        released = true;
        return true;
    }

    /** Whether its exchange is over: no handler reads its body any longer. */
    synchronized boolean isExchangeOver() {
        return exchangeOver;
    }

    /** Whether the response has ended (its last frame is leaving or has left), or the stream was reset. */
    boolean isResponseEnded() {
        State now = state;
        return now == State.HALF_CLOSED_LOCAL || now == State.CLOSED;
    }
}
