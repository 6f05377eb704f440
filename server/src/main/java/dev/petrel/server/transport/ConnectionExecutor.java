package dev.petrel.server.transport;

import dev.petrel.server.TransportKind;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
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
     * a minute. The listener never hands over more connections than threads, so tasks only
     * queue for the moment a finishing thread needs to return to the pool.
     */
    final class PlatformPool implements ConnectionExecutor {
        private final ExecutorService pool;

        PlatformPool(int threads) {
            ThreadFactory factory = Thread.ofPlatform().name("petrel-blocking-", 1).daemon(false).factory();
            ThreadPoolExecutor executor = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), factory);
            executor.allowCoreThreadTimeOut(true);
            this.pool = executor;
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
