package dev.petrel.server.transport;

import dev.petrel.server.TransportKind;
import dev.petrel.server.engine.ConnectorCounters;
import dev.petrel.server.engine.Protocol;
import dev.petrel.server.engine.ProtocolConnection;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * The {@code nio} transport: the acceptor hands each admitted connection, made non-blocking, to
 * one of the group's event loops in turn (shared with the server's other listeners). Waiting connections cost the loop a key and the engine's
 * buffers, no thread; a request's exchange runs on a virtual thread, so handlers may block.
 */
final class NioListener extends Listener<SocketChannel> {
    private final ServerSocketChannel serverChannel;
    private final TransportGroup group;
    private final ConnectionExecutor workers;
    private final WriteLimits writeLimits;

    NioListener(TransportGroup group, InetSocketAddress address, ListenerSettings settings, ConnectionLimit limit,
                Protocol protocol, ConnectorCounters counters) throws IOException {
        super(TransportKind.NIO, settings, limit, protocol, counters);
        this.group = group;
        this.serverChannel = ServerSocketChannel.open();
        try {
            serverChannel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            serverChannel.bind(address, settings.backlog());
        } catch (IOException e) {
            serverChannel.close();
            throw e;
        }
        this.workers = group.executor();
        this.writeLimits = group.writeLimits();
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
    SocketChannel accept() throws IOException {
        return serverChannel.accept(); // the server channel stays blocking: the acceptor thread waits here
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
        loop.execute(() -> {
            try {
                connection.start(channel.register(loop.selector(), 0, connection));
            } catch (IOException | RuntimeException e) {
                endpoint.close(); // closed meanwhile (drained at stop), or the selector is gone
            }
        });
    }

    @Override
    Socket blockingSocket(SocketChannel channel) {
        return channel.socket(); // still in blocking mode: it was never handed to a loop
    }

    @Override
    void closeServerSocket() {
        closeQuietly(serverChannel);
    }
}
