package dev.petrel.server.websocket;

import dev.petrel.server.WebSocket;
import dev.petrel.server.WebSocketMessage;
import dev.petrel.server.config.WebSocketConfig;
import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.connection.ResourceCounters;
import dev.petrel.server.engine.exchange.WebSocketSessionObserver;
import dev.petrel.websocket.CloseCodes;
import dev.petrel.websocket.MessageDecoder;
import dev.petrel.websocket.MessageEncoder;
import dev.petrel.websocket.MessageSink;
import dev.petrel.websocket.PerMessageDeflate;
import dev.petrel.websocket.WebSocketException;
import dev.petrel.websocket.WebSocketLimits;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One WebSocket session over an endpoint: the handler's thread reads and decodes frames in
 * {@link #receive()}, answering pings and the client's close on the way; any thread sends, one
 * whole frame at a time under a lock, blocking while the client does not read. The server closes
 * the TCP connection once the close handshake is done (RFC 6455 section 7.1.1).
 *
 * <p>Every frame written, the pongs the reading thread answers with included, must be out within
 * the route's send timeout: the {@link SessionWatch} resets the connection under one that is not,
 * which ends the session with {@code 1008}. So a client that does not read holds no thread, and no
 * more than a frame and the socket's buffers, for longer than that.
 *
 * <p>A listener's session on an event loop ({@link #queueOutput()}) never waits to send: the loop
 * serves other connections meanwhile. What the socket does not take at once is queued
 * ({@link SessionOutput}) and the loop sends it when the socket has room, reading nothing from the
 * client until it is out, so that a client that does not read cannot make the session queue more
 * than its listener sends for one message. The send timeout holds for the queue as for a frame:
 * each queued frame must be out within it. A thread that may wait (not an event loop's) and finds
 * more than {@link #queueLimit} bytes queued waits for room, as a blocking send would; an event
 * loop's thread, which must not wait, ends the session with {@code 1008} instead.
 */
final class WebSocketSession implements WebSocket {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.websocket");
    /** How long the server waits for the client's close after its own, or for the client to end the connection. */
    private static final int CLOSE_LINGER_MILLIS = 2_000;
    private static final int CLOSE_LINGER_BYTES = 1 << 20;

    private final Endpoint endpoint;
    private final HandshakeRequest handshake;
    private final int idleMillis;
    private final PerMessageDeflate deflate; // null: not negotiated
    private final MessageDecoder decoder;
    private final MessageEncoder encoder; // used under sendLock only: its compressor keeps context between messages
    private final WebSocketSessionObserver observer; // told of each data message, sent under sendLock
    private final ReentrantLock sendLock = new ReentrantLock();
    // The listener style's queue (see the class comment), guarded by sendLock. What is allocated only
    // when a send finds the socket full, and dropped once the queue is out: an idle session pays nothing for it.
    private boolean queueMode; // false: every send writes through, waiting for the socket
    private SessionOutput output; // null while nothing is queued
    private Condition outputRoom; // a waiting sender's: the queue went under its limit, or failed
    private boolean outputFailed; // the queue can never be sent
    private volatile boolean outputQueued; // read by the loop, which watches the socket for room while set
    private final int queueLimit;
    private final SessionClock clock;
    private final ArrayDeque<WebSocketMessage> received = new ArrayDeque<>();
    private final Sink sink = new Sink();
    private final SessionReadBuffer readBuffer = new SessionReadBuffer();
    private volatile boolean inputEnded; // read by isOpen() from any thread; the client's close came, the connection ended, or the session failed
    private volatile boolean closeSent;
    private volatile int closeCode; // 0 while open
    private final AtomicBoolean lingering = new AtomicBoolean();
    private volatile boolean ended;
    private boolean lastReadShort; // the listener style: see readDry()
    private long lastInputNanos = System.nanoTime(); // the listener style's idle clock; the blocking style's read times out itself

    WebSocketSession(Endpoint endpoint, HandshakeRequest handshake, WebSocketConfig config, PerMessageDeflate deflate,
                     WebSocketSessionObserver observer) {
        this.endpoint = endpoint;
        this.observer = observer;
        this.handshake = handshake;
        this.idleMillis = (int) Math.min(config.idleTimeout().toMillis(), Integer.MAX_VALUE);
        this.deflate = deflate;
        WebSocketLimits limits = new WebSocketLimits(config.maxMessageSize(), config.maxMessageSize());
        this.decoder = new MessageDecoder(limits, false, deflate);
        this.encoder = new MessageEncoder(false, deflate);
        this.clock = new SessionClock(config.sendTimeout(), config.pingInterval(), endpoint::reset, this::keepAlive);
        this.queueLimit = Math.max(1 << 20, config.maxMessageSize());
    }

    /**
     * The listener style on an event loop: sends never wait; what the socket does not take is
     * queued for the loop to send (see the class comment). Only on an endpoint that
     * {@linkplain Endpoint#writesWithoutWaiting() writes without waiting}; on another, sends wait as
     * in the blocking style. Before the session starts.
     */
    void queueOutput() {
        queueMode = endpoint.writesWithoutWaiting();
    }

    /** Whether output is queued that the socket has not taken yet: the loop watches for room, and the session reads nothing. */
    boolean outputQueued() {
        return outputQueued;
    }

    /**
     * On the loop, when the socket has room: writes what is queued while the socket takes it.
     *
     * @return true when nothing is left queued
     * @throws IOException when the connection failed (the session is then ended with its code)
     */
    boolean flushOutput() throws IOException {
        if (!outputQueued) return true;
        sendLock.lock();
        try {
            if (output == null) return true;
            int frames = output.frames();
            boolean done;
            try {
                done = output.flush(endpoint);
            } catch (IOException e) {
                throw sendFailed(e);
            }
            if (outputRoom != null && output.bytes() <= queueLimit) outputRoom.signalAll();
            if (done) {
                output = null;
                outputQueued = false;
                clock.sendDone();
            } else if (output.frames() < frames) {
                clock.sendStarting(); // a frame is out: the next one has the send timeout from now
            }
            return done;
        } finally {
            sendLock.unlock();
        }
    }

    /** Has the {@link SessionWatch} enforce the send timeout and the keep-alive pings, until {@link #end()}. */
    void watch() {
        SessionWatch.SHARED.watch(clock);
    }

    @Override
    public WebSocketMessage receive() throws IOException {
        while (true) {
            WebSocketMessage next = received.poll();
            if (next != null) return next;
            if (inputEnded) return null;
            if (!readBuffer.input().hasRemaining() && !fill()) continue;
            decodeInput();
        }
    }

    /**
     * The listener style, on the event loop: the next whole message among the bytes that have
     * arrived, reading more without waiting; null when none is whole yet or the input has ended
     * (see {@link #inputEnded()}).
     */
    WebSocketMessage receiveAvailable() throws IOException {
        while (true) {
            WebSocketMessage next = received.poll();
            if (next != null) return next;
            if (inputEnded) return null;
            if (!readBuffer.input().hasRemaining() && (readDry() || !fillAvailable())) return null;
            decodeInput();
        }
    }

    /**
     * The listener style, on the event loop while the session waits: takes in what has arrived,
     * without decoding it (decoding answers pings, and this may not write); whether there is
     * anything to serve now.
     */
    boolean pollInput() throws IOException {
        if (inputEnded || readBuffer.input().hasRemaining()) return true;
        boolean arrived = fillAvailable();
        return arrived || inputEnded; // inputEnded: the client went
    }

    /** The listener style on an event loop, read there alone: reads go into the loop's buffer, not one of the session's. */
    void readOnLoop() {
        readBuffer.shareLoopBuffer();
    }

    /** Whether the session reads nothing more: the client's close came, the connection ended, or the session failed. */
    boolean inputEnded() {
        return inputEnded;
    }

    /** The {@link System#nanoTime()} at which the session is idle past its timeout, unless more arrives. */
    long idleDeadline() {
        return lastInputNanos + idleMillis * 1_000_000L;
    }

    /** The listener style: nothing arrived for the idle timeout; closes with 1001 (going away). */
    void timeOut() {
        closeAndLinger(CloseCodes.GOING_AWAY, "idle timeout");
    }

    private void decodeInput() throws IOException {
        try {
            if (!decoder.decode(readBuffer.input(), sink)) inputEnded = true; // a close frame: nothing follows it
        } catch (WebSocketException e) {
            fail(e.closeCode(), e.getMessage());
        }
    }

    /**
     * Whether the last read without waiting took everything there was: it read less than it had
     * room for, and the endpoint holds nothing of its own (a TLS endpoint may hold a further
     * record). Until the loop sees the socket readable again another read would find nothing: a
     * system call a message saved, as Netty and the HTTP/1.1 engine decide it.
     */
    private boolean readDry() {
        return lastReadShort && !endpoint.hasBufferedInput();
    }

    /** Reads what has arrived without waiting; false when nothing has, or the input ended instead. */
    private boolean fillAvailable() throws IOException {
        ByteBuffer in = readBuffer.startRead();
        int room = in.remaining();
        int n;
        try {
            n = endpoint.readAvailable(in);
        } catch (IOException e) {
            readBuffer.endRead();
            inputFailed();
            if (closeSent) return false;
            throw e;
        }
        readBuffer.endRead();
        if (n < 0) {
            clientGone();
            return false;
        }
        lastReadShort = n < room;
        if (n > 0) {
            long now = System.nanoTime();
            lastInputNanos = now;
            clock.heard(now);
        }
        return n > 0;
    }

    /** Reads more input; false when the input ended instead (the client went, or the session was idle too long). */
    private boolean fill() throws IOException {
        ByteBuffer in = readBuffer.startRead();
        int n;
        try {
            n = endpoint.read(in, idleMillis);
        } catch (SocketTimeoutException e) {
            readBuffer.endRead();
            closeAndLinger(CloseCodes.GOING_AWAY, "idle timeout");
            return false;
        } catch (IOException e) {
            readBuffer.endRead();
            inputFailed();
            if (closeSent) return false; // the server ended the connection itself: a stop, or a failure on send
            throw e;
        }
        readBuffer.endRead();
        if (n > 0) clock.heard(System.nanoTime());
        if (n < 0) {
            clientGone();
            return false;
        }
        return true;
    }

    private void inputFailed() {
        if (closeCode == 0) closeCode = CloseCodes.ABNORMAL;
        inputEnded = true;
    }

    /** The client ended the connection without a close. */
    private void clientGone() {
        inputFailed();
        endpoint.close();
    }

    /** The client broke the protocol: the close with the RFC's code, then the connection ends (section 7.1.7). */
    private void fail(int code, String why) {
        LOG.log(System.Logger.Level.DEBUG, () -> "closing the WebSocket of " + handshake.remoteAddress() + " with " + code + ": " + why);
        closeAndLinger(code, "");
    }

    /** Sends a close (unless one was sent), ends the input and closes once the client has had time to answer. */
    private void closeAndLinger(int code, String reason) {
        inputEnded = true;
        sendClose(code, reason);
        linger();
    }

    @Override
    public void sendText(String text) throws IOException {
        sendLock.lock();
        try {
            checkOpen();
            write(encoder.text(text));
            observer.sent(encoder.lastMessageSize());
        } finally {
            sendLock.unlock();
        }
    }

    @Override
    public void sendBinary(byte[] bytes) throws IOException {
        sendLock.lock();
        try {
            checkOpen();
            write(encoder.binary(ByteBuffer.wrap(bytes)));
            observer.sent(bytes.length);
        } finally {
            sendLock.unlock();
        }
    }

    @Override
    public void ping(byte[] payload) throws IOException {
        if (payload.length > 125) throw new IllegalArgumentException("a ping carries at most 125 bytes: " + payload.length);
        sendLock.lock();
        try {
            checkOpen();
            write(encoder.ping(ByteBuffer.wrap(payload)));
        } finally {
            sendLock.unlock();
        }
    }

    /** A keep-alive ping, on a virtual thread the watch started: the client has been quiet for the ping interval. */
    private void keepAlive() {
        sendLock.lock();
        try {
            if (isOpen()) write(encoder.ping(ByteBuffer.allocate(0)));
        } catch (IOException e) {
            // the session has ended: its handler's receive() returns null
        } finally {
            sendLock.unlock();
        }
    }

    /**
     * Writes one frame, holding sendLock, within the send timeout. A failed write ends the
     * session: the frame may be cut in the middle, so nothing more can be sent on the connection.
     */
    private void write(ByteBuffer frame) throws IOException {
        if (queueMode) {
            queue(frame);
            return;
        }
        clock.sendStarting();
        try {
            endpoint.write(frame);
        } catch (IOException e) {
            throw sendFailed(e);
        } finally {
            clock.sendDone();
        }
    }

    /**
     * The listener style's write, holding sendLock: writes what the socket takes now, unless frames
     * are queued already, and queues the rest for the loop; never waits on an event loop's thread.
     */
    private void queue(ByteBuffer frame) throws IOException {
        if (outputFailed) throw new IOException("the WebSocket is closed (" + closeCode + ")");
        boolean backlog = output != null;
        try {
            if (!backlog) {
                endpoint.writeAvailable(frame);
                if (!frame.hasRemaining()) return;
            }
        } catch (IOException e) {
            throw sendFailed(e);
        }
        if (output == null) output = new SessionOutput();
        output.add(frame);
        if (!backlog) {
            outputQueued = true;
            clock.sendStarting();
            if (!endpoint.onEventLoop()) endpoint.wakeOnLoop(); // a waiting session's loop starts watching for room
        } else if (output.bytes() > queueLimit) {
            awaitRoom();
        }
    }

    /** More than the queue's limit is queued: waits for room where the thread may wait, else ends the session. */
    private void awaitRoom() throws IOException {
        if (!endpoint.callerMayWait()) {
            long queued = output.bytes();
            cut(CloseCodes.POLICY_VIOLATION);
            throw new IOException("the WebSocket client does not read what is sent to it: " + queued
                    + " bytes queued, past the limit of " + queueLimit + "; the session is closed (" + closeCode + ")");
        }
        long deadline = System.nanoTime() + clock.sendTimeoutNanos();
        if (outputRoom == null) outputRoom = sendLock.newCondition();
        try {
            while (!outputFailed && output != null && output.bytes() > queueLimit) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    cut(CloseCodes.POLICY_VIOLATION);
                    throw new SocketTimeoutException("the client did not take the queued WebSocket frames within the send timeout;"
                            + " the session is closed (" + closeCode + ")");
                }
                outputRoom.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting to send");
        }
        if (outputFailed) throw new IOException("the WebSocket is closed (" + closeCode + ")");
    }

    /**
     * Ends the session after a failed write: {@code 1008} when the client took too long (the
     * watch's cut, or the transport's own write timeout), {@code 1006} when the connection broke.
     * The connection is reset, not closed: a client that does not read would never get a close
     * frame, and a reset frees the socket's buffers at once.
     */
    private IOException sendFailed(IOException e) {
        boolean timedOut = clock.sendCut() || e instanceof SocketTimeoutException;
        cut(timedOut ? CloseCodes.POLICY_VIOLATION : CloseCodes.ABNORMAL);
        if (!timedOut) return e;
        LOG.log(System.Logger.Level.DEBUG, () -> "the WebSocket client " + handshake.remoteAddress() + " did not read; closed with 1008");
        String limit = clock.sendCut() ? "the send timeout" : "the server's write timeout";
        return (IOException) new SocketTimeoutException("the client did not take a WebSocket frame within " + limit
                + "; the session is closed (" + closeCode + ")").initCause(e);
    }

    /**
     * Ends the session at once with {@code code} (unless it has one), holding sendLock: no frame can
     * follow one cut short, and the queue can never be sent.
     */
    private void cut(int code) {
        closeSent = true;
        if (closeCode == 0) closeCode = code;
        inputEnded = true;
        if (queueMode) {
            output = null;
            outputFailed = true;
            outputQueued = false;
            if (outputRoom != null) outputRoom.signalAll();
        }
        endpoint.reset();
    }

    private void checkOpen() throws IOException {
        if (closeSent) throw new IOException("the WebSocket is closed (" + closeCode + ")");
    }

    @Override
    public void close(int code, String reason) {
        if (!CloseCodes.validOnWire(code)) throw new IllegalArgumentException("close code " + code + " may not be sent");
        sendClose(code, reason == null ? "" : reason);
    }

    /** Sends a close frame once; a failure to send ends the connection, since nothing more can be said on it. */
    private void sendClose(int code, String reason) {
        sendLock.lock();
        try {
            if (closeSent) return;
            closeSent = true;
            if (closeCode == 0) closeCode = code;
            write(encoder.close(code, reason)); // NO_STATUS: a close without a body, as the client sent
        } catch (IOException e) {
            // write() ended the connection: nothing more can be said on it
        } finally {
            sendLock.unlock();
        }
    }

    /**
     * After the handler returned ({@code code} 1000) or threw (1011): closes the session if it is
     * open, waits a little for the client's close, and frees the connection and the compressor.
     *
     * @return false while output is queued, the close among it: the loop sends it, then calls this again
     */
    boolean finish(int code) {
        if (!closeSent) sendClose(code, "");
        try {
            if (!flushOutput()) return false;
        } catch (IOException e) {
            // the connection failed: the session has its code, and nothing more can be sent
        }
        linger();
        end();
        return true;
    }

    /** The server is stopping: the close with 1001 (going away); the handler's receive() then sees the client's answer. */
    void goAway() {
        sendClose(CloseCodes.GOING_AWAY, "server stopping");
    }

    /** Ends the connection once the client has read what was sent: half-closes, reads what it still sends for a while, then closes. */
    private void linger() {
        if (outputQueued) return; // the output would be cut: finish() lingers once it is out
        if (lingering.compareAndSet(false, true)) endpoint.closeGracefully(CLOSE_LINGER_MILLIS, CLOSE_LINGER_BYTES);
    }

    /** Frees what the session holds; idempotent. A connection that lingers closes by itself. */
    void end() {
        if (ended) return;
        ended = true;
        SessionWatch.SHARED.forget(clock);
        if (!lingering.get()) endpoint.close();
        if (deflate != null) {
            deflate.close();
            ResourceCounters.giveBack(ResourceCounters.Resource.WEBSOCKET_DEFLATE);
        }
    }

    @Override
    public boolean isOpen() {
        return !closeSent && !inputEnded;
    }

    @Override
    public int closeCode() {
        return closeCode;
    }

    @Override
    public String path() {
        return handshake.path();
    }

    @Override
    public String query() {
        return handshake.query();
    }

    @Override
    public String header(String name) {
        return handshake.header(name);
    }

    @Override
    public String subprotocol() {
        return handshake.subprotocol();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return handshake.remoteAddress();
    }

    /** What the decoder takes from the wire, on the receiving thread. */
    private final class Sink implements MessageSink {
        @Override
        public void text(String message) {
            received.add(new WebSocketMessage.Text(message));
            observer.received(decoder.lastMessageSize());
        }

        @Override
        public void binary(byte[] message) {
            received.add(new WebSocketMessage.Binary(message));
            observer.received(message.length);
        }

        @Override
        public void ping(byte[] payload) {
            // Answered here, on the reading thread: while the pong cannot be written the session
            // reads nothing more, so a client that pings without reading is slowed down by TCP
            // instead of making the server queue pongs, and is cut at the send timeout.
            sendLock.lock();
            try {
                if (!closeSent) write(encoder.pong(ByteBuffer.wrap(payload)));
            } catch (IOException e) {
                // write() ended the session: the receive that follows sees the end
            } finally {
                sendLock.unlock();
            }
        }

        @Override
        public void pong(byte[] payload) {
            // the answer to a ping of ours, or unsolicited (section 5.5.3): nothing to do
        }

        @Override
        public void close(int code, String reason) {
            boolean answered = closeSent;
            if (!answered) closeCode = code;
            inputEnded = true;
            // echo the client's code (section 5.5.1); a close without one is answered without one
            if (!answered) sendClose(code, "");
            linger();
        }
    }
}
