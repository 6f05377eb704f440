package dev.petrel.server.transport;

import dev.petrel.server.config.TransportKind;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** Runs connections' engines on threads of the transport's kind. */
interface ConnectionExecutor extends AutoCloseable {
    void execute(Runnable connection);

    @Override
    void close();

    static ConnectionExecutor of(TransportKind kind, int maxConnections) {
        return switch (kind) {
            case BLOCKING -> new PlatformPool(maxConnections);
            case VIRTUAL, NIO -> new VirtualThreads(kind);
        };
    }

    /**
     * A pool of platform threads, at most one per allowed connection; idle threads retire after
     * a minute. A new connection goes to an idle thread when there is one, and a thread is
     * started only when none is idle: a {@link ThreadPoolExecutor} with core threads would start
     * a new one for every connection until it had them all, which on a busy CPU makes the acceptor
     * (and the first request of each connection in a burst) wait for thread starts, hundreds of
     * milliseconds for the last of 100 connections on one CPU. The listener never hands over more
     * connections than threads, but a finishing thread frees its connection's slot a moment before
     * it is idle again: a connection handed over in that moment waits for it.
     */
    final class PlatformPool implements ConnectionExecutor {
        private final ThreadPoolExecutor pool;

        PlatformPool(int threads) {
            ThreadFactory factory = Thread.ofPlatform().name("petrel-blocking-", 1).daemon(false).factory();
            this.pool = new ThreadPoolExecutor(0, threads, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), factory,
                    PlatformPool::awaitIdleThread);
        }

        /** Every thread is busy, one of them finishing: wait for it to take the connection. */
        private static void awaitIdleThread(Runnable connection, ThreadPoolExecutor pool) {
            if (pool.isShutdown()) throw new RejectedExecutionException("the pool is shut down");
            try {
                pool.getQueue().put(connection);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RejectedExecutionException("interrupted while waiting for a thread", e);
            }
        }

        @Override
        public void execute(Runnable connection) {
            pool.execute(connection);
        }

        @Override
        public void close() {
            pool.shutdown();
        }
    }

    /** A new virtual thread per task: per connection on {@code virtual}, per burst of requests on {@code nio}. */
    final class VirtualThreads implements ConnectionExecutor {
        private final ThreadFactory factory;

        VirtualThreads(TransportKind kind) {
            this.factory = Thread.ofVirtual().name("petrel-" + kind.cliName() + "-", 1).factory();
        }

        @Override
        public void execute(Runnable connection) {
            factory.newThread(connection).start();
        }

        @Override
        public void close() {
            // virtual threads need no pool to shut down
        }
    }
}
