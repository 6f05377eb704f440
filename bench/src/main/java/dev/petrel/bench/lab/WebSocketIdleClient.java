package dev.petrel.bench.lab;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * Many idle WebSocket sessions from one thread and one {@link Selector}, for the websocket
 * scenario's memory figure: {@link #open} connects them a bounded number at a time and does each
 * one's opening handshake; the upgraded ones are then held, idle, until {@link #again} sends each
 * one short text message and waits for its echo, or {@link #close} ends them all. Every wait is
 * bounded by a deadline and by a stall limit (no connection got anywhere for that long), so a
 * server that stops answering costs a bounded time. The same shape as the idle scenario's
 * {@link IdleClient}, with a handshake instead of a request.
 *
 * <p>Not thread-safe: one thread drives it, as one event loop would.
 */
final class WebSocketIdleClient implements AutoCloseable {
    /** Why a connection was given up. */
    enum Failure {
        /** the connect failed: refused, or no port or descriptor left */
        REFUSED("refused"),
        /** reset, or another I/O error, after it was connected */
        RESET("reset"),
        /** the server closed it (a FIN, or a WebSocket close) */
        CLOSED("closed by the server"),
        /** the handshake was answered with anything but a good 101 */
        NOT_UPGRADED("not upgraded"),
        /** an echo that was not the message sent, or frames that break the protocol */
        BAD_ECHO("bad echo"),
        /** no answer before the deadline or the stall limit */
        TIMEOUT("timed out");

        private final String text;

        Failure(String text) {
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /**
     * What one round came to.
     *
     * @param attempted connections tried ({@link #open}) or messages sent ({@link #again})
     * @param connected connections whose connect completed
     * @param answered sessions upgraded ({@link #open}), or echoes back ({@link #again})
     * @param failed connections given up, by why
     * @param notStarted connections {@link #open} did not get to try before it stopped waiting
     * @param took how long the round took
     * @param stopped why the round stopped waiting before every connection was answered, or {@code null}
     */
    record Round(int attempted, int connected, int answered, Map<Failure, Integer> failed, int notStarted,
                 Duration took, String stopped) {
        /** E.g. {@code 12 refused, 300 timed out}, or {@code none}. */
        String failureText() {
            if (failed.isEmpty()) return "none";
            List<String> parts = new ArrayList<>();
            failed.forEach((why, n) -> parts.add(String.format("%,d %s", n, why)));
            return String.join(", ", parts);
        }
    }

    /** The message every echo round sends. */
    static final byte[] MESSAGE = WebSocketLoad.TEXT.getBytes(StandardCharsets.US_ASCII);

    /** Where a connection stands. */
    private enum State { CONNECTING, HANDSHAKE, IDLE, AWAITING_ECHO }

    /** One connection. */
    private static final class Connection {
        final SocketChannel channel;
        State state = State.CONNECTING;
        SelectionKey key;
        ByteBuffer request;          // the handshake, while it is being written
        WebSocketHandshake handshake;
        byte[] head = new byte[256]; // the handshake's answer, while it is being read
        int headLength;
        ServerFrameDecoder decoder;  // once upgraded
        ByteBuffer message;          // an echo round's frame, while it is being written
        boolean refreshing;          // asked while others open: its echo is not counted
        long activeAt;

        Connection(SocketChannel channel) {
            this.channel = channel;
        }
    }

    private final InetSocketAddress server;
    private final String path;
    private final RandomGenerator random = new SplittableRandom();
    private final Selector selector;
    // every channel ever opened, so that close() ends each one whatever state it was left in
    private final List<SocketChannel> channels = new ArrayList<>();
    private final Deque<Connection> held = new ArrayDeque<>(); // upgraded, the longest idle first
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);
    private final byte[] frame;
    private Map<Failure, Integer> failed;
    private int answered;
    private int connected;
    private int refreshing; // sessions sent a message by refresh() whose echo has not come
    private long progressAt;

    /** A client for the echo at {@code path} on {@code server}; nothing is connected until {@link #open}. */
    WebSocketIdleClient(InetSocketAddress server, String path) throws IOException {
        this.server = server;
        this.path = path;
        this.selector = Selector.open();
        this.frame = ClientFrame.masked(ClientFrame.TEXT, MESSAGE, random);
    }

    /** The sessions upgraded and still held. */
    int held() {
        return held.size();
    }

    /** How long the longest-idle held session has been idle. */
    Duration longestIdle() {
        return held.isEmpty() ? Duration.ZERO : Duration.ofNanos(System.nanoTime() - held.getFirst().activeAt);
    }

    /** How long the most recently active held session has been idle. */
    Duration shortestIdle() {
        return held.isEmpty() ? Duration.ZERO : Duration.ofNanos(System.nanoTime() - held.getLast().activeAt);
    }

    /**
     * Opens {@code count} sessions, at most {@code maxInFlight} connecting or in their handshake at a
     * time, and holds those upgraded. A held session idle for {@code refreshAfter} while the others
     * still open is sent a message, so that none idles past a server's idle timeout before all are
     * open. Stops waiting at {@code limit}, or after {@code stall} in which no connection got further.
     */
    Round open(int count, int maxInFlight, Duration limit, Duration stall, Duration refreshAfter) throws IOException {
        long start = System.nanoTime();
        long deadline = start + limit.toNanos();
        failed = new EnumMap<>(Failure.class);
        answered = 0;
        connected = 0;
        progressAt = start;
        List<Connection> opening = new ArrayList<>();
        int attempted = 0;
        String stopped = null;
        while (answered + total(failed) < count) {
            long now = System.nanoTime();
            while (attempted < count && opening.size() < maxInFlight) {
                Connection c = connect();
                attempted++;
                if (c != null) opening.add(c);
            }
            refresh(now, refreshAfter);
            if (now > deadline) {
                stopped = "the " + limit.toSeconds() + " s limit";
                break;
            }
            if (now - progressAt > stall.toNanos()) {
                stopped = stall.toSeconds() + " s without progress";
                break;
            }
            selector.select(100);
            for (SelectionKey key : selector.selectedKeys()) {
                Connection c = (Connection) key.attachment();
                boolean wasOpening = c.state == State.CONNECTING || c.state == State.HANDSHAKE;
                step(c);
                if (wasOpening && (!c.channel.isOpen() || c.state == State.IDLE)) opening.remove(c);
            }
            selector.selectedKeys().clear();
            if (attempted == count && opening.isEmpty()) break;
        }
        for (Connection c : opening) give(c, Failure.TIMEOUT);
        awaitRefreshes(deadline, stall);
        int notStarted = count - attempted;
        return new Round(attempted, connected, answered, Map.copyOf(failed), notStarted,
                Duration.ofNanos(System.nanoTime() - start), stopped);
    }

    /**
     * Sends every held session one message and waits for its echo, until {@code limit} or after
     * {@code stall} without progress; the sessions that echoed stay held, the others are closed.
     */
    Round again(Duration limit, Duration stall) throws IOException {
        long start = System.nanoTime();
        long deadline = start + limit.toNanos();
        failed = new EnumMap<>(Failure.class);
        answered = 0;
        progressAt = start;
        List<Connection> asked = new ArrayList<>(held);
        held.clear();
        for (Connection c : asked) {
            c.refreshing = false;
            send(c);
        }
        String stopped = null;
        while (answered + total(failed) < asked.size()) {
            long now = System.nanoTime();
            if (now > deadline) {
                stopped = "the " + limit.toSeconds() + " s limit";
                break;
            }
            if (now - progressAt > stall.toNanos()) {
                stopped = stall.toSeconds() + " s without progress";
                break;
            }
            selector.select(100);
            for (SelectionKey key : selector.selectedKeys()) step((Connection) key.attachment());
            selector.selectedKeys().clear();
        }
        for (Connection c : asked) {
            if (c.state == State.AWAITING_ECHO && c.channel.isOpen()) give(c, Failure.TIMEOUT);
        }
        return new Round(asked.size(), asked.size(), answered, Map.copyOf(failed), 0,
                Duration.ofNanos(System.nanoTime() - start), stopped);
    }

    /**
     * Waits for the echoes of the messages {@link #refresh} sent, within the deadline and the stall
     * limit, so that every session {@link #open} upgraded is held, or given up, when it returns.
     */
    private void awaitRefreshes(long deadline, Duration stall) throws IOException {
        while (refreshing > 0 && System.nanoTime() < deadline && System.nanoTime() - progressAt < stall.toNanos()) {
            selector.select(100);
            for (SelectionKey key : selector.selectedKeys()) step((Connection) key.attachment());
            selector.selectedKeys().clear();
        }
        for (SelectionKey key : selector.keys()) {
            Connection c = (Connection) key.attachment();
            if (c.refreshing && c.channel.isOpen()) give(c, Failure.TIMEOUT);
        }
    }

    private static int total(Map<Failure, Integer> failures) {
        return failures.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** Starts a non-blocking connect; {@code null} when it failed at once (counted). */
    private Connection connect() throws IOException {
        SocketChannel channel = SocketChannel.open();
        channels.add(channel);
        Connection c = new Connection(channel);
        try {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            boolean now = channel.connect(server);
            c.key = channel.register(selector, now ? SelectionKey.OP_WRITE : SelectionKey.OP_CONNECT, c);
            if (now) {
                connected++;
                startHandshake(c);
            }
            return c;
        } catch (IOException e) {
            give(c, Failure.REFUSED);
            return null;
        }
    }

    /** Sends a message on the held sessions idle for {@code after} or longer (see {@link #open}). */
    private void refresh(long now, Duration after) throws IOException {
        while (!held.isEmpty() && now - held.getFirst().activeAt >= after.toNanos()) {
            Connection c = held.removeFirst();
            c.refreshing = true;
            refreshing++;
            send(c);
        }
    }

    /** Starts writing the echo round's frame on a held session. */
    private void send(Connection c) throws IOException {
        c.state = State.AWAITING_ECHO;
        c.message = ByteBuffer.wrap(frame);
        try {
            c.channel.write(c.message);
        } catch (IOException e) {
            give(c, Failure.RESET);
            return;
        }
        c.key.interestOps(c.message.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
    }

    private void startHandshake(Connection c) {
        c.state = State.HANDSHAKE;
        c.handshake = new WebSocketHandshake(server.getHostString(), server.getPort(), path, random);
        c.request = ByteBuffer.wrap(c.handshake.request());
        c.key.interestOps(SelectionKey.OP_WRITE);
    }

    /** Moves a connection on as far as its socket lets it. */
    private void step(Connection c) {
        try {
            switch (c.state) {
                case CONNECTING -> {
                    if (!c.channel.finishConnect()) return;
                    connected++;
                    progressAt = System.nanoTime();
                    startHandshake(c);
                }
                case HANDSHAKE -> handshake(c);
                case AWAITING_ECHO -> echo(c);
                case IDLE -> { } // not registered for anything while idle
            }
        } catch (ProtocolException e) {
            give(c, c.state == State.HANDSHAKE ? Failure.NOT_UPGRADED : Failure.BAD_ECHO);
        } catch (EOFException e) {
            give(c, Failure.CLOSED);
        } catch (IOException e) {
            give(c, c.state == State.CONNECTING ? Failure.REFUSED : Failure.RESET);
        }
    }

    private void handshake(Connection c) throws IOException {
        if (c.request.hasRemaining()) {
            c.channel.write(c.request);
            if (c.request.hasRemaining()) return;
            c.key.interestOps(SelectionKey.OP_READ);
            return;
        }
        readBuffer.clear();
        int n = c.channel.read(readBuffer);
        if (n < 0) throw new EOFException();
        readBuffer.flip();
        if (c.head.length < c.headLength + n) c.head = Arrays.copyOf(c.head, Math.max(c.head.length * 2, c.headLength + n));
        readBuffer.get(c.head, c.headLength, n);
        c.headLength += n;
        int end = WebSocketHandshake.headEnd(c.head, c.headLength);
        if (end < 0) {
            if (c.headLength > 16 * 1024) throw new ProtocolException("a handshake answer of more than 16 KiB");
            return;
        }
        c.handshake.check(new String(c.head, 0, end, StandardCharsets.ISO_8859_1));
        if (end < c.headLength) throw new ProtocolException("frames before the client sent any");
        c.head = null;
        c.request = null;
        c.handshake = null;
        c.decoder = new ServerFrameDecoder(MESSAGE.length, false);
        hold(c);
    }

    private void echo(Connection c) throws IOException {
        if (c.message.hasRemaining()) {
            c.channel.write(c.message);
            if (!c.message.hasRemaining()) c.key.interestOps(SelectionKey.OP_READ);
            return;
        }
        readBuffer.clear();
        int n = c.channel.read(readBuffer);
        if (n < 0) throw new EOFException();
        readBuffer.flip();
        switch (c.decoder.next(readBuffer)) {
            case MESSAGE -> {
                if (c.decoder.opcode() != ClientFrame.TEXT || c.decoder.length() != MESSAGE.length || readBuffer.hasRemaining()) {
                    throw new ProtocolException("not the echo of the message");
                }
                c.message = null;
                boolean refreshed = c.refreshing;
                if (refreshed) {
                    c.refreshing = false;
                    refreshing--;
                }
                hold(c);
                if (refreshed) answered--; // hold() counts it; a refresh is no new answer
            }
            case CLOSE -> throw new EOFException();
            case PING -> throw new ProtocolException("a ping while idle");
            case NEED_MORE -> { }
        }
    }

    /** A session upgraded or echoed: held, idle, registered for nothing, until asked again. */
    private void hold(Connection c) {
        c.state = State.IDLE;
        c.activeAt = System.nanoTime();
        progressAt = c.activeAt;
        c.key.interestOps(0);
        held.addLast(c);
        answered++;
    }

    /** Gives a connection up for {@code why}: counted, closed. */
    private void give(Connection c, Failure why) {
        failed.merge(why, 1, Integer::sum);
        if (c.refreshing) { // counted as answered when it was upgraded: now it is a failure instead
            c.refreshing = false;
            refreshing--;
            answered--;
        }
        progressAt = System.nanoTime();
        try {
            c.channel.close();
        } catch (IOException ignored) {
            // closed either way
        }
    }

    /** Closes every connection, held or not. */
    @Override
    public void close() {
        for (SocketChannel channel : channels) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing more to do for it
            }
        }
        channels.clear();
        held.clear();
        try {
            selector.close();
        } catch (IOException ignored) {
            // nothing more to release
        }
    }
}
