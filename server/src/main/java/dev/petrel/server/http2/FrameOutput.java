package dev.petrel.server.http2;

import dev.petrel.http.ByteSink;
import dev.petrel.http2.FrameWriter;
import dev.petrel.http2.Frames;
import dev.petrel.http2.HpackEncoder;
import dev.petrel.server.engine.connection.Endpoint;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one way out of an HTTP/2 connection: every frame any stream or the reader sends goes
 * through here, so frames never interleave and header blocks leave in the order the HPACK encoder
 * made them (its table is shared state with the peer's decoder).
 *
 * <p>Frames are queued under a lock and written by one thread at a time, outside it: the first
 * thread to queue frames while nobody writes becomes the writer, and writes what others queue
 * meanwhile too, in one system call per round. Ten streams answering at once on a busy
 * connection cost one write, not ten, as a flush at the end of a read does in an event-loop
 * server. A stream whose frames are queued goes on; while more than {@link #MAX_QUEUED_BYTES} wait
 * for the socket, streams wait too (within the write timeout), which is the back-pressure of a
 * client that reads slowly.
 *
 * <p>The connection's reader never waits for the lock: the frames it must answer with
 * ({@code SETTINGS} and {@code PING} acknowledgements, {@code WINDOW_UPDATE}, {@code RST_STREAM},
 * {@code GOAWAY}) go to a queue of their own, which the writer empties into each round. A reader
 * that waited behind a stream's write to a client that does not read could stop reading the very
 * frames that would let the client go on. That queue is bounded: a peer that makes the server owe
 * it more answers than {@link #MAX_PENDING_CONTROL} is flooding it.
 */
final class FrameOutput {
    /** Control frames owed to the peer before it is treated as a flood. */
    static final int MAX_PENDING_CONTROL = 1024;
    /** Bytes waiting for the socket beyond which writers wait for the round in progress. */
    static final int MAX_QUEUED_BYTES = 256 * 1024;

    /** Encodes a header block; called under the lock, in sending order. */
    interface HeaderBlock {
        void encode(HpackEncoder encoder, ByteSink block);
    }

    private final Endpoint endpoint;
    private final long waitNanos;
    private final Runnable beforeWait;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition written = lock.newCondition();
    private final HpackEncoder encoder;
    private final ByteSink block = new ByteSink(512);  // guarded by lock
    private ByteBuffer queued;                          // guarded by lock: frames waiting for the next round
    private ByteBuffer writing;                         // the writer's, outside the lock: the round being written
    private boolean roundInProgress;                    // guarded by lock
    private final ConcurrentLinkedQueue<byte[]> control = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pending = new AtomicInteger();
    private volatile int peerMaxFrameSize = Frames.DEFAULT_MAX_FRAME_SIZE;
    private volatile IOException failure;               // the write that broke the connection
    private volatile Thread deferring;                  // the reader: its stream frames wait for flush()

    /**
     * Output to {@code endpoint}; a stream waits at most {@code waitNanos} for room in the queue,
     * and runs {@code beforeWait} first.
     */
    FrameOutput(Endpoint endpoint, HpackEncoder encoder, long waitNanos, Runnable beforeWait) {
        this.endpoint = endpoint;
        this.encoder = encoder;
        this.waitNanos = waitNanos;
        this.beforeWait = beforeWait;
        int size = Frames.HEADER_LENGTH * 2 + Frames.DEFAULT_MAX_FRAME_SIZE + 512;
        this.queued = ByteBuffer.allocate(size);
        this.writing = ByteBuffer.allocate(size);
    }

    /** The largest DATA payload the peer accepts. */
    int peerMaxFrameSize() {
        return peerMaxFrameSize;
    }

    /** The peer's {@code SETTINGS_MAX_FRAME_SIZE} changed. */
    void peerMaxFrameSize(int size) {
        peerMaxFrameSize = size;
    }

    /** The peer's {@code SETTINGS_HEADER_TABLE_SIZE} changed; the encoder says so in its next block. */
    void peerHeaderTableSize(long size) {
        lock.lock();
        try {
            encoder.peerTableSizeSetting(size);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Queues a control frame; it leaves with the round in progress, or now when no round is.
     * Never waits for the lock.
     *
     * @return false when the peer already owes the server too many answers: a flood
     */
    boolean control(byte[] frame) {
        if (pending.incrementAndGet() > MAX_PENDING_CONTROL) return false;
        control.add(frame);
        trySendControl();
        return true;
    }

    /**
     * The frames {@code reader} sends for streams (their handlers running inline on it) wait in
     * the queue for {@link #flush()}, up to {@link #MAX_QUEUED_BYTES}; null: none wait.
     */
    void deferWritesOf(Thread reader) {
        deferring = reader;
    }

    /** Sends what is queued, unless a round is in progress (whose writer takes it); does not wait for others. */
    void flush() throws IOException {
        lock.lock();
        if (roundInProgress || (queued.position() == 0 && control.isEmpty())) {
            lock.unlock();
            return;
        }
        writeAndUnlock(false);
    }

    /** Sends everything queued and waits until it has been written: before closing. */
    void flushControl() throws IOException {
        lock.lock();
        writeAndUnlock(true);
        trySendControl();
    }

    /**
     * Sends a header block on {@code streamId} ({@code HEADERS} and as many {@code CONTINUATION}
     * frames as the peer's frame size needs), followed in the same write by {@code dataLength}
     * bytes of {@code DATA} whose flow-control window the caller has already taken.
     *
     * @param endStreamWithHeaders the block ends the stream (no body, or trailers)
     * @param endStreamWithData the data ends the stream
     */
    void headers(int streamId, HeaderBlock fields, boolean endStreamWithHeaders, byte[] data, int dataOffset, int dataLength,
                 boolean endStreamWithData) throws IOException {
        lock.lock();
        try {
            checkOpen();
            takeControl(); // control frames queued before this block leave before it (see takeControl)
            block.clear();
            encoder.beginBlock(block);
            fields.encode(encoder, block);
            int maxFrame = peerMaxFrameSize;
            boolean withData = dataLength > 0 || endStreamWithData;
            ensureRoom(FrameWriter.headersSize(block.length(), maxFrame) + (withData ? Frames.HEADER_LENGTH + dataLength : 0));
            FrameWriter.headers(queued, streamId, block.array(), 0, block.length(), endStreamWithHeaders, maxFrame);
            if (withData) FrameWriter.data(queued, streamId, data, dataOffset, dataLength, endStreamWithData);
        } catch (IOException | RuntimeException | Error e) {
            lock.unlock();
            throw e;
        }
        send();
    }

    /** Sends one {@code DATA} frame of at most the peer's frame size, its window already taken. */
    void data(int streamId, byte[] b, int off, int len, boolean endStream) throws IOException {
        lock.lock();
        try {
            checkOpen();
            takeControl();
            ensureRoom(Frames.HEADER_LENGTH + len);
            FrameWriter.data(queued, streamId, b, off, len, endStream);
        } catch (IOException | RuntimeException | Error e) {
            lock.unlock();
            throw e;
        }
        send();
    }

    /** With the lock held and a stream's frames queued: writes them now, or leaves them for the reader's flush. */
    private void send() throws IOException {
        if (Thread.currentThread() == deferring && queued.position() <= MAX_QUEUED_BYTES) {
            lock.unlock();
            return;
        }
        writeAndUnlock(false);
        trySendControl();
    }

    /** Whether a write failed: the connection is broken. */
    boolean failed() {
        return failure != null;
    }

    private void checkOpen() throws IOException {
        IOException broken = failure;
        if (broken != null) throw new IOException("the connection failed: " + broken.getMessage(), broken);
    }

    /**
     * With the lock held: writes what is queued, in rounds, unless a round is in progress already,
     * whose writer then takes these frames too; releases the lock. With {@code wait}, or while
     * too much is queued, waits for the rounds to write it.
     */
    private void writeAndUnlock(boolean wait) throws IOException {
        try {
            if (roundInProgress) {
                long left = waitNanos;
                if (!wait && queued.position() > MAX_QUEUED_BYTES) {
                    // a stream is about to wait: let go of the lock while the connection makes sure it may
                    lock.unlock();
                    try {
                        beforeWait.run();
                    } finally {
                        lock.lock();
                    }
                }
                while (roundInProgress && (wait || queued.position() > MAX_QUEUED_BYTES)) {
                    checkOpen();
                    if (left <= 0) throw new SocketTimeoutException("the client took no bytes within the write timeout");
                    left = written.awaitNanos(left);
                }
                checkOpen();
                if (!wait || roundInProgress) return;
            }
            roundInProgress = true;
            try {
                while (true) {
                    takeControl();
                    if (queued.position() == 0) break;
                    ByteBuffer round = queued;
                    queued = writing;
                    writing = round;
                    lock.unlock();
                    try {
                        endpoint.write(round.array(), 0, round.position());
                    } catch (IOException e) {
                        if (failure == null) failure = e;
                        throw e;
                    } finally {
                        lock.lock();
                        round.clear();
                        written.signalAll();
                    }
                }
            } finally {
                roundInProgress = false;
                written.signalAll();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting to write", e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Moves the queued control frames into the next round, under the lock: each round, and before
     * each stream frame is queued, so that frames leave in the order they were queued, control
     * frames too. A {@code SETTINGS} acknowledgement must leave before the frames its new values let out.
     */
    private void takeControl() {
        byte[] frame;
        while ((frame = control.poll()) != null) {
            pending.decrementAndGet();
            ensureRoom(frame.length);
            queued.put(frame);
        }
    }

    private void ensureRoom(int more) {
        if (queued.remaining() >= more) return;
        ByteBuffer bigger = ByteBuffer.allocate(Math.max(queued.capacity() * 2, queued.position() + more));
        queued.flip();
        bigger.put(queued);
        queued = bigger;
    }

    /**
     * Starts a round for the control frames queued, unless one is in progress (which takes them)
     * or the lock is busy (its holder looks here after letting go): called after every round,
     * for a frame queued after the round's last look.
     */
    private void trySendControl() {
        while (!control.isEmpty() && failure == null && lock.tryLock()) {
            if (roundInProgress) {
                lock.unlock(); // the round's writer looks at the control queue before it ends
                return;
            }
            try {
                writeAndUnlock(false);
            } catch (IOException e) {
                return; // noted as the failure; the reader meets the broken connection next
            }
        }
    }
}
