package dev.petrel.server.transport;

import dev.petrel.server.config.TransportKind;
import dev.petrel.server.engine.connection.Protocol;
import dev.petrel.server.engine.connection.ProtocolConnection;
import dev.petrel.server.observe.ConnectorCounters;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

/**
 * The {@code nio} transport: the server channel is registered with one of the group's event
 * loops, which accepts and hands each admitted connection, made non-blocking, to the loops in
 * turn (shared with the server's other listeners). Waiting connections cost the loop a key and the
 * engine's buffers, no thread; a request's exchange runs on a virtual thread, so handlers may
 * block.
 *
 * <p>Accepting on a loop rather than on an acceptor thread saves a thread wake-up per connection,
 * and, under a burst, the loop takes many connections per readiness: {@code ab} without keep-alive
 * on one CPU measured more connections per second than with an acceptor thread waking the loop
 * ({@code bench/RESULTS.md}, "Issue 21 on another machine", goal 1). A loop never waits for a slot,
 * though: when the server is full it stops accepting and hands the connection to a virtual thread,
 * which waits for a slot as the thread-per-connection transports' acceptor does (shedding idle
 * connections meanwhile), and resumes accepting after it.
 */
final class NioListener extends Listener<SocketChannel> {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.transport");
    /** Connections accepted per readiness at most, so that a burst cannot starve the loop's other connections. */
    private static final int ACCEPTS_PER_READY = 64;
    /** How long accepting pauses after it failed (e.g. EMFILE), instead of spinning on the error. */
    private static final long PAUSE_AFTER_FAILURE_MILLIS = 50;

    private final ServerSocketChannel serverChannel;
    private final TransportGroup group;
    private final ConnectionExecutor workers;
    private final WriteLimits writeLimits;
    private final EventLoop acceptingLoop;
    private final Runnable resumeAccepting = this::resumeAccepting;
    private SelectionKey acceptKey; // the accepting loop's

    NioListener(TransportGroup group, InetSocketAddress address, ListenerSettings settings, ConnectionLimit limit,
                Protocol protocol, ConnectorCounters counters) throws IOException {
        super(TransportKind.NIO, settings, limit, protocol, counters);
        this.group = group;
        this.serverChannel = ServerSocketChannel.open();
        try {
            serverChannel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            serverChannel.bind(address, settings.backlog());
            serverChannel.configureBlocking(false);
        } catch (IOException e) {
            serverChannel.close();
            throw e;
        }
        this.workers = group.executor();
        this.writeLimits = group.writeLimits();
        this.acceptingLoop = group.nextLoop();
    }

    @Override
    public InetSocketAddress address() {
        try {
            return (InetSocketAddress) serverChannel.getLocalAddress();
        } catch (IOException e) {
            throw new IllegalStateException("listener closed", e);
        }
    }

    @Override
    void startAccepting() {
        acceptingLoop.execute(() -> {
            try {
                acceptKey = serverChannel.register(acceptingLoop.selector(), SelectionKey.OP_ACCEPT, this);
            } catch (IOException | RuntimeException e) { // stopped before the loop got to it
                closeQuietly(serverChannel);
            }
        });
    }

    /** On the accepting loop: connections are waiting in the backlog. */
    void onAcceptable() {
        for (int i = 0; i < ACCEPTS_PER_READY && !stopping(); i++) {
            SocketChannel channel;
            try {
                channel = serverChannel.accept();
            } catch (IOException e) {
                if (stopping()) return;
                LOG.log(System.Logger.Level.WARNING, "accept failed: " + e.getMessage());
                pauseAccepting();
                Thread.ofVirtual().start(() -> {
                    sleepQuietly(PAUSE_AFTER_FAILURE_MILLIS);
                    acceptingLoop.execute(resumeAccepting);
                });
                return;
            }
            if (channel == null) return; // the backlog is empty
            if (!admitNow(channel)) {
                pauseAccepting(); // the loop must not wait for a slot: a virtual thread does
                Thread.ofVirtual().name("petrel-admit-nio").start(() -> {
                    if (admit(channel)) acceptingLoop.execute(resumeAccepting);
                });
                return;
            }
        }
    }

    private void pauseAccepting() {
        if (acceptKey.isValid()) acceptKey.interestOps(0);
    }

    private void resumeAccepting() {
        if (!stopping() && acceptKey.isValid()) acceptKey.interestOps(SelectionKey.OP_ACCEPT);
    }

    @Override
    void serve(SocketChannel channel) throws IOException {
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        channel.configureBlocking(false);
        EventLoop loop = group.nextLoop();
        NioEndpoint endpoint = new NioEndpoint(channel, loop, writeLimits, counters);
        ProtocolConnection engine = protocol.open(endpoint);
        endpoint.onClose(() -> closed(engine));
        NioConnection connection = new NioConnection(loop, endpoint, engine, workers);
        opened(engine);
        Runnable register = () -> {
            try {
                connection.start(channel.register(loop.selector(), 0, connection));
            } catch (IOException | RuntimeException e) {
                endpoint.close(); // closed meanwhile (drained at stop), or the selector is gone
            } catch (OutOfMemoryError e) { // its first step found no memory (direct memory for TLS records, say)
                LOG.log(System.Logger.Level.WARNING, "could not start a connection: " + e.getMessage());
                endpoint.close();
            }
        };
        if (loop.inLoop()) register.run(); // accepted on the loop that serves it: no hand-over
        else loop.execute(register);
    }

    @Override
    Socket blockingSocket(SocketChannel channel) {
        return channel.socket(); // an accepted channel starts blocking; this one was never handed to a loop
    }

    @Override
    void stopAccepting() {
        closeQuietly(serverChannel);
        acceptingLoop.wakeup(); // its next select lets the channel go
    }

    /**
     * Waits until the accepting loop has let the server channel go: a registered channel's socket
     * is closed only when its selector deregisters it, and the port must be free when stopping
     * returns.
     */
    @Override
    void awaitAcceptingStopped() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        while (serverChannel.isRegistered() && System.nanoTime() - deadline < 0) sleepQuietly(1);
    }
}
