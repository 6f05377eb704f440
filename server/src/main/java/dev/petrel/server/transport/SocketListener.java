package dev.petrel.server.transport;

import dev.petrel.server.config.TransportKind;
import dev.petrel.server.engine.connection.Protocol;
import dev.petrel.server.engine.connection.ProtocolConnection;
import dev.petrel.server.observe.ConnectorCounters;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.TimeUnit;

/**
 * The thread-per-connection transports, {@code blocking} and {@code virtual}: a blocking
 * server socket that an acceptor thread waits on, and each admitted connection's engine run on a
 * thread of the transport's kind from its first byte to its close.
 *
 * <p>Blocking socket writes have no timeout of their own, so a {@link WriteWatchdog} closes the
 * connections whose write has waited longer than the write timeout.
 */
final class SocketListener extends Listener<Socket> {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.transport");
    private final ServerSocket serverSocket;
    private final ConnectionExecutor executor;
    private final WriteWatchdog watchdog;
    private final WriteLimits writeLimits;
    private final boolean setUpOnItsThread; // see serve()
    private Thread acceptor;

    SocketListener(TransportGroup group, InetSocketAddress address, ListenerSettings settings, ConnectionLimit limit,
                   Protocol protocol, ConnectorCounters counters) throws IOException {
        super(group.kind(), settings, limit, protocol, counters);
        this.serverSocket = new ServerSocket();
        serverSocket.setReuseAddress(true);
        try {
            serverSocket.bind(address, settings.backlog());
        } catch (IOException e) {
            serverSocket.close();
            throw e;
        }
        this.executor = group.executor();
        this.writeLimits = group.writeLimits();
        this.watchdog = group.watchdog();
        this.setUpOnItsThread = group.kind() == TransportKind.BLOCKING;
    }

    @Override
    public InetSocketAddress address() {
        return (InetSocketAddress) serverSocket.getLocalSocketAddress();
    }

    @Override
    void startAccepting() {
        acceptor = Thread.ofPlatform().name("petrel-acceptor-" + kind().cliName()).daemon(false).start(this::acceptLoop);
    }

    private void acceptLoop() {
        while (!stopping()) {
            Socket socket;
            try {
                socket = serverSocket.accept();
            } catch (IOException e) {
                if (stopping()) return;
                // e.g. EMFILE: too many open files. Back off instead of spinning on the error.
                LOG.log(System.Logger.Level.WARNING, "accept failed: " + e.getMessage());
                sleepQuietly(50);
                continue;
            }
            if (!admit(socket)) return;
        }
    }

    @Override
    void stopAccepting() {
        closeQuietly(serverSocket);
        if (acceptor != null) acceptor.interrupt(); // it may be waiting for a slot
    }

    @Override
    void awaitAcceptingStopped() {
        if (acceptor == null) return;
        try {
            acceptor.join(TimeUnit.SECONDS.toMillis(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * On {@code blocking}, hands the socket to a pool thread at once, and that thread sets the
     * connection up: there the acceptor is one runnable thread among the threads serving, the
     * scheduler gives it a share as small as theirs on a busy CPU, and a burst of new connections
     * waits on what it does for each. With the set-up on the acceptor it used more CPU per
     * connection, and the last connections of a burst of 100 waited longer for their first answer
     * ({@code ./petrel bench tail}). On {@code virtual} the acceptor competes only with the carrier
     * threads; there the set-up stays on it, where {@code ab} without keep-alive measured it faster
     * ({@code ./petrel bench connectors}). The figures: {@code bench/RESULTS.md}, "After the
     * acceptor's hand-over".
     */
    @Override
    void serve(Socket socket) throws IOException {
        if (!setUpOnItsThread) {
            Opened connection = open(socket);
            try {
                executor.execute(() -> run(connection));
            } catch (RuntimeException | OutOfMemoryError e) { // no thread to be had: drop this one connection
                connection.endpoint().close();
                closed(connection.engine());
            }
            return;
        }
        handOver();
        try {
            executor.execute(() -> openAndRun(socket));
        } catch (RuntimeException e) {
            takenOver();
            throw e;
        } catch (OutOfMemoryError e) { // no native thread to be had: drop this one connection
            takenOver();
            throw new IllegalStateException("no thread to serve a new connection: " + e.getMessage(), e);
        }
    }

    /** An accepted socket's endpoint and engine, registered with the listener. */
    private record Opened(SocketEndpoint endpoint, ProtocolConnection engine) {
    }

    private Opened open(Socket socket) throws IOException {
        socket.setTcpNoDelay(true); // responses leave in whole writes; Nagle would only delay them
        SocketEndpoint endpoint = new SocketEndpoint(socket, writeLimits, counters);
        ProtocolConnection engine = protocol.open(endpoint);
        opened(engine); // registered before it runs: stopping must find it
        return new Opened(endpoint, engine);
    }

    private void openAndRun(Socket socket) {
        Opened connection;
        try {
            connection = open(socket);
        } catch (IOException | RuntimeException e) {
            notStarted(socket, e);
            return;
        } finally {
            takenOver();
        }
        run(connection);
    }

    /** Serves the connection on this thread until it closes. */
    private void run(Opened connection) {
        watchdog.watch(connection.endpoint());
        try {
            connection.engine().serve();
        } finally {
            watchdog.forget(connection.endpoint());
            closed(connection.engine());
        }
    }

    @Override
    Socket blockingSocket(Socket socket) {
        return socket;
    }
}
