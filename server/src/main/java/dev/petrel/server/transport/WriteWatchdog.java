package dev.petrel.server.transport;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Cuts connections whose blocking write has waited too long. {@link java.net.Socket} writes
 * cannot time out on their own: a client that stops reading would hold its connection and
 * thread for ever. Each {@link SocketEndpoint} notes by when its current write must be done (see
 * {@link WriteLimits}); one daemon thread looks a few times per allowed time and closes the
 * endpoints stuck past it, which makes their write fail and frees the connection.
 */
final class WriteWatchdog implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.transport");

    private final Set<SocketEndpoint> watched = ConcurrentHashMap.newKeySet();
    private final Thread thread;
    private volatile boolean closed;

    WriteWatchdog(WriteLimits limits) {
        long period = limits.checkPeriodMillis();
        this.thread = Thread.ofPlatform().name("petrel-write-watchdog").daemon(true).start(() -> run(period));
    }

    void watch(SocketEndpoint endpoint) {
        watched.add(endpoint);
    }

    void forget(SocketEndpoint endpoint) {
        watched.remove(endpoint);
    }

    private void run(long periodMillis) {
        while (!closed) {
            try {
                Thread.sleep(periodMillis);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (SocketEndpoint endpoint : watched) {
                if (endpoint.writeOverdue(now)) {
                    LOG.log(System.Logger.Level.DEBUG, () -> "write to " + endpoint.remoteAddress() + " timed out; closing");
                    endpoint.cutOverdueWrite();
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
