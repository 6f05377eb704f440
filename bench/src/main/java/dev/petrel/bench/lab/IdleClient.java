package dev.petrel.bench.lab;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;

/**
 * Many HTTP/1.1 keep-alive connections from one thread and one {@link Selector}: {@link #open}
 * connects them a bounded number at a time, sends {@link #REQUEST} on each and reads each response;
 * the answered ones are then held, idle, until {@link #again} sends each another request or
 * {@link #close} ends them all. Every wait is bounded by a deadline and by a stall limit (no
 * connection got anywhere for that long), so a server that stops answering costs a bounded time.
 * Over TLS (the client's JDK engine, {@link TlsClientConnection}) each connection first does a
 * full handshake, or resumes an earlier connection's session where the server offers it.
 *
 * <p>Not thread-safe: one thread drives it, as one event loop would.
 */
final class IdleClient implements AutoCloseable {
    /** The request sent on every connection, every time. */
    static final byte[] REQUEST = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    /** Why a connection was given up. */
    enum Failure {
        /** the connect failed: refused, or no port or descriptor left */
        REFUSED("refused"),
        /** reset, or another I/O error, after it was connected */
        RESET("reset"),
        /** the TLS handshake failed */
        HANDSHAKE("TLS handshake failed"),
        /** the server closed it before a whole response */
        CLOSED("closed by the server"),
        /** a whole response, not 2xx */
        NOT_2XX("not 2xx"),
        /** bytes that are not a response, or more than one */
        BAD_RESPONSE("malformed response"),
        /** no whole response before the deadline or the stall limit */
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
     * What one round of requests came to.
     *
     * @param attempted connections tried ({@link #open}) or requests sent ({@link #again})
     * @param connected connections whose connect completed
     * @param answered connections answered with a whole 2xx response
     * @param failed connections given up, by why
     * @param notStarted connections {@link #open} did not get to try before it stopped waiting
     * @param took how long the round took
     * @param stopped why the round stopped waiting before every connection was answered, or {@code null}
     */
    record Round(int attempted, int connected, int answered, Map<Failure, Integer> failed, int notStarted,
                 Duration took, String stopped) {
        int failures() {
            return failed.values().stream().mapToInt(Integer::intValue).sum();
        }

        /** E.g. {@code 12 refused, 300 timed out}, or {@code none}. */
        String failureText() {
            if (failed.isEmpty()) return "none";
            List<String> parts = new ArrayList<>();
            failed.forEach((why, n) -> parts.add(String.format("%,d %s", n, why)));
            return String.join(", ", parts);
        }
    }

    /** One connection and where its current request stands. */
    private static final class Connection {
        final SocketChannel channel;
        final ResponseReader reader = new ResponseReader();
        TlsClientConnection tls; // over TLS: made once connected; else null
        boolean refreshing;      // asked again while others open (see open): its answer is not counted again
        SelectionKey key;
        boolean connected;
        int written;
        long answeredAt;

        Connection(SocketChannel channel) {
            this.channel = channel;
        }
    }

    private final InetSocketAddress server;
    private final SSLContext tls;                   // null: plain HTTP
    private final TlsClientConnection.Shared tlsBuffers;
    private final Selector selector;
    // every channel ever opened, so that close() ends each one whatever state it was left in
    private final List<SocketChannel> channels = new ArrayList<>();
    private final List<Connection> held = new ArrayList<>();
    private final Set<Connection> inFlight = new LinkedHashSet<>();
    // one read buffer for all connections: responses are read as they come and not kept
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);
    private Tally tally;

    /** A client for the server at {@code server}; nothing is connected until {@link #open}. */
    IdleClient(InetSocketAddress server) throws IOException {
        this(server, null);
    }

    /**
     * A client for the server at {@code server}, over TLS with {@code tls}'s trust when it is not
     * null; nothing is connected until {@link #open}.
     */
    IdleClient(InetSocketAddress server, SSLContext tls) throws IOException {
        this.server = server;
        this.tls = tls;
        this.tlsBuffers = tls == null ? null : new TlsClientConnection.Shared(tls);
        this.selector = Selector.open();
    }

    /** The connections answered and still held, idle. */
    int held() {
        return held.size();
    }

    /** How long the longest-held connection has been idle since its last answer, or zero when none is held. */
    Duration longestIdle() {
        long now = System.nanoTime();
        return Duration.ofNanos(held.stream().mapToLong(c -> now - c.answeredAt).max().orElse(0));
    }

    /** How long the most recently answered connection has been idle, or zero when none is held. */
    Duration shortestIdle() {
        long now = System.nanoTime();
        return Duration.ofNanos(held.stream().mapToLong(c -> now - c.answeredAt).min().orElse(0));
    }

    /**
     * Opens {@code count} connections, at most {@code maxInFlight} connecting or awaiting their
     * response at a time, sends the request on each and holds those answered with 2xx. Stops waiting
     * at {@code limit} or after {@code stall} without progress; what is then still in flight has
     * timed out and is closed, and what was not yet started is counted as such.
     *
     * <p>While it opens, a held connection idle for {@code refreshAfter} is sent the request again
     * (not counted as answered twice), so that when opening takes longer than a server's idle
     * timeout (10,000 TLS handshakes on one CPU take most of a minute) no connection has been
     * idle longer than that when the round ends.
     */
    Round open(int count, int maxInFlight, Duration limit, Duration stall, Duration refreshAfter) throws IOException {
        tally = new Tally();
        long start = System.nanoTime();
        long deadline = start + limit.toNanos();
        long lastProgress = start;
        int started = 0;
        String stopped = null;
        while (true) {
            if (started < count) refreshIdle(refreshAfter); // only while opening: the round must end
            while (started < count && inFlight.size() < maxInFlight) {
                started++;
                connect();
            }
            if (inFlight.isEmpty() && started == count) break;
            long now = System.nanoTime();
            stopped = stopReason(now, deadline, lastProgress, limit, stall);
            if (stopped != null) break;
            if (poll(Math.min(deadline, lastProgress + stall.toNanos()) - now)) lastProgress = System.nanoTime();
        }
        timeOutInFlight();
        return tally.round(started, count - started, System.nanoTime() - start, stopped);
    }

    /**
     * Sends the request again on every held connection and waits for the answers, for at most
     * {@code limit} and at most {@code stall} without progress. Those answered with 2xx stay held;
     * the others are closed and counted by why.
     */
    Round again(Duration limit, Duration stall) throws IOException {
        tally = new Tally();
        long start = System.nanoTime();
        long deadline = start + limit.toNanos();
        long lastProgress = start;
        List<Connection> idle = new ArrayList<>(held);
        held.clear();
        for (Connection c : idle) {
            c.reader.reset();
            c.written = 0;
            inFlight.add(c);
            tally.connected++;
            try {
                if (c.tls == null) write(c);
                else stepTls(c);
            } catch (IOException e) {
                fail(c, Failure.RESET);
            }
        }
        String stopped = null;
        while (!inFlight.isEmpty()) {
            long now = System.nanoTime();
            stopped = stopReason(now, deadline, lastProgress, limit, stall);
            if (stopped != null) break;
            if (poll(Math.min(deadline, lastProgress + stall.toNanos()) - now)) lastProgress = System.nanoTime();
        }
        timeOutInFlight();
        return tally.round(idle.size(), 0, System.nanoTime() - start, stopped);
    }

    /** Sends the request again on every held connection idle for {@code after} or longer (see {@link #open}). */
    private void refreshIdle(Duration after) {
        long now = System.nanoTime();
        int old = 0;
        // held is in the order of the answers, oldest first
        while (old < held.size() && now - held.get(old).answeredAt >= after.toNanos()) old++;
        if (old == 0) return;
        List<Connection> due = new ArrayList<>(held.subList(0, old));
        held.subList(0, old).clear();
        for (Connection c : due) {
            c.refreshing = true;
            c.reader.reset();
            c.written = 0;
            inFlight.add(c);
            try {
                if (c.tls == null) write(c);
                else stepTls(c);
            } catch (IOException e) {
                fail(c, Failure.RESET);
            }
        }
    }

    /** Closes every connection it opened and its selector, whatever state they are in. */
    @Override
    public void close() throws IOException {
        IOException first = null;
        for (SocketChannel channel : channels) {
            try {
                channel.close();
            } catch (IOException e) {
                if (first == null) first = e;
            }
        }
        channels.clear();
        held.clear();
        inFlight.clear();
        try {
            // a registered channel's descriptor is released when its key is deregistered: closing the
            // selector deregisters every key
            selector.close();
        } catch (IOException e) {
            if (first == null) first = e;
        }
        if (first != null) throw first;
    }

    private static String stopReason(long now, long deadline, long lastProgress, Duration limit, Duration stall) {
        if (now - deadline >= 0) return "the " + limit.toSeconds() + " s deadline";
        if (now - lastProgress >= stall.toNanos()) return "no progress for " + stall.toMillis() / 1000.0 + " s";
        return null;
    }

    private void connect() {
        SocketChannel channel;
        try {
            channel = SocketChannel.open();
        } catch (IOException e) {
            tally.fail(Failure.REFUSED); // no descriptor left: as good as refused for the count
            return;
        }
        channels.add(channel);
        Connection c = new Connection(channel);
        inFlight.add(c);
        try {
            channel.configureBlocking(false);
            c.key = channel.register(selector, 0, c);
            if (channel.connect(server)) onConnected(c);
            else c.key.interestOps(SelectionKey.OP_CONNECT);
        } catch (IOException e) {
            fail(c, Failure.REFUSED);
        }
    }

    /** Waits up to {@code nanos} for readiness and handles it; whether any connection got further. */
    private boolean poll(long nanos) throws IOException {
        long millis = Math.max(1, Math.min(nanos / 1_000_000, 100));
        int before = tally.events;
        selector.select(this::handle, millis);
        return tally.events != before;
    }

    private void handle(SelectionKey key) {
        Connection c = (Connection) key.attachment();
        try {
            if (key.isConnectable()) {
                if (!c.channel.finishConnect()) return;
                onConnected(c);
                return;
            }
            if (c.tls != null) stepTls(c);
            else if (key.isWritable()) write(c);
            else if (key.isReadable()) read(c);
        } catch (ConnectException e) {
            fail(c, Failure.REFUSED);
        } catch (SSLHandshakeException e) {
            fail(c, Failure.HANDSHAKE);
        } catch (IOException e) {
            fail(c, c.connected ? Failure.RESET : Failure.REFUSED);
        }
    }

    private void onConnected(Connection c) throws IOException {
        c.connected = true;
        tally.connected++;
        tally.events++;
        if (tls == null) {
            write(c);
            return;
        }
        c.tls = new TlsClientConnection(tls, server.getHostString(), server.getPort(), tlsBuffers);
        stepTls(c);
    }

    /**
     * Takes a connection over TLS as far as it goes: the handshake, then the request, then its
     * response, each as the socket allows; whichever readiness woke it, the next step says what
     * to wait for.
     */
    private void stepTls(Connection c) throws IOException {
        if (!c.tls.handshaken()) {
            TlsClientConnection.Progress p = c.tls.handshake(c.channel);
            if (p != TlsClientConnection.Progress.DONE) {
                c.key.interestOps(p == TlsClientConnection.Progress.WANT_READ ? SelectionKey.OP_READ : SelectionKey.OP_WRITE);
                return;
            }
        }
        boolean sent;
        if (c.written < REQUEST.length) {
            c.written = REQUEST.length; // wrapped whole; what the socket did not take waits in the connection
            sent = c.tls.send(c.channel, REQUEST);
        } else {
            sent = c.tls.flush(c.channel);
        }
        if (!sent) {
            c.key.interestOps(SelectionKey.OP_WRITE);
            return;
        }
        c.key.interestOps(SelectionKey.OP_READ);
        while (inFlight.contains(c)) {
            ByteBuffer plain = c.tls.receive(c.channel);
            if (plain == null) {
                if (c.reader.endOfStream()) answered(c, false);
                else fail(c, Failure.CLOSED);
                return;
            }
            if (!plain.hasRemaining()) return; // the rest is on its way
            if (take(c, plain)) return;
        }
    }

    private void write(Connection c) throws IOException {
        c.written += c.channel.write(ByteBuffer.wrap(REQUEST, c.written, REQUEST.length - c.written));
        // the request is tiny and the socket buffer empty, so this is nearly always done at once
        c.key.interestOps(c.written < REQUEST.length ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
    }

    private void read(Connection c) throws IOException {
        readBuffer.clear();
        int n = c.channel.read(readBuffer);
        if (n < 0) {
            if (c.reader.endOfStream()) answered(c, false); // a body delimited by the close
            else fail(c, Failure.CLOSED);
            return;
        }
        readBuffer.flip();
        take(c, readBuffer);
    }

    /** Feeds response bytes to the connection's reader; whether the response is over (answered or failed). */
    private boolean take(Connection c, ByteBuffer bytes) throws IOException {
        boolean done;
        try {
            done = c.reader.feed(bytes);
        } catch (IllegalArgumentException e) {
            fail(c, Failure.BAD_RESPONSE);
            return true;
        }
        if (!done) return false;
        if (bytes.hasRemaining()) fail(c, Failure.BAD_RESPONSE); // bytes nobody asked for
        else answered(c, true);
        return true;
    }

    private void answered(Connection c, boolean open) throws IOException {
        if (c.reader.status() / 100 != 2) {
            fail(c, Failure.NOT_2XX);
            return;
        }
        inFlight.remove(c);
        if (!c.refreshing) tally.answered++;
        c.refreshing = false;
        tally.events++;
        c.answeredAt = System.nanoTime();
        if (open) {
            // idle: no interest, so the loop never looks at it until the next round
            c.key.interestOps(0);
            held.add(c);
        } else {
            c.channel.close();
        }
    }

    private void fail(Connection c, Failure why) {
        inFlight.remove(c);
        tally.fail(why);
        try {
            c.channel.close();
        } catch (IOException ignored) {
            // closing is all that was left to do with it
        }
    }

    private void timeOutInFlight() {
        for (Connection c : List.copyOf(inFlight)) fail(c, Failure.TIMEOUT);
    }

    /** The counts of the round under way. */
    private static final class Tally {
        int connected;
        int answered;
        int events;
        final Map<Failure, Integer> failed = new EnumMap<>(Failure.class);

        void fail(Failure why) {
            failed.merge(why, 1, Integer::sum);
            events++;
        }

        Round round(int attempted, int notStarted, long nanos, String stopped) {
            return new Round(attempted, connected, answered, Collections.unmodifiableMap(new EnumMap<>(failed)),
                    notStarted, Duration.ofNanos(nanos), stopped);
        }
    }
}
