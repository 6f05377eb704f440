package dev.petrel.server.http2;

import dev.petrel.http.ByteSink;
import dev.petrel.http.HeaderFields;
import dev.petrel.http.HeaderFieldsBuilder;
import dev.petrel.http.ParseStatus;
import dev.petrel.http.RequestHead;
import dev.petrel.http2.FrameReader;
import dev.petrel.http2.FrameWriter;
import dev.petrel.http2.Frames;
import dev.petrel.http2.HpackDecoder;
import dev.petrel.http2.HpackEncoder;
import dev.petrel.http2.HpackException;
import dev.petrel.http2.Http2Error;
import dev.petrel.http2.Http2ErrorCode;
import dev.petrel.http2.Http2Settings;
import dev.petrel.http2.RequestFields;
import dev.petrel.server.Handler;
import dev.petrel.server.Request;
import dev.petrel.server.config.Http2Config;
import dev.petrel.server.config.ServerConfig;
import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.engine.connection.ProtocolConnection;
import dev.petrel.server.engine.connection.Timeouts;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The HTTP/2 protocol engine for one connection (RFC 9113), the same for every transport. Its
 * reader runs on the thread the transport gives {@link #serve()}: it reads frames, keeps the
 * connection's state (settings, windows, the HPACK decoder, which streams are open) and starts
 * each request on a virtual thread of its own ({@link StreamExchange}), so that a slow handler
 * holds up only its stream. Every frame leaves through one {@link FrameOutput}.
 *
 * <p>What it does not do it says so: a frame that breaks the protocol resets its stream or ends
 * the connection with {@code GOAWAY} and the RFC's code; a client that makes the server work for
 * nothing is stopped by the {@link FloodGuard}; a drain sends {@code GOAWAY}, finishes the streams
 * in flight and closes.
 *
 * <p>A request without a body for a route that never blocks ({@link Handler#mayBlock(Request)})
 * runs inline on the reader instead, as an event-loop server runs it: no thread is started for
 * it, and its frames wait in the output until the reader has taken in everything that arrived, so
 * that ten streams answered from one read leave in one write. Should such a handler have to wait
 * after all (a response larger than the client's window, a client slow to read), the reader hands
 * reading to a new thread first and the handler's thread becomes the stream's alone: a handler
 * never waits for a frame that only its own thread would read.
 *
 * <p>On an endpoint that {@linkplain Endpoint#waitsWithoutThread() waits without a thread} (the
 * {@code nio} transport), a connection with no stream in progress holds no thread either: once
 * the reader has taken in every frame that arrived, {@link #serve()} hands the connection back to
 * the event loop, which {@linkplain #poll() takes in} the next bytes and serves it again on a
 * worker. Thousands of idle HTTP/2 connections then cost their buffers, not a thread each.
 */
public final class Http2Connection implements ProtocolConnection {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.http2");
    private static final ThreadFactory STREAM_THREADS = Thread.ofVirtual().name("petrel-h2-stream").factory();
    private static final ThreadFactory READER_THREADS = Thread.ofVirtual().name("petrel-h2-reader").factory();
    private static final byte[] PREFACE = Frames.clientPreface();
    /** How long a connection ended with GOAWAY reads and drops what the client still sends, so the GOAWAY reaches it. */
    private static final int LINGER_MILLIS = 1000;
    private static final int LINGER_BYTES = 256 * 1024;

    private final Endpoint endpoint;
    private final Http2Protocol protocol;
    private final ServerConfig config;
    private final Http2Config settings;
    private final FrameReader reader;
    private final HpackDecoder decoder;
    private final FrameOutput output;
    private final SendWindows windows = new SendWindows();
    private final Http2Settings peerSettings = new Http2Settings();
    private final RequestFieldSink fieldSink;
    private final FloodGuard flood;
    private final StreamTable streams = new StreamTable();
    private final ByteBuffer in;
    private final ByteSink headerBlock = new ByteSink(256); // the fragments of an open header block
    private final int maxHeaderBlock;
    private final long writeTimeoutNanos;
    private final AtomicBoolean outputClosed = new AtomicBoolean();
    private final RecentlyReset recentlyReset = new RecentlyReset();
    private final Set<ProtocolConnection> tunnels = ConcurrentHashMap.newKeySet(); // what extended CONNECTs carry, told of a drain
    private boolean lingerOnClose; // reader: a GOAWAY was sent for an error or the idle timeout; let it reach the client

    private int blockStreamId;     // reader: the stream whose header block is open
    private boolean blockEndStream;
    private volatile int goAwayLastId = Integer.MAX_VALUE; // streams above it are ignored once GOAWAY is sent
    private volatile boolean peerGoingAway;
    // the thread reading frames: the one the transport gave serve(), until an inline handler hands reading on
    private volatile Thread readerThread;
    private boolean runningInline; // the reader's: it is running a stream's handler inline
    private Thread servingThread;  // the thread inside serve(): only it may hand the connection back to the loop
    private boolean started;       // serve() has sent the server's SETTINGS and read the client's preface
    private long waitDeadline;     // while waiting without a thread: the nanoTime the idle timeout ends; 0 otherwise
    private final CountDownLatch ended = new CountDownLatch(1); // the connection is closed and its streams ended

    private final ReceiveWindow receiveWindow;

    Http2Connection(Endpoint endpoint, Http2Protocol protocol) {
        this.endpoint = endpoint;
        this.protocol = protocol;
        this.config = protocol.config();
        this.settings = protocol.settings();
        this.reader = new FrameReader(settings.maxFrameSize());
        this.maxHeaderBlock = Math.max(config.limits().maxHeaderSectionSize(), Frames.DEFAULT_MAX_FRAME_SIZE);
        this.decoder = new HpackDecoder(settings.headerTableSize(), config.limits().maxHeaderSectionSize());
        this.output = new FrameOutput(endpoint, new HpackEncoder(4096), config.writeTimeout().toNanos(),
                this::beforeStreamWait);
        this.flood = new FloodGuard(settings);
        this.fieldSink = new RequestFieldSink(protocol.extendedConnect());
        this.in = ByteBuffer.allocate(Frames.HEADER_LENGTH + Frames.DEFAULT_MAX_FRAME_SIZE).flip();
        this.receiveWindow = new ReceiveWindow(settings.connectionWindowSize());
        this.writeTimeoutNanos = config.writeTimeout().toNanos();
    }

    // ---- what the streams use ----

    Endpoint endpoint() {
        return endpoint;
    }

    FrameOutput output() {
        return output;
    }

    SendWindows windows() {
        return windows;
    }

    long writeTimeoutNanos() {
        return writeTimeoutNanos;
    }

    /** {@code carried} runs over one of the streams from now on (RFC 8441): a drain tells it too. */
    void tunnelOpened(ProtocolConnection carried) {
        tunnels.add(carried);
    }

    /** {@code carried} has ended. */
    void tunnelClosed(ProtocolConnection carried) {
        tunnels.remove(carried);
    }

    /** A handler read {@code n} body bytes of {@code stream}: they go back to the client's windows. */
    void consumed(StreamState stream, int n) {
        creditConnection(n);
        int increment = stream.consumed(n, settings.initialWindowSize());
        if (increment > 0) sendControl(windowUpdate(stream.id, increment));
    }

    /** Resets {@code stream} with {@code code}, from any thread; the first reset stands. */
    void reset(StreamState stream, Http2ErrorCode code) {
        int discarded = stream.resetAndDiscard(code);
        if (discarded < 0) return;
        recentlyReset.add(stream.id);
        if (discarded > 0) creditConnection(discarded);
        sendControl(rstStream(stream.id, code));
        windows.wake(false);
        streams.releaseIfDone(stream);
    }

    /** The response on {@code stream} is about to send its last frame. */
    void responseEnding(StreamState stream) {
        streams.responseEnding(stream);
    }

    /**
     * A stream's exchange is over: the stream closes, and the connection with it when it is going
     * away and was the last. A complete response to a client that has not ended its side (a GET
     * whose HEADERS lacked END_STREAM, or an upload the handler answered without reading it all)
     * leaves the stream half closed (local) while the rest of its body fits the window the client
     * already has, as section 5.1 has it: what the client sends on it next is answered by the
     * RFC's rules, its trailers too, rather than ignored as after a reset. A body that cannot end
     * within that window is asked to stop at once (section 8.1, RST_STREAM NO_ERROR), as Tomcat does.
     */
    void streamFinished(StreamState stream) {
        if (!stream.isResponseEnded()) {
            reset(stream, Http2ErrorCode.INTERNAL_ERROR); // the response broke off: the client must not take it as whole
        } else if (!stream.remoteClosed() && !stream.restFitsWindow()) {
            reset(stream, Http2ErrorCode.NO_ERROR);
        }
        boolean done = stream.endExchange();
        // after endExchange: DATA that came in before it is dropped here, DATA after it by the reader (onData)
        int unread = stream.discardUnread(); // a body the handler left unread still counts against the connection's window
        if (unread > 0) creditConnection(unread);
        if (streams.exchangeOver(stream, done) && (goAwayLastId != Integer.MAX_VALUE || peerGoingAway)) closeOutput();
    }

    // ---- the transport's side ----

    /** How a spell of reading ended. */
    private enum Reading {
        /** The connection has ended and is closed. */
        ENDED,
        /** An inline handler that had to wait handed reading to another thread (see the class comment). */
        HANDED_ON,
        /** Idle on an endpoint that waits without a thread: the transport watches the socket. */
        WAITING
    }

    /**
     * Reads frames until the connection ends, then closes it, and returns false when it has ended,
     * even if another thread read the last frames (see the class comment); or returns true when it
     * is idle on an endpoint that waits without a thread, to be {@linkplain #poll() polled} and
     * served again. Never throws.
     */
    @Override
    public boolean serve() {
        becomeReader();
        servingThread = Thread.currentThread();
        boolean fromStart = !started;
        started = true;
        Reading outcome = read(fromStart);
        servingThread = null;
        switch (outcome) {
            case WAITING -> {
                output.deferWritesOf(null); // no reader until the next serve(); it flushed what it deferred
                return true;
            }
            case HANDED_ON -> awaitEnd();
            case ENDED -> { }
        }
        return false;
    }

    /**
     * While the connection waits without a thread, on the event loop: takes in what has arrived
     * and says whether {@link #serve()} has work: frames, the client's end, or a failure to meet.
     */
    @Override
    public boolean poll() {
        if (in.hasRemaining()) return true;
        try {
            return fillAvailable() != 0;
        } catch (IOException e) {
            return true; // serve() meets the failure again and ends the connection
        }
    }

    /** While the connection waits without a thread: when its idle timeout ends. */
    @Override
    public long wakeDeadline() {
        return waitDeadline != 0 ? waitDeadline : System.nanoTime();
    }

    /** The reader from here on: the calling thread, whose stream frames wait for the end of each read. */
    private void becomeReader() {
        readerThread = Thread.currentThread();
        output.deferWritesOf(readerThread);
    }

    /** Reads until the connection ends, then ends it, unless reading was handed to another thread or waits without one. */
    private Reading read(boolean fromStart) {
        Reading outcome = Reading.ENDED;
        try {
            if (fromStart) {
                sendControl(settingsFrame());
                output.flushControl();
                if (!readPreface()) return Reading.ENDED;
            }
            outcome = readFrames();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "HTTP/2 connection from " + endpoint.remoteAddress() + " ended: " + e);
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.ERROR, "unexpected failure on HTTP/2 connection from " + endpoint.remoteAddress(), e);
        } finally {
            if (outcome == Reading.ENDED) end();
        }
        return outcome;
    }

    /** Closes the connection, its streams ended. */
    private void end() {
        try {
            endStreams();
            if (lingerOnClose) {
                // closing with the client's bytes unread would send RST, which can destroy the GOAWAY in flight
                endpoint.closeGracefully(LINGER_MILLIS, LINGER_BYTES);
            } else {
                endpoint.close();
            }
        } finally {
            ended.countDown();
        }
    }

    /**
     * Waits until the reader that took over has ended the connection: the transport counts a
     * connection as open until its serve() returns. An interrupt (the server stopping now) aborts it.
     */
    private void awaitEnd() {
        try {
            ended.await();
        } catch (InterruptedException e) {
            abort();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A stream's handler is about to wait (for the client's window, or for the output to drain).
     * When it runs inline on the reader, reading goes on on a new thread first, which is the reader
     * from now on; this thread finishes the stream and ends. Elsewhere nothing happens.
     */
    void beforeStreamWait() {
        if (!runningInline || Thread.currentThread() != readerThread) return;
        runningInline = false;
        Thread next = READER_THREADS.newThread(() -> {
            becomeReader();
            read(false); // not the transport's thread: it reads until the connection ends, never WAITING
        });
        readerThread = next; // the old reader stops reading when its handler returns: see readFrames()
        output.deferWritesOf(null);
        next.start();
    }

    /** Says {@code GOAWAY}, lets the streams in flight finish, then closes. Safe from any thread. */
    @Override
    public void drain() {
        goAway(Http2ErrorCode.NO_ERROR, "the server is stopping");
        for (ProtocolConnection carried : tunnels) carried.drain(); // a WebSocket says 1001 (going away) and ends its stream
        if (streams.noExchanges()) closeOutput();
    }

    @Override
    public void abort() {
        windows.wake(true);
        endpoint.close();
    }

    /** Closes the connection when it has had no stream in progress since before {@code waitingSinceBefore}. */
    @Override
    public boolean shed(long waitingSinceBefore) {
        if (!streams.noExchanges() || streams.idleSince() - waitingSinceBefore > 0) return false;
        goAway(Http2ErrorCode.NO_ERROR, "the server is full");
        closeOutput();
        return true;
    }

    // ---- reading ----

    /** The 24 bytes every client sends first (section 3.4), within the header timeout. */
    private boolean readPreface() throws IOException {
        long deadline = System.nanoTime() + config.headerTimeout().toNanos();
        while (in.remaining() < PREFACE.length) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || fill(Timeouts.millis(left)) < 0) return false;
        }
        for (byte b : PREFACE) {
            if (in.get() != b) {
                LOG.log(System.Logger.Level.DEBUG, () -> "no HTTP/2 preface from " + endpoint.remoteAddress());
                goAway(Http2ErrorCode.PROTOCOL_ERROR, "invalid connection preface");
                output.flushControl();
                lingerOnClose = true;
                return false;
            }
        }
        return true;
    }

    /**
     * Reads and acts on frames until the connection ends, an inline handler hands reading on, or,
     * idle on an endpoint that waits without a thread, nothing more has arrived.
     */
    private Reading readFrames() throws IOException {
        while (true) {
            ParseStatus status = reader.read(in);
            switch (status) {
                case COMPLETE -> {
                    Http2Error error = dispatch();
                    if (readerThread != Thread.currentThread()) return Reading.HANDED_ON; // an inline handler handed reading on
                    if (error != null && !answer(error)) return Reading.ENDED;
                }
                case ERROR -> {
                    if (!answer(reader.error())) return Reading.ENDED;
                }
                case NEED_MORE -> {
                    if (goingAwayAndDone()) return Reading.ENDED;
                    output.flush(); // what the frames just read were answered with: one write for them all
                    if (mayWaitWithoutThread()) {
                        int n = fillAvailable();
                        if (n < 0) return Reading.ENDED;
                        if (n > 0) continue;
                        if (waitDeadline == 0) {
                            waitDeadline = System.nanoTime() + config.idleTimeout().toNanos();
                        } else if (System.nanoTime() - waitDeadline >= 0) {
                            return idledOut();
                        }
                        return Reading.WAITING;
                    }
                    int n;
                    try {
                        n = fill(Timeouts.millis(config.idleTimeout().toNanos()));
                    } catch (SocketTimeoutException e) {
                        if (streams.noExchanges()) return idledOut();
                        continue; // streams in progress keep the connection
                    }
                    if (n < 0) return Reading.ENDED;
                }
            }
        }
    }

    /**
     * Whether the reader may hand the connection back to the transport rather than wait for the
     * next frame: the endpoint waits without a thread, no stream is in progress (a stream's
     * handler may wait for a frame only the reader takes in, such as a WINDOW_UPDATE), and this
     * is the thread the transport gave {@link #serve()}, not one an inline handler handed reading to.
     */
    private boolean mayWaitWithoutThread() {
        return Thread.currentThread() == servingThread && endpoint.waitsWithoutThread() && streams.noExchanges();
    }

    /** No stream in progress for the idle timeout: {@code GOAWAY}, then close. */
    private Reading idledOut() throws IOException {
        goAway(Http2ErrorCode.NO_ERROR, "idle");
        output.flushControl();
        lingerOnClose = true;
        return Reading.ENDED;
    }

    /** Reads more into {@link #in}, keeping what is unread; -1 at end of stream. */
    private int fill(int timeoutMillis) throws IOException {
        in.compact();
        try {
            return endpoint.read(in, timeoutMillis);
        } finally {
            in.flip();
        }
    }

    /**
     * Takes into {@link #in} what has arrived, without waiting: 0 when nothing has, -1 at end of
     * stream. Anything arriving ends the idle wait.
     */
    private int fillAvailable() throws IOException {
        in.compact();
        int n;
        try {
            n = endpoint.readAvailable(in);
        } finally {
            in.flip();
        }
        if (n != 0) waitDeadline = 0;
        return n;
    }

    private boolean goingAwayAndDone() {
        return (goAwayLastId != Integer.MAX_VALUE || peerGoingAway) && streams.noExchanges() && outputClosed.get();
    }

    /**
     * Acts on an error: a stream error resets the stream and the connection goes on (unless resets
     * come too fast); a connection error ends it with {@code GOAWAY}. Returns whether to go on.
     */
    private boolean answer(Http2Error error) {
        if (!error.isConnectionError()) {
            LOG.log(System.Logger.Level.DEBUG, () -> "stream " + error.streamId() + " from " + endpoint.remoteAddress()
                    + ": " + error.code() + " " + error.reason());
            StreamState stream = streams.get(error.streamId());
            if (stream != null && !stream.isReset()) {
                reset(stream, error.code());
            } else {
                recentlyReset.add(error.streamId());
                sendControl(rstStream(error.streamId(), error.code()));
            }
            String flooding = flood.reset();
            if (flooding == null) return true;
            return answer(Http2Error.connection(Http2ErrorCode.ENHANCE_YOUR_CALM, flooding));
        }
        LOG.log(System.Logger.Level.DEBUG, () -> "HTTP/2 connection from " + endpoint.remoteAddress() + ": "
                + error.code() + " " + error.reason());
        goAway(error.code(), error.reason());
        try {
            output.flushControl();
            lingerOnClose = true;
        } catch (IOException e) {
            // the client is gone already
        }
        return false;
    }

    /** Acts on the frame the reader holds; returns the error it makes, or null. */
    private Http2Error dispatch() {
        return switch (reader.type()) {
            case Frames.DATA -> onData();
            case Frames.HEADERS -> onHeaders();
            case Frames.CONTINUATION -> onContinuation();
            case Frames.RST_STREAM -> onReset();
            case Frames.SETTINGS -> onSettings();
            case Frames.PING -> onPing();
            case Frames.GOAWAY -> onGoAway();
            case Frames.WINDOW_UPDATE -> onWindowUpdate();
            case Frames.PUSH_PROMISE -> Http2Error.connection(Http2ErrorCode.PROTOCOL_ERROR, "PUSH_PROMISE from a client");
            default -> controlFrame(); // PRIORITY (ignored, section 5.3.2) and unknown types (section 4.1)
        };
    }

    private Http2Error controlFrame() {
        String flooding = flood.control();
        return flooding == null ? null : Http2Error.connection(Http2ErrorCode.ENHANCE_YOUR_CALM, flooding);
    }

    /** Whether {@code id} names a stream the client has not opened yet (section 5.1, "idle"). */
    private boolean idle(int id) {
        return streams.idle(id);
    }

    private Http2Error onData() {
        int id = reader.streamId();
        int flowLength = reader.length();
        int length = reader.payloadLength();
        boolean endStream = reader.hasFlag(Frames.FLAG_END_STREAM);
        if (length == 0 && !endStream) {
            String flooding = flood.empty();
            if (flooding != null) return Http2Error.connection(Http2ErrorCode.ENHANCE_YOUR_CALM, flooding);
        }
        if (!receiveWindow.take(flowLength)) {
            return Http2Error.connection(Http2ErrorCode.FLOW_CONTROL_ERROR, "DATA beyond the connection's window");
        }
        StreamState stream = streams.get(id);
        if (stream == null) {
            if (idle(id)) return Http2Error.connection(Http2ErrorCode.PROTOCOL_ERROR, "DATA on an idle stream");
            creditConnection(flowLength); // a closed stream's bytes are dropped; the connection's window gets them back
            // frames the client sent before it saw the server's RST_STREAM are ignored (section 5.1, "closed")
            if (id > goAwayLastId || recentlyReset.contains(id)) return null;
            return Http2Error.stream(Http2ErrorCode.STREAM_CLOSED, id, "DATA on a closed stream");
        }
        if (stream.isReset()) {
            creditConnection(flowLength);
            // section 5.1: in flight when the server reset the stream, and ignored; after the client's own
            // RST_STREAM, a frame it should not have sent
            return stream.isResetByPeer() ? Http2Error.stream(Http2ErrorCode.STREAM_CLOSED, id, "DATA after RST_STREAM") : null;
        }
        Http2Error error = stream.data(reader.payload(), reader.payloadOffset(), length, flowLength, endStream);
        if (error != null) {
            creditConnection(flowLength);
            return error;
        }
        int padding = flowLength - length;
        if (padding > 0) consumed(stream, padding); // padding is never read: give it back at once
        if (stream.isExchangeOver() || stream.isReset()) {
            // nobody reads these bytes any longer (its handler is done, or it was reset meanwhile): give them back
            int unread = stream.discardUnread();
            if (unread > 0) creditConnection(unread);
            if (!endStream && !stream.isReset() && !stream.restFitsWindow()) {
                // a body for a complete response that will not end within its window: ask the client to stop (section 8.1)
                reset(stream, Http2ErrorCode.NO_ERROR);
                return null;
            }
        }
        if (endStream) streams.remoteEnded(stream);
        return null;
    }

    private Http2Error onHeaders() {
        int id = reader.streamId();
        boolean endStream = reader.hasFlag(Frames.FLAG_END_STREAM);
        if (reader.hasFlag(Frames.FLAG_END_HEADERS)) {
            return fieldBlock(id, ByteBuffer.wrap(reader.payload(), reader.payloadOffset(), reader.payloadLength()), endStream);
        }
        headerBlock.clear();
        blockStreamId = id;
        blockEndStream = endStream;
        return appendFragment();
    }

    private Http2Error onContinuation() {
        Http2Error error = appendFragment();
        if (error != null) return error;
        if (!reader.hasFlag(Frames.FLAG_END_HEADERS)) return null;
        return fieldBlock(blockStreamId, ByteBuffer.wrap(headerBlock.array(), 0, headerBlock.length()), blockEndStream);
    }

    /** Adds a fragment to the open block, bounded in bytes, and in frames by the empty-frame limit (CONTINUATION flood). */
    private Http2Error appendFragment() {
        int length = reader.payloadLength();
        if (length == 0) {
            String flooding = flood.empty();
            if (flooding != null) return Http2Error.connection(Http2ErrorCode.ENHANCE_YOUR_CALM, flooding);
        }
        if (headerBlock.length() + length > maxHeaderBlock) {
            return Http2Error.connection(Http2ErrorCode.ENHANCE_YOUR_CALM, "header block larger than the header size limit");
        }
        headerBlock.write(reader.payload(), reader.payloadOffset(), length);
        return null;
    }

    /** A whole field block on stream {@code id}: a new request, or the trailers of one in progress. */
    private Http2Error fieldBlock(int id, ByteBuffer block, boolean endStream) {
        StreamState open = streams.get(id);
        if (open != null) return trailers(open, block, endStream);
        if (!idle(id)) {
            // a closed stream: decode anyway, so the table stays in step with the client's encoder
            Http2Error error = decode(block, new HeaderFieldsBuilder(64), true);
            if (error != null && error.isConnectionError()) return error;
            // trailers the client sent before it saw the server's RST_STREAM are ignored, as its DATA is (section 5.1)
            if (id > goAwayLastId || recentlyReset.contains(id)) return null;
            return Http2Error.connection(Http2ErrorCode.STREAM_CLOSED, "HEADERS on a closed stream");
        }
        if ((id & 1) == 0) return Http2Error.connection(Http2ErrorCode.PROTOCOL_ERROR, "a client opened an even-numbered stream");
        streams.opening(id);
        StreamState stream = new StreamState(id, settings.initialWindowSize());
        fieldSink.begin(stream.fields, false);
        HpackDecoder.Result result;
        try {
            result = decoder.decode(block, fieldSink);
        } catch (HpackException e) {
            return e.toError();
        }
        if (id > goAwayLastId) return null; // after GOAWAY: not processed, the client may retry it elsewhere
        if (streams.full(settings.maxConcurrentStreams())) {
            return Http2Error.stream(Http2ErrorCode.REFUSED_STREAM, id, "too many concurrent streams");
        }
        String malformed = fieldSink.end();
        if (malformed != null && result == HpackDecoder.Result.OK) {
            return Http2Error.stream(Http2ErrorCode.PROTOCOL_ERROR, id, malformed);
        }
        StreamExchange exchange = new StreamExchange(stream, this, protocol);
        if (result == HpackDecoder.Result.TOO_LARGE) {
            fieldSink.pseudo().toHead(exchange.head(), stream.fields.fields(), true); // what the list kept, for the answer and the log
            exchange.arm();
            exchange.reject(431, "The request's header fields are too large");
        } else {
            Http2Error error = armRequest(stream, exchange, endStream);
            if (error != null) return error;
        }
        if (endStream) stream.endedWithHeaders();
        windows.open(stream);
        streams.add(stream);
        if (endStream && !exchange.mayBlock()) {
            runInline(stream, exchange);
        } else {
            STREAM_THREADS.newThread(exchange).start();
        }
        return null;
    }

    /** Runs a stream's exchange on the reader (see the class comment); nothing of the reader's state is touched after it. */
    private void runInline(StreamState stream, StreamExchange exchange) {
        runningInline = true;
        stream.runsInline();
        try {
            exchange.run();
        } finally {
            if (readerThread == Thread.currentThread()) runningInline = false;
        }
    }

    /** Fills the exchange's request from the decoded fields; the stream error when they do not make one (section 8.1.1). */
    private Http2Error armRequest(StreamState stream, StreamExchange exchange, boolean endStream) {
        RequestHead head = exchange.head();
        String malformed = fieldSink.pseudo().toHead(head, stream.fields.fields(), endStream);
        if (malformed != null) return Http2Error.stream(Http2ErrorCode.PROTOCOL_ERROR, stream.id, malformed);
        stream.declaredLength(head.contentLength());
        exchange.arm();
        if (head.host() == null) exchange.reject(400, "Missing :authority and Host");
        // as HTTP/1.1 and AJP refuse it at the head; a body that grows past it without a declared length
        // fails when the handler reads it (BodySource)
        if (head.contentLength() > config.limits().maxBodySize()) exchange.reject(413, "Request body too large");
        return null;
    }

    /** A second field block on an open stream: its trailers, which must end it (section 8.1). */
    private Http2Error trailers(StreamState stream, ByteBuffer block, boolean endStream) {
        HeaderFieldsBuilder trailers = new HeaderFieldsBuilder(64);
        Http2Error error = decode(block, trailers, true);
        if (error != null && error.isConnectionError()) return error;
        if (stream.isResetByPeer()) return Http2Error.stream(Http2ErrorCode.STREAM_CLOSED, stream.id, "HEADERS after RST_STREAM");
        if (stream.isReset()) return null; // the server reset it: in flight meanwhile, and ignored (section 5.1, "closed")
        // closed by both ends, its handler not yet done: as for a stream already out of the table (section 5.1,
        // "closed"); the client may have seen the response's END_STREAM before the handler returned
        if (stream.endedByBoth()) return Http2Error.connection(Http2ErrorCode.STREAM_CLOSED, "HEADERS on a closed stream");
        // half-closed (remote): any HEADERS is STREAM_CLOSED (section 5.1), whatever its block holds; a handler still
        // running keeps the stream in this state (on the reader, an inline one has closed it by now)
        if (stream.remoteClosed()) return Http2Error.stream(Http2ErrorCode.STREAM_CLOSED, stream.id, "HEADERS after the end of the stream");
        if (error != null) return error;
        if (!endStream) return Http2Error.stream(Http2ErrorCode.PROTOCOL_ERROR, stream.id, "trailers without END_STREAM");
        error = stream.trailers(trailers);
        if (error == null) streams.remoteEnded(stream);
        return error;
    }

    /** Decodes a block into {@code target}; a compression error ends the connection, a malformed section resets its stream. */
    private Http2Error decode(ByteBuffer block, HeaderFieldsBuilder target, boolean trailers) {
        fieldSink.begin(target, trailers);
        HpackDecoder.Result result;
        try {
            result = decoder.decode(block, fieldSink);
        } catch (HpackException e) {
            return e.toError();
        }
        String malformed = fieldSink.end();
        if (result == HpackDecoder.Result.TOO_LARGE) malformed = "trailer fields too large";
        return malformed == null ? null : Http2Error.stream(Http2ErrorCode.PROTOCOL_ERROR, reader.streamId(), malformed);
    }

    private Http2Error onReset() {
        int id = reader.streamId();
        if (idle(id)) return Http2Error.connection(Http2ErrorCode.PROTOCOL_ERROR, "RST_STREAM on an idle stream");
        StreamState stream = streams.get(id);
        String flooding = flood.reset();
        if (flooding != null) return Http2Error.connection(Http2ErrorCode.ENHANCE_YOUR_CALM, flooding);
        if (stream == null) return null;
        int discarded = stream.resetByPeer(reader.errorCode());
        if (discarded > 0) creditConnection(discarded);
        windows.wake(false);
        streams.releaseIfDone(stream);
        return null;
    }

    private Http2Error onSettings() {
        if (reader.hasFlag(Frames.FLAG_ACK)) return null;
        Http2Error flooding = controlFrame();
        if (flooding != null) return flooding;
        for (int i = 0; i < reader.settingsCount(); i++) {
            int id = reader.settingId(i);
            long value = reader.settingValue(i);
            Http2Error error = peerSettings.apply(id, value);
            if (error == null && id == Http2Settings.INITIAL_WINDOW_SIZE) {
                error = windows.checkInitialWindow((int) value, streams.all());
            }
            if (error != null) return error;
        }
        // Acknowledged before the values take effect: the ACK is queued before any frame they let out (a DATA
        // frame the new window allows, a header block with the new table size), and leaves before it (FrameOutput),
        // so the client sees its settings in force before their effect (section 6.5.3; RFC 7541 section 4.2).
        if (!sendControl(settingsAck())) return overwhelmed();
        for (int i = 0; i < reader.settingsCount(); i++) {
            long value = reader.settingValue(i);
            switch (reader.settingId(i)) {
                case Http2Settings.INITIAL_WINDOW_SIZE -> {
                    Http2Error error = windows.initialWindowChanged((int) value, streams.all());
                    if (error != null) return error; // checked above; windows only shrank since
                }
                case Http2Settings.HEADER_TABLE_SIZE -> output.peerHeaderTableSize(value);
                case Http2Settings.MAX_FRAME_SIZE -> output.peerMaxFrameSize((int) value);
                default -> { }
            }
        }
        return null;
    }

    private Http2Error onPing() {
        if (reader.hasFlag(Frames.FLAG_ACK)) return null;
        Http2Error flooding = controlFrame();
        if (flooding != null) return flooding;
        return sendControl(ping(reader.pingData())) ? null : overwhelmed();
    }

    private Http2Error onGoAway() {
        peerGoingAway = true;
        if (streams.noExchanges()) closeOutput();
        return null;
    }

    private Http2Error onWindowUpdate() {
        int id = reader.streamId();
        int increment = reader.windowIncrement();
        if (id == 0) return windows.connectionUpdate(increment);
        StreamState stream = streams.get(id);
        if (stream == null) {
            return idle(id) ? Http2Error.connection(Http2ErrorCode.PROTOCOL_ERROR, "WINDOW_UPDATE on an idle stream") : null;
        }
        return windows.streamUpdate(stream, increment);
    }

    private static Http2Error overwhelmed() {
        return Http2Error.connection(Http2ErrorCode.ENHANCE_YOUR_CALM, "the client does not read the answers it asks for");
    }

    // ---- writing ----

    /** Gives {@code n} bytes back to the connection's receive window, in updates of half of it. */
    private void creditConnection(int n) {
        int increment = receiveWindow.credit(n);
        if (increment > 0) sendControl(windowUpdate(0, increment));
    }

    private boolean sendControl(byte[] frame) {
        return output.control(frame);
    }

    /** Sends {@code GOAWAY} once: streams above the last one opened are not processed from now on. */
    private void goAway(Http2ErrorCode code, String reason) {
        synchronized (this) {
            if (goAwayLastId != Integer.MAX_VALUE) return;
            goAwayLastId = streams.lastStreamId();
        }
        ByteBuffer frame = ByteBuffer.allocate(Frames.HEADER_LENGTH + 8 + reason.length());
        FrameWriter.goaway(frame, goAwayLastId, code, reason.getBytes(StandardCharsets.US_ASCII));
        sendControl(Arrays.copyOf(frame.array(), frame.position()));
    }

    /** Ends the server's side once its last frame has left: the client sees the end and closes; the reader then ends. */
    private void closeOutput() {
        if (!outputClosed.compareAndSet(false, true)) return;
        try {
            output.flushControl();
            endpoint.shutdownOutput();
        } catch (IOException e) {
            endpoint.close();
        }
    }

    /** The connection ended: streams still in progress are reset, their handlers' waits end. */
    private void endStreams() {
        windows.wake(true);
        for (StreamState stream : streams.all()) stream.resetAndDiscard(Http2ErrorCode.CANCEL);
    }

    private byte[] settingsFrame() {
        Http2Settings ours = new Http2Settings();
        ours.set(Http2Settings.MAX_CONCURRENT_STREAMS, settings.maxConcurrentStreams());
        ours.set(Http2Settings.INITIAL_WINDOW_SIZE, settings.initialWindowSize());
        ours.set(Http2Settings.MAX_FRAME_SIZE, settings.maxFrameSize());
        ours.set(Http2Settings.HEADER_TABLE_SIZE, settings.headerTableSize());
        ours.set(Http2Settings.MAX_HEADER_LIST_SIZE, config.limits().maxHeaderSectionSize());
        // RFC 8441: only where a WebSocket route can answer it; a browser told so opens its WebSockets over HTTP/2
        if (protocol.extendedConnect()) ours.set(Http2Settings.ENABLE_CONNECT_PROTOCOL, 1);
        ByteBuffer frame = ByteBuffer.allocate(Frames.HEADER_LENGTH * 2 + 7 * 6 + 4);
        FrameWriter.settings(frame, ours);
        int extra = settings.connectionWindowSize() - Frames.DEFAULT_WINDOW;
        if (extra > 0) FrameWriter.windowUpdate(frame, 0, extra);
        return Arrays.copyOf(frame.array(), frame.position());
    }

    private static byte[] settingsAck() {
        ByteBuffer frame = ByteBuffer.allocate(Frames.HEADER_LENGTH);
        FrameWriter.settingsAck(frame);
        return frame.array();
    }

    private static byte[] ping(long data) {
        ByteBuffer frame = ByteBuffer.allocate(Frames.HEADER_LENGTH + 8);
        FrameWriter.ping(frame, true, data);
        return frame.array();
    }

    private static byte[] windowUpdate(int streamId, int increment) {
        ByteBuffer frame = ByteBuffer.allocate(Frames.HEADER_LENGTH + 4);
        FrameWriter.windowUpdate(frame, streamId, increment);
        return frame.array();
    }

    private static byte[] rstStream(int streamId, Http2ErrorCode code) {
        ByteBuffer frame = ByteBuffer.allocate(Frames.HEADER_LENGTH + 4);
        FrameWriter.rstStream(frame, streamId, code);
        return frame.array();
    }
}
