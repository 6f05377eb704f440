package dev.petrel.server.transport;

import dev.petrel.server.config.TransportKind;
import dev.petrel.server.engine.connection.Protocol;
import dev.petrel.server.engine.connection.ProtocolConnection;
import dev.petrel.server.engine.connection.ResourceCounters;
import dev.petrel.server.observe.ConnectorCounters;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bound server socket and the connections accepted from it, whatever the transport. The
 * transport accepts (an acceptor thread, or an event loop), and the listener admits connections
 * within the {@linkplain ListenerSettings limits}, turns the rest away with the protocol's
 * overload answer, and hands admitted ones back to the transport to serve.
 *
 * <p>Stopping is graceful: stop accepting, let busy connections finish their current exchange
 * (idle ones close at once), and cut what is left when the grace period ends. The threads and
 * loops that serve the connections are the {@link TransportGroup}'s, shared with the server's
 * other listeners.
 *
 * @param <C> what the server socket accepts: a {@link Socket} or a {@link java.nio.channels.SocketChannel}
 */
public abstract sealed class Listener<C extends AutoCloseable> implements AutoCloseable
        permits SocketListener, NioListener {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.transport");

    /** The protocol spoken on accepted connections. */
    protected final Protocol protocol;
    /** Limits and timeouts. */
    protected final ListenerSettings settings;
    /** What the connector's connections count in, or null when the server does not count. */
    protected final ConnectorCounters counters;
    private final TransportKind kind;
    private final ConnectionLimit limit;
    private final ConnectionSlots slots;
    private final OverloadAnswer overload;
    private final Set<ProtocolConnection> live = ConcurrentHashMap.newKeySet();
    private final AtomicInteger handedOver = new AtomicInteger(); // admitted, not yet opened by the thread that serves them
    private volatile boolean stopping;
    private final AtomicBoolean stoppedOnce = new AtomicBoolean(); // stop may be called again (close after stop)

    Listener(TransportKind kind, ListenerSettings settings, ConnectionLimit limit, Protocol protocol, ConnectorCounters counters) {
        this.kind = kind;
        this.counters = counters;
        this.settings = settings;
        this.protocol = protocol;
        this.limit = limit;
        this.slots = new ConnectionSlots(limit, settings.queueTimeout(), settings.headTimeoutWhenFull());
        this.overload = new OverloadAnswer(protocol::overloadAnswer);
    }

    /**
     * Binds {@code address} and starts accepting on {@code group}'s transport, taking slots from
     * {@code limit}, which other listeners may share, and speaking {@code protocol}; connections and
     * bytes count in {@code counters} (null: not counted).
     *
     * @throws java.net.BindException when the address is in use or not local
     */
    public static Listener<?> open(TransportGroup group, InetSocketAddress address, ListenerSettings settings,
                                   ConnectionLimit limit, Protocol protocol, ConnectorCounters counters) throws IOException {
        Listener<?> listener = switch (group.kind()) {
            case BLOCKING, VIRTUAL -> new SocketListener(group, address, settings, limit, protocol, counters);
            case NIO -> new NioListener(group, address, settings, limit, protocol, counters);
        };
        if (counters != null) counters.bound(listener.address());
        listener.limit.register(listener);
        listener.startAccepting();
        ResourceCounters.take(ResourceCounters.Resource.LISTENERS);
        return listener;
    }

    /** The bound address (with the real port when port 0 was asked for). */
    public abstract InetSocketAddress address();

    /** The transport kind. */
    public TransportKind kind() {
        return kind;
    }

    /** Connections being served now. */
    public int liveConnections() {
        return live.size();
    }

    // ---- what a transport provides ----

    /**
     * Starts accepting connections, each given to {@link #admit} or {@link #admitNow}, until
     * {@link #stopAccepting}.
     */
    abstract void startAccepting() throws IOException;

    /** Closes the server socket, so that no connection is admitted any more; may return before it is let go. */
    abstract void stopAccepting();

    /** Waits (a second at most) until what accepted has stopped and the port is free again. */
    abstract void awaitAcceptingStopped();

    /**
     * Starts serving an admitted connection. The transport calls {@link #opened} with its engine
     * before the engine can run, and {@link #closed} once when it has ended. An exception may only
     * come before {@code opened}: the listener then closes the connection and frees its slot. A
     * transport that opens the connection on another thread calls {@link #handOver} first.
     */
    abstract void serve(C connection) throws IOException;

    /** The accepted connection as a blocking socket, to send the overload answer on. */
    abstract Socket blockingSocket(C connection) throws IOException;

    // ---- admission, for the transport's accepting thread ----

    /**
     * Admits a connection just accepted: serves it if a slot is free or frees up within the queue
     * timeout (shedding idle connections meanwhile), turns it away otherwise. May wait; one
     * thread at a time admits for a listener.
     *
     * @return false when interrupted while waiting (stopping): the connection has been closed
     */
    final boolean admit(C connection) {
        boolean admitted;
        try {
            admitted = slots.take();
        } catch (InterruptedException e) {
            closeQuietly(connection);
            return false;
        }
        if (admitted) start(connection);
        else turnAway(connection);
        return true;
    }

    /**
     * Serves a connection just accepted if a slot is free now, without waiting.
     *
     * @return false when the server is full: the caller still holds the connection and hands it
     *         to {@link #admit} on a thread that may wait
     */
    final boolean admitNow(C connection) {
        if (!slots.tryTake()) return false;
        start(connection);
        return true;
    }

    private void start(C connection) {
        try {
            serve(connection);
        } catch (IOException | RuntimeException | OutOfMemoryError e) {
            // serve() registered nothing; out of memory (direct memory for TLS records, say), this
            // connection is refused and the ones already served go on
            notStarted(connection, e);
        }
    }


    // ---- bookkeeping the transports call ----

    /** Registers a connection being served, so that stopping drains it. */
    final void opened(ProtocolConnection connection) {
        live.add(connection);
        if (counters != null) counters.connectionAccepted();
        if (stopping) connection.drain();
    }

    /**
     * Counts an admitted connection given to another thread to be opened there, so that stopping
     * waits for it as for the live ones. That thread then calls {@link #opened} or
     * {@link #notStarted}, and {@link #takenOver} after it.
     */
    final void handOver() {
        handedOver.incrementAndGet();
    }

    /** The connection handed over has been opened, or dropped. */
    final void takenOver() {
        handedOver.decrementAndGet();
    }

    /**
     * An admitted connection could not be started (before {@link #opened}): frees its slot and
     * closes it, logging the cause unless it is the socket's own failure.
     */
    final void notStarted(C connection, Throwable cause) {
        slots.release();
        closeQuietly(connection);
        if (!(cause instanceof java.net.SocketException)) LOG.log(System.Logger.Level.WARNING, "could not start a connection", cause);
    }

    /** A served connection has ended: forget it and free its slot. */
    final void closed(ProtocolConnection connection) {
        if (live.remove(connection)) {
            slots.release();
            if (counters != null) counters.connectionClosed();
        }
    }

    final boolean stopping() {
        return stopping;
    }

    /** Closes the connections waiting for a head since before {@code waitingSinceBefore}; returns how many. */
    final int shed(long waitingSinceBefore) {
        int shed = 0;
        for (ProtocolConnection connection : live) {
            if (connection.shed(waitingSinceBefore)) shed++;
        }
        if (shed > 0) {
            int count = shed;
            LOG.log(System.Logger.Level.DEBUG, () -> "at the connection limit: closed " + count
                    + " connections waiting for a request head since before the head timeout for a full server");
        }
        return shed;
    }

    private void turnAway(C connection) {
        LOG.log(System.Logger.Level.DEBUG, "at the connection limit: turning a connection away");
        if (counters != null) counters.connectionRefused();
        try {
            overload.send(blockingSocket(connection));
        } catch (IOException | RuntimeException e) {
            closeQuietly(connection);
        }
    }

    /**
     * Stops accepting, drains every connection, and waits up to {@code grace} for them to end;
     * connections still open then are closed. Returns whether all ended within the grace period.
     */
    public final boolean stop(Duration grace) {
        stopping = true;
        limit.unregister(this);
        stopAccepting();
        live.forEach(ProtocolConnection::drain);
        long deadline = System.nanoTime() + grace.toNanos();
        while ((!live.isEmpty() || handedOver.get() > 0) && System.nanoTime() < deadline) {
            sleepQuietly(10);
        }
        boolean clean = live.isEmpty() && handedOver.get() == 0;
        live.forEach(ProtocolConnection::abort); // the group's threads and loops stop with the server
        awaitAcceptingStopped();
        if (stoppedOnce.compareAndSet(false, true)) ResourceCounters.giveBack(ResourceCounters.Resource.LISTENERS);
        return clean;
    }

    @Override
    public final void close() {
        stop(Duration.ZERO);
    }

    static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // already failing or closing
        }
    }
}
