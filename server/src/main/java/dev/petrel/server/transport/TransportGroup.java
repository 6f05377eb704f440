package dev.petrel.server.transport;

import dev.petrel.server.config.TransportKind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What every listener of a server shares, whatever its protocol: the threads that serve
 * connections ({@code blocking}: a pool of platform threads sized for the connection limit;
 * {@code virtual} and {@code nio}: virtual threads), the {@code nio} event loops, and the watchdog
 * that cuts blocking writes past their deadline. A server with several connectors has one group,
 * so two HTTP ports and an AJP port do not each bring their own loops.
 */
public final class TransportGroup implements AutoCloseable {
    private final TransportKind kind;
    private final List<EventLoop> loops = new ArrayList<>();
    private final ConnectionExecutor executor;
    private final WriteLimits writeLimits;
    private final WriteWatchdog watchdog; // thread-per-connection transports only
    private final AtomicInteger next = new AtomicInteger();

    private TransportGroup(TransportKind kind, ListenerSettings settings, LoopThreads loopThreads) throws IOException {
        this.kind = kind;
        this.writeLimits = settings.writeLimits();
        if (kind == TransportKind.NIO) {
            try {
                for (int i = 0; i < settings.eventLoops(); i++) loops.add(new EventLoop("petrel-nio-loop-" + (i + 1), loopThreads));
            } catch (IOException e) {
                loops.forEach(EventLoop::close);
                throw e;
            }
            loops.forEach(EventLoop::start);
        }
        this.executor = ConnectionExecutor.of(kind, settings.maxConnections());
        this.watchdog = kind == TransportKind.NIO ? null : new WriteWatchdog(writeLimits);
    }

    /**
     * The threads, loops and watchdog of transport {@code kind}, sized by {@code settings}; the
     * {@code nio} event loops on threads of {@code loopThreads}' kind ({@link LoopThreads#forHandlers}).
     */
    public static TransportGroup open(TransportKind kind, ListenerSettings settings, LoopThreads loopThreads) throws IOException {
        return new TransportGroup(kind, settings, loopThreads);
    }

    /** The transport of every listener in the group. */
    public TransportKind kind() {
        return kind;
    }

    /** The next event loop, in turn, for a connection a {@code nio} listener accepted. */
    EventLoop nextLoop() {
        return loops.get(Math.floorMod(next.getAndIncrement(), loops.size()));
    }

    ConnectionExecutor executor() {
        return executor;
    }

    WriteLimits writeLimits() {
        return writeLimits;
    }

    WriteWatchdog watchdog() {
        return watchdog;
    }

    /** Stops the threads and loops; every listener of the group must have stopped first. */
    @Override
    public void close() {
        if (watchdog != null) watchdog.close();
        executor.close();
        loops.forEach(EventLoop::close);
    }
}
