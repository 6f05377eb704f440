package dev.petrel.server.tls;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Platform threads, one per processor, on which the costly first step of a TLS handshake computes:
 * the answer to the client's hello (an ECDHE key pair and a signature, most of a handshake's CPU,
 * and more before the JIT has compiled them). Two callers use it: a handshake on a virtual thread
 * {@linkplain #call calls} it and waits, parked, for the result; a handshake an event loop drives
 * {@linkplain #submit submits} the step and goes on serving other connections until the lane wakes
 * it.
 *
 * <p>Why: virtual threads share one scheduler, first come first served, with no preemption, and an
 * event loop serves its connections one after the other. When a hundred clients connect at once
 * (after a restart under load, say), their hundred first steps would queue there ahead of
 * everything that comes later: the requests of connections already open, and the second step of
 * each handshake, which the client sends together with its first request. Measured on one core
 * right after start ({@code wrk -c100} over TLS 1.3, BoringSSL, on virtual threads), a client's
 * first response then waited for the other clients' first steps far longer than the server's own
 * work on it took. Computed here, the first steps wait in a line of their own, and the operating
 * system's scheduler shares the processor between this line and the rest (the open connections and
 * the handshakes' short second steps) instead of putting one behind the other. The hop costs two
 * thread switches per handshake; the server's CPU per handshake under {@code ab -c 100} measured
 * the same with and without it on virtual threads. The figures: {@code bench/RESULTS.md}, "The
 * handshake lane".
 *
 * <p>Platform threads that serve one connection each ({@code blocking}) need none of this: the
 * operating system preempts them.
 */
public final class HandshakeLane {
    private static final HandshakeLane SHARED = new HandshakeLane(Runtime.getRuntime().availableProcessors());

    private final ThreadPoolExecutor executor;

    /** A lane of {@code threads} platform threads, started when work comes and ended after 30 s without. */
    public HandshakeLane(int threads) {
        if (threads < 1) throw new IllegalArgumentException("a handshake lane needs at least 1 thread: " + threads);
        this.executor = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                Thread.ofPlatform().name("petrel-tls-handshake-", 1).daemon(true).factory());
        executor.allowCoreThreadTimeOut(true);
    }

    /** The process's lane, one thread per processor: the processors are shared by every listener. */
    public static HandshakeLane shared() {
        return SHARED;
    }

    /** Calls and submitted work that have run on the lane so far (for tests and diagnostics). */
    long completed() {
        return executor.getCompletedTaskCount();
    }

    /** Whether {@link #call} hands work to the lane when called on the current thread: only from a virtual thread. */
    public static boolean needed() {
        return Thread.currentThread().isVirtual();
    }

    /**
     * Runs {@code work} on the lane and returns its result, waiting for it until
     * {@code deadlineNanos} (on {@link System#nanoTime()}'s scale). Work that has started is always
     * waited for, so that it never runs on beside the caller.
     *
     * @param timeoutMillis the timeout the deadline came from, for the message
     * @throws SocketTimeoutException when the deadline passed before the work started
     * @throws InterruptedIOException when the caller was interrupted before the work started
     * @throws IOException what {@code work} threw
     */
    public <T> T call(Callable<T> work, long deadlineNanos, int timeoutMillis) throws IOException {
        // Taken by whichever comes first: the lane starting the work, or the caller giving up on it.
        // (FutureTask.cancel alone would also "succeed" on work already running.)
        AtomicBoolean taken = new AtomicBoolean();
        FutureTask<T> task = new FutureTask<>(() -> taken.compareAndSet(false, true) ? work.call() : null);
        try {
            executor.execute(task);
        } catch (RejectedExecutionException e) {
            task.run(); // only if the lane were shut down, which the shared one never is
        }
        try {
            long left = deadlineNanos - System.nanoTime();
            return task.get(Math.max(0, left), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            if (taken.compareAndSet(false, true)) {
                executor.remove(task);
                throw new SocketTimeoutException("TLS handshake not completed within " + timeoutMillis
                        + " ms (waiting for the processor behind other handshakes)");
            }
            return finished(task);
        } catch (InterruptedException e) {
            if (taken.compareAndSet(false, true)) {
                executor.remove(task);
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting to compute a TLS handshake");
            }
            T result = finished(task);
            Thread.currentThread().interrupt();
            return result;
        } catch (ExecutionException e) {
            throw rethrown(e.getCause());
        }
    }

    /**
     * Runs {@code work} on the lane without waiting for it, for a caller that must not wait (an
     * event loop): {@code whenDone} runs on the lane right after the work, unless it was
     * {@linkplain Pending#drop() dropped}, and the caller then takes the {@linkplain Pending#result()
     * result}.
     */
    public <T> Pending<T> submit(Callable<T> work, Runnable whenDone) {
        Pending<T> pending = new Pending<>(work, whenDone);
        try {
            executor.execute(pending.task);
        } catch (RejectedExecutionException e) {
            pending.task.run(); // only if the lane were shut down, which the shared one never is
        }
        return pending;
    }

    /** Work {@linkplain #submit submitted} to the lane. */
    public final class Pending<T> {
        // Taken by whichever comes first: the lane starting the work, or the caller dropping it.
        private final AtomicBoolean taken = new AtomicBoolean();
        private final FutureTask<T> task;

        private Pending(Callable<T> work, Runnable whenDone) {
            this.task = new FutureTask<>(() -> taken.compareAndSet(false, true) ? work.call() : null) {
                @Override
                protected void done() {
                    if (!isCancelled()) whenDone.run();
                }
            };
        }

        /** Whether the work has run (or failed); then {@link #result()} returns at once. */
        public boolean isDone() {
            return task.isDone();
        }

        /**
         * Drops the work if it has not started (its deadline passed in the line, say): it then
         * never runs, and {@code whenDone} neither. Returns false when it has started already.
         */
        public boolean drop() {
            if (!taken.compareAndSet(false, true)) return false;
            task.cancel(false);
            executor.remove(task);
            return true;
        }

        /** Waits, without giving up, until the work has run or was dropped. */
        public void await() {
            if (task.isCancelled()) return;
            try {
                finished(task);
            } catch (IOException | RuntimeException e) {
                // the caller takes it with result()
            }
        }

        /** What the work returned, or threw; call once {@link #isDone()}. */
        public T result() throws IOException {
            if (!task.isDone()) throw new IllegalStateException("the work has not run yet");
            return finished(task);
        }
    }

    /** Waits, without giving up, for work that has started. */
    private static <T> T finished(FutureTask<T> task) throws IOException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return task.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    throw rethrown(e.getCause());
                }
            }
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    private static IOException rethrown(Throwable cause) {
        if (cause instanceof IOException io) return io;
        if (cause instanceof RuntimeException runtime) throw runtime;
        if (cause instanceof Error error) throw error;
        return new IOException(cause);
    }
}
