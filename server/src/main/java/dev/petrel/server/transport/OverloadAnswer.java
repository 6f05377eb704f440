package dev.petrel.server.transport;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.function.Supplier;

/**
 * Turns a connection away when the server is full: sends the protocol's overload answer (a 503
 * for HTTP), half-closes, and reads what the client sends until it closes or a moment passes,
 * so that the kernel does not reset the connection and destroy the answer before the client has
 * read it. Each runs on its own virtual thread, the acceptor never waits; past
 * {@link #MAX_CONCURRENT} answers in progress, further connections are closed at once.
 */
final class OverloadAnswer {
    static final int MAX_CONCURRENT = 1024;
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.transport");
    private static final int LINGER_MILLIS = 2000;
    private static final int LINGER_BYTES = 64 * 1024;

    private final Supplier<byte[]> answer;
    private final Semaphore inProgress = new Semaphore(MAX_CONCURRENT);
    private final ThreadFactory threads = Thread.ofVirtual().name("petrel-overload-", 1).factory();

    OverloadAnswer(Supplier<byte[]> answer) {
        this.answer = answer;
    }

    /** Answers and closes {@code socket} (a blocking one) in the background. */
    void send(Socket socket) {
        if (!inProgress.tryAcquire()) {
            close(socket);
            return;
        }
        try {
            threads.newThread(() -> {
                try {
                    answerAndLinger(socket);
                } finally {
                    close(socket);
                    inProgress.release();
                }
            }).start();
        } catch (RuntimeException | OutOfMemoryError e) {
            close(socket);
            inProgress.release();
        }
    }

    private void answerAndLinger(Socket socket) {
        try {
            byte[] bytes = answer.get();
            if (bytes.length > 0) socket.getOutputStream().write(bytes);
            socket.shutdownOutput();
            long deadline = System.nanoTime() + LINGER_MILLIS * 1_000_000L;
            InputStream in = socket.getInputStream();
            byte[] discard = new byte[4096];
            int read = 0;
            while (read < LINGER_BYTES) {
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (left <= 0) break;
                socket.setSoTimeout((int) left);
                int n = in.read(discard);
                if (n < 0) break;
                read += n;
            }
        } catch (SocketTimeoutException e) {
            // the client kept the connection open; it has had its answer
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "overload answer to " + socket.getRemoteSocketAddress() + " failed: " + e);
        }
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing a connection we turned away
        }
    }
}
