package dev.petrel.bench.floor;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.function.Consumer;

/**
 * The floor over {@code java.nio}: one thread, one {@link Selector}, non-blocking channels; the same
 * loop as {@code bench/baseline/dummy.c} (level-triggered interest, reading stops while a response
 * waits for room) and as {@link FfmEpollFloor}, so the three differ only in how bytes reach the kernel.
 *
 * <p>Input is read into one direct buffer per loop; a connection keeps bytes of its own only between
 * events (a head split across reads, or input left while its output waits), so steady state allocates
 * nothing per request.
 *
 * <pre>java -cp 'bench/target/lib/*' dev.petrel.bench.floor.NioFloor PORT</pre>
 */
public final class NioFloor implements FloorServer {
    private final Selector selector;
    private final ServerSocketChannel server;
    private final ByteBuffer in = ByteBuffer.allocateDirect(IN_CAP);
    /** {@link #in} as a segment, for {@link RequestHeads}; made once, over the whole buffer. */
    private final MemorySegment inSegment = MemorySegment.ofBuffer(in);
    private final ByteBuffer out = ByteBuffer.allocateDirect(MAX_QUEUE * FloorResponse.MAX_LENGTH);
    private final RequestHeads heads = new RequestHeads();
    private final Consumer<SelectionKey> onReady = this::onReady;
    private volatile boolean stopping;
    /** Bytes of input in {@link #in} for the connection being served. */
    private int inLength;

    /** Binds {@code 127.0.0.1:port} (0: any free port). */
    public NioFloor(int port) throws IOException {
        selector = Selector.open();
        server = ServerSocketChannel.open();
        server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        server.bind(new InetSocketAddress(HOST, port), BACKLOG);
        server.configureBlocking(false);
        server.register(selector, SelectionKey.OP_ACCEPT);
    }

    public static void main(String[] args) throws IOException {
        FloorServer.main("nio-floor", args, NioFloor::new);
    }

    @Override
    public int port() {
        return server.socket().getLocalPort();
    }

    @Override
    public void run() throws IOException {
        try {
            while (!stopping) selector.select(onReady);
        } finally {
            for (SelectionKey key : selector.keys()) {
                try {
                    key.channel().close();
                } catch (IOException ignored) {
                    // closing everything anyway
                }
            }
            selector.close();
        }
    }

    @Override
    public void close() {
        stopping = true;
        selector.wakeup();
    }

    private void onReady(SelectionKey key) {
        if (!key.isValid()) return;
        if (key.attachment() instanceof Connection c) {
            if (key.isWritable()) onWritable(c);
            else if (key.isReadable()) onReadable(c);
        } else {
            onAccept();
        }
    }

    private void onAccept() {
        for (;;) {
            SocketChannel channel;
            try {
                channel = server.accept();
            } catch (IOException e) {
                return; // nothing to be done now (dummy.c refuses on EMFILE; a floor run never gets there)
            }
            if (channel == null) return;
            try {
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                Connection c = new Connection(channel);
                c.key = channel.register(selector, SelectionKey.OP_READ, c);
            } catch (IOException e) {
                closeQuietly(channel);
            }
        }
    }

    private void onReadable(Connection c) {
        restoreInput(c);
        if (inLength == IN_CAP) { // a head longer than the buffer: not a client of this benchmark
            close(c);
            return;
        }
        in.limit(IN_CAP).position(inLength);
        int n;
        try {
            n = c.channel.read(in);
        } catch (IOException e) {
            n = -1;
        }
        if (n < 0) {
            close(c);
        } else if (n == 0) {
            keepInput(c, 0);
        } else {
            inLength += n;
            serve(c);
        }
    }

    private void onWritable(Connection c) {
        ByteBuffer pending = ByteBuffer.wrap(c.pendingOut, c.pendingFrom, c.pendingOut.length - c.pendingFrom);
        try {
            c.channel.write(pending);
        } catch (IOException e) {
            close(c);
            return;
        }
        if (pending.hasRemaining()) {
            c.pendingFrom = pending.position();
            return;
        }
        c.pendingOut = null;
        restoreInput(c);
        serve(c); // drained: answer what waited in the input, then read again
    }

    /** Answers the complete heads in {@link #in}, {@link #MAX_QUEUE} to a write, then waits for input or room. */
    private void serve(Connection c) {
        int pos = 0;
        for (;;) {
            boolean full = false;
            int queued = 0;
            out.clear();
            while (!c.closing) {
                if (c.skip > 0) {
                    long k = Math.min(inLength - pos, c.skip);
                    pos += (int) k;
                    c.skip -= k;
                    if (c.skip > 0) break;
                }
                if (queued == MAX_QUEUE) {
                    full = true;
                    break;
                }
                if (!heads.next(inSegment, pos, inLength)) break;
                byte[] response = FloorResponse.bytes(heads);
                out.put(response, 0, FloorResponse.length(heads, response));
                queued++;
                pos = (int) heads.end();
                c.skip = heads.contentLength();
                if (!heads.keepAlive()) c.closing = true; // what follows on this connection is ignored
            }
            if (c.closing) pos = inLength;
            out.flip();
            int flushed = flush(c);
            if (flushed < 0) {
                close(c);
                return;
            }
            if (flushed == 0) {
                keepInput(c, pos);
                interest(c, SelectionKey.OP_WRITE); // stop reading until the peer takes what it asked for
                return;
            }
            if (c.closing) {
                try {
                    c.channel.shutdownOutput();
                } catch (IOException ignored) {
                    // closing anyway
                }
                close(c);
                return;
            }
            if (!full) break;
        }
        keepInput(c, pos);
        interest(c, SelectionKey.OP_READ);
    }

    /** Writes {@link #out}: 1 when all went, 0 when the socket is full (the rest kept), -1 on error. */
    private int flush(Connection c) {
        try {
            while (out.hasRemaining()) {
                if (c.channel.write(out) == 0) {
                    c.pendingOut = new byte[out.remaining()];
                    c.pendingFrom = 0;
                    out.get(c.pendingOut);
                    return 0;
                }
            }
            return 1;
        } catch (IOException e) {
            return -1;
        }
    }

    /** Puts the connection's kept input at the start of {@link #in}. */
    private void restoreInput(Connection c) {
        inLength = 0;
        if (c.keptInput != null) {
            in.clear();
            in.put(c.keptInput);
            inLength = c.keptInput.length;
            c.keptInput = null;
        }
    }

    /** Keeps {@code in[from, inLength)} with the connection until its next event. */
    private void keepInput(Connection c, int from) {
        if (from < inLength) {
            c.keptInput = new byte[inLength - from];
            in.get(from, c.keptInput);
        }
    }

    private static void interest(Connection c, int ops) {
        if (c.interest != ops) {
            c.key.interestOps(ops);
            c.interest = ops;
        }
    }

    private static void close(Connection c) {
        c.key.cancel();
        closeQuietly(c.channel);
    }

    private static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing more to do with it
        }
    }

    /** What a connection holds between events. */
    private static final class Connection {
        final SocketChannel channel;
        SelectionKey key;
        int interest = SelectionKey.OP_READ;
        boolean closing;
        long skip;
        byte[] keptInput;
        byte[] pendingOut;
        int pendingFrom;

        Connection(SocketChannel channel) {
            this.channel = channel;
        }
    }
}
