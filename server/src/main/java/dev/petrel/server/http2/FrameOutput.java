package dev.petrel.server.http2;

import dev.petrel.http.ByteSink;
import dev.petrel.http2.FrameWriter;
import dev.petrel.http2.Frames;
import dev.petrel.http2.HpackEncoder;
import dev.petrel.server.engine.Endpoint;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one way out of an HTTP/2 connection: every frame any stream or the reader sends goes
 * through here, one writer at a time, so frames never interleave and header blocks leave in the
 * order the HPACK encoder made them (its table is shared state with the peer's decoder).
 *
 * <p>Streams write under the lock, waiting for the socket as any response does (within the write
 * limits of the endpoint). The connection's reader never waits for the lock: the frames it must
 * answer with ({@code SETTINGS} and {@code PING} acknowledgements, {@code WINDOW_UPDATE},
 * {@code RST_STREAM}, {@code GOAWAY}) are queued, and whoever holds the lock sends them before
 * letting go. A reader that waited behind a stream's write to a client that does not read could
 * stop reading the very frames that would let the client go on. The queue is bounded: a peer that
 * makes the server owe it more answers than {@link #MAX_PENDING_CONTROL} is flooding it.
 */
final class FrameOutput {
    /** Control frames owed to the peer before it is treated as a flood. */
    static final int MAX_PENDING_CONTROL = 1024;

    /** Encodes a header block; called under the lock, in sending order. */
    interface HeaderBlock {
        void encode(HpackEncoder encoder, ByteSink block);
    }

    private final Endpoint endpoint;
    private final ReentrantLock lock = new ReentrantLock();
    private final HpackEncoder encoder;
    private final ByteSink block = new ByteSink(512);           // guarded by lock
    private ByteBuffer out;                                      // guarded by lock
    private final ConcurrentLinkedQueue<byte[]> control = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pending = new AtomicInteger();
    private volatile int peerMaxFrameSize = Frames.DEFAULT_MAX_FRAME_SIZE;
    private volatile IOException failure;                        // the write that broke the connection

    FrameOutput(Endpoint endpoint, HpackEncoder encoder) {
        this.endpoint = endpoint;
        this.encoder = encoder;
        this.out = ByteBuffer.allocate(Frames.HEADER_LENGTH * 2 + Frames.DEFAULT_MAX_FRAME_SIZE + 512);
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
     * Queues a control frame and sends it now unless another thread holds the output, which then
     * sends it before letting go. Never waits for the socket or for the lock.
     *
     * @return false when the peer already owes the server too many answers: a flood
     */
    boolean control(byte[] frame) {
        if (pending.incrementAndGet() > MAX_PENDING_CONTROL) return false;
        control.add(frame);
        trySendControl();
        return true;
    }

    /** Sends the queued control frames now, waiting for the lock and the socket: before closing. */
    void flushControl() throws IOException {
        lock.lock();
        try {
            out.clear();
            takeControl();
            send();
        } finally {
            unlockAndSendRest();
        }
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
            block.clear();
            encoder.beginBlock(block);
            fields.encode(encoder, block);
            int maxFrame = peerMaxFrameSize;
            int size = FrameWriter.headersSize(block.length(), maxFrame)
                    + (dataLength > 0 || endStreamWithData ? Frames.HEADER_LENGTH + dataLength : 0);
            out.clear();
            takeControl();
            ensureRoom(size);
            FrameWriter.headers(out, streamId, block.array(), 0, block.length(), endStreamWithHeaders, maxFrame);
            if (dataLength > 0 || endStreamWithData) FrameWriter.data(out, streamId, data, dataOffset, dataLength, endStreamWithData);
            send();
        } finally {
            unlockAndSendRest();
        }
    }

    /** Sends one {@code DATA} frame of at most the peer's frame size, its window already taken. */
    void data(int streamId, byte[] b, int off, int len, boolean endStream) throws IOException {
        lock.lock();
        try {
            checkOpen();
            out.clear();
            takeControl();
            ensureRoom(Frames.HEADER_LENGTH + len);
            FrameWriter.data(out, streamId, b, off, len, endStream);
            send();
        } finally {
            unlockAndSendRest();
        }
    }

    /** Whether a write failed: the connection is broken. */
    boolean failed() {
        return failure != null;
    }

    private void checkOpen() throws IOException {
        IOException broken = failure;
        if (broken != null) throw new IOException("the connection failed: " + broken.getMessage(), broken);
    }

    /** Moves the queued control frames into {@link #out}, under the lock. */
    private void takeControl() {
        byte[] frame;
        while ((frame = control.poll()) != null) {
            pending.decrementAndGet();
            ensureRoom(frame.length);
            out.put(frame);
        }
    }

    private void ensureRoom(int more) {
        if (out.remaining() >= more) return;
        ByteBuffer bigger = ByteBuffer.allocate(Math.max(out.capacity() * 2, out.position() + more));
        out.flip();
        bigger.put(out);
        out = bigger;
    }

    private void send() throws IOException {
        if (out.position() == 0) return;
        try {
            endpoint.write(out.array(), 0, out.position());
        } catch (IOException e) {
            if (failure == null) failure = e;
            throw e;
        } finally {
            out.clear();
        }
    }

    private void trySendControl() {
        while (!control.isEmpty() && failure == null && lock.tryLock()) {
            try {
                out.clear();
                takeControl();
                send();
            } catch (IOException e) {
                return; // noted as the failure; the reader meets the broken connection next
            } finally {
                lock.unlock();
            }
        }
    }

    /** Lets go of the output; control frames queued while this thread held it go out first. */
    private void unlockAndSendRest() {
        try {
            if (!control.isEmpty() && failure == null) {
                out.clear();
                takeControl();
                send();
            }
        } catch (IOException e) {
            // noted as the failure
        } finally {
            lock.unlock();
        }
        trySendControl(); // one queued after the look above
    }
}
