package dev.petrel.server.transport;

import dev.petrel.server.engine.Endpoint;
import dev.petrel.server.engine.ProtocolConnection;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Accepts connections on a blocking server socket and runs each one's protocol engine on a
 * thread of the transport's kind. At most {@code maxConnections} are served at once: past that
 * the acceptor stops accepting, and new connections wait in the kernel's accept backlog.
 *
 * <p>Stopping is graceful: stop accepting, let busy connections finish their current exchange
 * (idle ones close at once), and cut what is left when the grace period ends.
 */
public final class SocketListener implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.transport");

    private final TransportKind kind;
    private final Function<Endpoint, ProtocolConnection> protocol;
    private final Semaphore slots;
    private final ConnectionExecutor executor;
    private final Set<ProtocolConnection> live = ConcurrentHashMap.newKeySet();
    private final ServerSocket serverSocket;
    private final Thread acceptor;
    private volatile boolean stopping;

    /**
     * Binds {@code address} and starts accepting.
     *
     * @throws java.net.BindException when the address is in use or not local
     */
    public SocketListener(TransportKind kind, InetSocketAddress address, int maxConnections, int backlog,
                          Function<Endpoint, ProtocolConnection> protocol) throws IOException {
        this.kind = kind;
        this.protocol = protocol;
        this.slots = new Semaphore(maxConnections);
        this.serverSocket = new ServerSocket();
        serverSocket.setReuseAddress(true);
        try {
            serverSocket.bind(address, backlog);
        } catch (IOException e) {
            serverSocket.close();
            throw e;
        }
        this.executor = ConnectionExecutor.of(kind, maxConnections);
        this.acceptor = Thread.ofPlatform().name("petrel-acceptor-" + kind.cliName()).daemon(false).start(this::acceptLoop);
    }

    /** The bound address (with the real port when port 0 was asked for). */
    public InetSocketAddress address() {
        return (InetSocketAddress) serverSocket.getLocalSocketAddress();
    }

    /** The transport kind. */
    public TransportKind kind() {
        return kind;
    }

    /** Connections being served now. */
    public int liveConnections() {
        return live.size();
    }

    private void acceptLoop() {
        while (!stopping) {
            try {
                slots.acquire();
            } catch (InterruptedException e) {
                return;
            }
            Socket socket;
            try {
                socket = serverSocket.accept();
            } catch (IOException e) {
                slots.release();
                if (stopping || serverSocket.isClosed()) return;
                // e.g. EMFILE: too many open files. Back off instead of spinning on the error.
                LOG.log(System.Logger.Level.WARNING, "accept failed: " + e.getMessage());
                sleepQuietly(50);
                continue;
            }
            try {
                socket.setTcpNoDelay(true); // responses leave in whole writes; Nagle would only delay them
                ProtocolConnection connection = protocol.apply(new SocketEndpoint(socket));
                live.add(connection);
                executor.execute(() -> {
                    try {
                        connection.serve();
                    } finally {
                        live.remove(connection);
                        slots.release();
                    }
                });
                if (stopping) connection.drain();
            } catch (IOException | RuntimeException e) {
                slots.release();
                closeQuietly(socket);
                if (!(e instanceof SocketException)) LOG.log(System.Logger.Level.WARNING, "could not start a connection", e);
            }
        }
    }

    /**
     * Stops accepting, drains every connection, and waits up to {@code grace} for them to end;
     * connections still open then are closed. Returns whether all ended within the grace period.
     */
    public boolean stop(Duration grace) {
        stopping = true;
        try {
            serverSocket.close();
        } catch (IOException ignored) {
            // closing
        }
        acceptor.interrupt();
        live.forEach(ProtocolConnection::drain);
        long deadline = System.nanoTime() + grace.toNanos();
        while (!live.isEmpty() && System.nanoTime() < deadline) {
            sleepQuietly(10);
        }
        boolean clean = live.isEmpty();
        live.forEach(ProtocolConnection::abort);
        executor.close();
        try {
            acceptor.join(TimeUnit.SECONDS.toMillis(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return clean;
    }

    @Override
    public void close() {
        stop(Duration.ZERO);
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already failing
        }
    }
}
