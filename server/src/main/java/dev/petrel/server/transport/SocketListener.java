package dev.petrel.server.transport;

import dev.petrel.server.TransportKind;
import dev.petrel.server.engine.ConnectorCounters;
import dev.petrel.server.engine.Protocol;
import dev.petrel.server.engine.ProtocolConnection;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * The thread-per-connection transports, {@code blocking} and {@code virtual}: a blocking
 * server socket, and each admitted connection's engine run on a thread of the transport's kind
 * from its first byte to its close.
 *
 * <p>Blocking socket writes have no timeout of their own, so a {@link WriteWatchdog} closes the
 * connections whose write has waited longer than the write timeout.
 */
final class SocketListener extends Listener<Socket> {
    private final ServerSocket serverSocket;
    private final ConnectionExecutor executor;
    private final WriteWatchdog watchdog;
    private final WriteLimits writeLimits;

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
    }

    @Override
    public InetSocketAddress address() {
        return (InetSocketAddress) serverSocket.getLocalSocketAddress();
    }

    @Override
    Socket accept() throws IOException {
        return serverSocket.accept();
    }

    /**
     * Hands the socket to a thread of its own at once; that thread sets the connection up. The
     * acceptor does as little as it can per connection: on a busy CPU it is one runnable thread
     * among those serving, the scheduler gives it a share as small as theirs, and a burst of new
     * connections waits on what it does for each ({@code ./petrel bench tail}: with the setup
     * here, the acceptor used about twice the CPU per connection, and the last connections of a
     * burst of 100 waited hundreds of milliseconds more for their first answer).
     */
    @Override
    void serve(Socket socket) throws IOException {
        handOver();
        try {
            executor.execute(() -> openAndServe(socket));
        } catch (RuntimeException e) {
            takenOver();
            throw e;
        } catch (OutOfMemoryError e) { // no native thread to be had: drop this one connection
            takenOver();
            throw new IllegalStateException("no thread to serve a new connection: " + e.getMessage(), e);
        }
    }

    private void openAndServe(Socket socket) {
        ProtocolConnection connection;
        SocketEndpoint endpoint;
        try {
            socket.setTcpNoDelay(true); // responses leave in whole writes; Nagle would only delay them
            endpoint = new SocketEndpoint(socket, writeLimits, counters);
            connection = protocol.open(endpoint);
            opened(connection); // registered before it runs: stopping must find it
        } catch (IOException | RuntimeException e) {
            notStarted(socket, e);
            return;
        } finally {
            takenOver();
        }
        watchdog.watch(endpoint);
        try {
            connection.serve();
        } finally {
            watchdog.forget(endpoint);
            closed(connection);
        }
    }

    @Override
    Socket blockingSocket(Socket socket) {
        return socket;
    }

    @Override
    void closeServerSocket() {
        closeQuietly(serverSocket);
    }
}
