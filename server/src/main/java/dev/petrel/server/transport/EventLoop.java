package dev.petrel.server.transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One selector thread of the {@code nio} transport. It owns its selector and everything
 * registered with it: readiness goes to each key's {@link NioConnection}, or to the
 * {@link NioListener} whose server channel it accepts on; other threads hand it
 * work through {@link #execute}, and a few times a second it asks every waiting connection
 * whether its deadline has passed.
 */
final class EventLoop implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.transport");
    /** How often waiting connections' deadlines are checked; timeouts fire at most this late. */
    static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /** The loop whose thread this is; unbound on every other thread. */
    private static final ScopedValue<EventLoop> CURRENT = ScopedValue.newInstance();

    private final Selector selector;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean wakeupPending = new AtomicBoolean();
    private final Thread thread;
    private final boolean virtual;
    private final ByteBuffer scratch = ByteBuffer.allocate(8192);
    private Selector blockingSelector; // loop thread only; opened on first use
    private volatile boolean closing;

    /**
     * A loop on a thread of {@code threads}' kind. On a virtual thread the loop and the virtual
     * threads it hands requests to share the carriers: on a busy server the hand-over each way is a
     * switch between continuations on one carrier rather than between two threads of the kernel,
     * which on one CPU cost 0.6 context switches per request (see {@link LoopThreads}).
     */
    EventLoop(String name, LoopThreads threads) throws IOException {
        this.selector = Selector.open();
        this.virtual = threads == LoopThreads.VIRTUAL;
        this.thread = switch (threads) {
            case PLATFORM -> Thread.ofPlatform().name(name).daemon(true).unstarted(this::runAsCurrent);
            case VIRTUAL -> Thread.ofVirtual().name(name).unstarted(this::runAsCurrent);
        };
    }

    void start() {
        thread.start();
    }

    Selector selector() {
        return selector;
    }

    /** A buffer for bytes read only to be discarded; loop thread only. */
    ByteBuffer scratch() {
        return scratch;
    }

    /**
     * A second selector for the rare blocking wait of a handler that runs inline on this loop
     * (a write the socket cannot take at once): the loop waits for that one socket there, as
     * Tomcat's NIO connector did for blocking I/O. Loop thread only.
     */
    Selector blockingSelector() throws IOException {
        if (blockingSelector == null) blockingSelector = Selector.open();
        return blockingSelector;
    }

    boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    /** Whether the calling thread is any event loop's, which must never wait on one connection. */
    static boolean onAnyLoop() {
        return CURRENT.isBound();
    }

    /** Runs {@code task} on the loop thread soon; safe from any thread. */
    void execute(Runnable task) {
        tasks.add(task);
        if (!inLoop() && wakeupPending.compareAndSet(false, true)) selector.wakeup();
    }

    /**
     * Makes a blocked select return, e.g. so that a channel closed elsewhere is let go at once. On
     * the loop itself there is no blocked select to wake: its next select lets the channel go, and
     * waking it would only cost a system call and an empty select per closed connection.
     */
    void wakeup() {
        if (!inLoop() && wakeupPending.compareAndSet(false, true)) selector.wakeup();
    }

    private void runAsCurrent() {
        ScopedValue.where(CURRENT, this).run(this::run);
    }

    private void run() {
        long nextTick = System.nanoTime() + TICK_NANOS;
        while (!closing) {
            try {
                // Cleared before looking at the queue: a task added after the look finds the flag
                // clear and wakes the select below; one added before it is seen by the look.
                wakeupPending.set(false);
                if (!tasks.isEmpty()) {
                    selector.selectNow(this::dispatch);
                } else if (!virtual || !foundAfterYield()) {
                    long wait = TimeUnit.NANOSECONDS.toMillis(nextTick - System.nanoTime());
                    selector.select(this::dispatch, Math.max(1, wait));
                }
                runTasks();
                long now = System.nanoTime();
                if (now - nextTick >= 0) {
                    tick(now);
                    nextTick = now + TICK_NANOS;
                }
            } catch (ClosedSelectorException e) {
                return;
            } catch (IOException | RuntimeException | OutOfMemoryError e) {
                // one connection's failure must not stop the loop serving the others; nor must memory
                // running out for one (a dead loop would leave all of its connections unanswered)
                LOG.log(System.Logger.Level.ERROR, "event loop " + thread.getName() + " failed", e);
            }
        }
    }

    /**
     * Before a virtual loop waits, it lets the requests it handed over on this carrier run
     * ({@link Thread#yield}) and looks again: their hand-backs and the next readiness are then taken
     * in without parking. A parked virtual loop is woken through the JDK's poller thread, a kernel
     * context switch that the yield saves on a busy carrier; on an idle one the yield returns at
     * once. True when the look found work.
     */
    private boolean foundAfterYield() throws IOException {
        Thread.yield();
        return selector.selectNow(this::dispatch) > 0 || !tasks.isEmpty();
    }

    /**
     * Hands one ready key to what it belongs to. A worker may close its connection's channel while
     * the loop hands out that very key's readiness: the key is then cancelled between the select and
     * here, and reading its ready set throws. That is a connection gone, not a failure of the loop.
     */
    void dispatch(SelectionKey key) {
        try {
            switch (key.attachment()) {
                case NioConnection connection -> connection.onReady(key);
                case NioListener listener -> listener.onAcceptable();
                default -> { }
            }
        } catch (CancelledKeyException closedMeanwhile) {
            // its closer has released the connection; the next select lets the key go
        }
    }

    private void runTasks() {
        Runnable task;
        while ((task = tasks.poll()) != null) {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "event loop task failed", e);
            }
        }
    }

    private void tick(long now) {
        for (SelectionKey key : selector.keys()) {
            if (key.isValid() && key.attachment() instanceof NioConnection connection) connection.onTick(now);
        }
    }

    /** Stops the loop and closes its selector; connections must have been closed before. */
    @Override
    public void close() {
        closing = true;
        selector.wakeup();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            selector.close();
            if (blockingSelector != null) blockingSelector.close();
        } catch (IOException ignored) {
            // closing
        }
    }
}
