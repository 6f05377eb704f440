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

    @Override
    void serve(Socket socket) throws IOException {
        socket.setTcpNoDelay(true); // responses leave in whole writes; Nagle would only delay them
        SocketEndpoint endpoint = new SocketEndpoint(socket, writeLimits, counters);
        ProtocolConnection connection = protocol.open(endpoint);
        opened(connection); // before it runs: a connection that ends at once must find itself registered
        try {
            executor.execute(() -> {
                watchdog.watch(endpoint);
                try {
                    connection.serve();
                } finally {
                    watchdog.forget(endpoint);
                    closed(connection);
                }
            });
        } catch (RuntimeException | OutOfMemoryError e) { // no thread to be had: drop this one connection
            endpoint.close();
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
