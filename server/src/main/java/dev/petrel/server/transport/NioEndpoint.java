package dev.petrel.server.transport;

import dev.petrel.server.engine.connection.Endpoint;
import dev.petrel.server.observe.ConnectorCounters;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * An {@link Endpoint} over a non-blocking {@link SocketChannel} registered with an
 * {@link EventLoop}. Between requests the engine reads with {@link #readAvailable} and hands the
 * connection back to the loop. Inside an exchange the engine runs on a worker thread that wants
 * blocking reads and writes: when the socket has nothing to read, or no room to write, the worker
 * asks the loop to watch for it and parks until the loop wakes it or the timeout passes. The two
 * directions wait apart (full duplex): one thread may wait to write a response while another waits
 * for more of the request body, and each is woken by its own readiness. A slow
 * reader therefore holds back its handler (back-pressure) and never makes the server buffer more
 * than the response buffer; a client that takes no bytes for the write timeout, or takes them
 * slower than the minimum rate, is cut (see {@link WriteLimits}).
 */
final class NioEndpoint implements Endpoint {
    private final SocketChannel channel;
    private final EventLoop loop;
    private final WriteLimits writeLimits;
    private final ConnectorCounters counters; // null: not counted
    private Runnable onClose = () -> {};
    private final InetSocketAddress remote;
    private final InetSocketAddress local;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Runnable watchAwaited = this::watchAwaited;
    private SelectionKey key; // set on the loop at registration, before any worker sees this endpoint
    private NioConnection connection;

    private final Waiter reader = new Waiter(SelectionKey.OP_READ);
    private final Waiter writer = new Waiter(SelectionKey.OP_WRITE);

    // a wrapper over the last array written, reused: the response buffer is the same array every time
    private byte[] wrappedArray;
    private ByteBuffer wrapped;

    NioEndpoint(SocketChannel channel, EventLoop loop, WriteLimits writeLimits, ConnectorCounters counters) throws IOException {
        this.channel = channel;
        this.loop = loop;
        this.writeLimits = writeLimits;
        this.counters = counters;
        this.remote = (InetSocketAddress) channel.getRemoteAddress();
        this.local = (InetSocketAddress) channel.getLocalAddress();
    }

    /** What to do once the endpoint has closed (the listener frees the connection's slot); set before it is served. */
    void onClose(Runnable action) {
        this.onClose = action;
    }

    void bind(SelectionKey key, NioConnection connection) {
        this.key = key;
        this.connection = connection;
    }

    @Override
    public boolean waitsWithoutThread() {
        return true;
    }

    @Override
    public boolean onEventLoop() {
        return loop.inLoop();
    }

    @Override
    public boolean wakesOnLoop() {
        return true;
    }

    @Override
    public void wakeOnLoop() {
        NioConnection woken = connection;
        if (woken != null) loop.execute(woken.wake());
    }

    @Override
    public int readAvailable(ByteBuffer dst) throws IOException {
        return counted(channel.read(dst));
    }

    private int counted(int read) {
        if (read > 0 && counters != null) counters.received(read);
        return read;
    }

    @Override
    public int read(ByteBuffer dst, int timeoutMillis) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            int n = counted(channel.read(dst));
            if (n != 0) return n;
            if (!await(SelectionKey.OP_READ, deadline)) throw new SocketTimeoutException("read timed out");
        }
    }

    @Override
    public void write(byte[] src, int off, int len) throws IOException {
        if (src != wrappedArray) {
            wrapped = ByteBuffer.wrap(src);
            wrappedArray = src;
        }
        write(wrapped.clear().position(off).limit(off + len));
    }

    /** Writes {@code buffer} as it is: a direct one without the copy into native memory a heap one costs the channel. */
    @Override
    public void write(ByteBuffer buffer) throws IOException {
        int len = buffer.remaining();
        channel.write(buffer);
        if (!buffer.hasRemaining()) { // the usual case: the socket took it all at once, no clock needed
            if (counters != null) counters.sent(len);
            return;
        }
        // The socket is full: the rest goes out in slices, each within its limits. The slice and the
        // last progress are counted in bytes from here; what the first write took was never waited for.
        int end = buffer.limit();
        long now = System.nanoTime();
        int sliceStart = buffer.position();
        long sliceStartTime = now;
        long lastProgress = now;
        long sendBuffer = sendBufferSize();
        while (buffer.hasRemaining()) {
            int sliceBytes = WriteLimits.slice(end - sliceStart);
            if (!await(SelectionKey.OP_WRITE, writeLimits.deadline(sliceStartTime, sliceBytes, lastProgress, sendBuffer))) {
                throw writeLimits.timedOut();
            }
            if (channel.write(buffer) > 0) {
                lastProgress = System.nanoTime(); // the timeout counts from the last byte taken
                if (buffer.position() - sliceStart >= sliceBytes) { // the slice is done: the next one starts now
                    sliceStart = buffer.position();
                    sliceStartTime = lastProgress;
                }
            }
        }
        if (counters != null) counters.sent(len);
    }

    @Override
    public boolean writesWithoutWaiting() {
        return true;
    }

    @Override
    public void writeAvailable(ByteBuffer src) throws IOException {
        int n = channel.write(src);
        if (n > 0 && counters != null) counters.sent(n);
    }

    @Override
    public boolean callerMayWait() {
        return !EventLoop.onAnyLoop();
    }

    /**
     * The file's bytes by {@link FileChannel#transferTo}: the kernel moves them from the page cache
     * to the socket. A full socket is waited for as in {@link #write}, slice by slice within the
     * same limits; nothing taken for {@code size()} means the file shrank under us.
     */
    @Override
    public boolean transferFile(FileChannel file, long position, long count) throws IOException {
        long end = position + count;
        long now = System.nanoTime();
        long sliceStart = position;
        long sliceStartTime = now;
        long lastProgress = now;
        long sendBuffer = -1; // asked for once the socket is full
        while (position < end) {
            long n = file.transferTo(position, end - position, channel);
            if (n > 0) {
                position += n;
                if (counters != null) counters.sent((int) n);
                lastProgress = System.nanoTime();
                if (position - sliceStart >= WriteLimits.slice((int) Math.min(Integer.MAX_VALUE, end - sliceStart))) {
                    sliceStart = position;
                    sliceStartTime = lastProgress;
                }
                continue;
            }
            if (position >= file.size()) throw new IOException("the file ended " + (end - position) + " bytes short (changed while sent)");
            int sliceBytes = WriteLimits.slice((int) Math.min(Integer.MAX_VALUE, end - sliceStart));
            if (sendBuffer < 0) sendBuffer = sendBufferSize();
            if (!await(SelectionKey.OP_WRITE, writeLimits.deadline(sliceStartTime, sliceBytes, lastProgress, sendBuffer))) {
                throw writeLimits.timedOut();
            }
        }
        return true;
    }

    /** The socket's send buffer as the kernel has sized it by now; asked only once a write finds the socket full. */
    private long sendBufferSize() throws IOException {
        return channel.getOption(StandardSocketOptions.SO_SNDBUF);
    }

    /** A worker parked until the socket is ready in one direction. */
    private static final class Waiter {
        final int op;
        volatile Thread thread;
        volatile boolean waiting; // set by the worker; cleared by the loop once ready, or by the worker giving up

        Waiter(int op) {
            this.op = op;
        }

        void wake() {
            Thread parked = thread;
            if (parked != null) LockSupport.unpark(parked);
        }
    }

    /** Parks the calling worker until the loop sees the socket ready for {@code op}; false at the deadline. */
    private boolean await(int op, long deadline) throws IOException {
        if (loop.inLoop()) return awaitOnLoop(op, deadline);
        Waiter waiter = op == SelectionKey.OP_READ ? reader : writer;
        waiter.thread = Thread.currentThread();
        waiter.waiting = true;
        loop.execute(watchAwaited);
        try {
            while (waiter.waiting) {
                if (closed.get()) throw new ClosedChannelException();
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) return false;
                LockSupport.parkNanos(this, remaining);
            }
            if (closed.get()) throw new ClosedChannelException();
            return true;
        } finally {
            waiter.waiting = false;
            waiter.thread = null;
        }
    }

    /** A handler running inline on the loop must wait: watch this one socket on the loop's second selector. */
    private boolean awaitOnLoop(int op, long deadline) throws IOException {
        Selector selector = loop.blockingSelector();
        SelectionKey waitKey = channel.register(selector, op);
        try {
            while (true) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) return false;
                if (selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(remaining))) > 0) return true;
            }
        } finally {
            waitKey.cancel();
            selector.selectNow(); // completes the cancellation, so the channel can register again
        }
    }

    /** On the loop: adds what the workers wait for to the key's interest. */
    private void watchAwaited() {
        int ops = (reader.waiting ? reader.op : 0) | (writer.waiting ? writer.op : 0);
        if (ops != 0) changeInterest(ops, 0);
    }

    /**
     * Adds and removes interest ops on the loop. Another thread may close the channel at any time (a
     * worker, a write watchdog, a stop), cancelling the key even after a validity check: then there
     * is nothing left to watch.
     */
    private void changeInterest(int add, int remove) {
        try {
            if (key.isValid()) key.interestOps((key.interestOps() | add) & ~remove);
        } catch (CancelledKeyException closedMeanwhile) {
            // the closer releases the waiters
        }
    }

    /** On the loop: the socket is ready while workers run the engine; wake those waiting for it. */
    void onReady(int readyOps) {
        changeInterest(0, readyOps); // level-triggered: stop watching until asked again
        wakeIfReady(reader, readyOps);
        wakeIfReady(writer, readyOps);
    }

    private static void wakeIfReady(Waiter waiter, int readyOps) {
        if ((readyOps & waiter.op) != 0 && waiter.waiting) {
            waiter.waiting = false;
            waiter.wake();
        }
    }

    @Override
    public void shutdownOutput() throws IOException {
        if (channel.isOpen()) channel.shutdownOutput();
    }

    /** Half-closes, and leaves the lingering and the close to the event loop: no thread waits for the client. */
    @Override
    public void closeGracefully(int lingerMillis, int lingerBytes) {
        try {
            shutdownOutput();
        } catch (IOException e) {
            close();
            return;
        }
        if (connection == null) close();
        else connection.linger(lingerMillis, lingerBytes);
    }

    /** Closes the channel once; wakes a waiting worker and tells the listener. Safe from any thread. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) return;
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing
        }
        reader.wake();
        writer.wake();
        loop.wakeup(); // the selector lets go of the closed channel at its next select
        onClose.run();
        NioConnection closedOne = connection;
        if (closedOne != null) {
            if (loop.inLoop()) closedOne.onClosed();
            else loop.execute(closedOne.closed());
        }
    }

    /** A reset (linger 0): what the client reads ends in an error, never in an orderly end of stream. */
    @Override
    public void reset() {
        try {
            if (channel.isOpen()) channel.setOption(java.net.StandardSocketOptions.SO_LINGER, 0);
        } catch (IOException ignored) {
            // the channel is gone already: closing it is all that is left
        }
        close();
    }

    boolean isClosed() {
        return closed.get();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return remote;
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }
}
