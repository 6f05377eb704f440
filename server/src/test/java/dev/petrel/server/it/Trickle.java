package dev.petrel.server.it;

import java.io.IOException;
import java.time.Duration;

/**
 * Sends one body byte at a time on a thread of its own, until stopped, the bytes are used up, or
 * a write fails (the server cut the connection or the stream): a client far below any minimum
 * rate, while the test's thread reads what the server answers.
 */
final class Trickle {
    /** Sends one byte of body. */
    @FunctionalInterface
    interface ByteSender {
        void send(byte b) throws IOException;
    }

    private final Thread thread;
    private volatile boolean stopped;

    private Trickle(ByteSender sender, Duration every, int count) {
        this.thread = Thread.ofVirtual().name("trickle").start(() -> {
            try {
                for (int i = 0; i < count && !stopped; i++) {
                    Thread.sleep(every);
                    if (!stopped) sender.send((byte) 'x');
                }
            } catch (IOException | InterruptedException e) {
                // the server ended the request, or the test did
            }
        });
    }

    static Trickle start(ByteSender sender, Duration every, int count) {
        return new Trickle(sender, every, count);
    }

    /** Stops sending and waits (briefly) for the thread to end. */
    void stop() {
        stopped = true;
        thread.interrupt();
        try {
            thread.join(Duration.ofSeconds(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
