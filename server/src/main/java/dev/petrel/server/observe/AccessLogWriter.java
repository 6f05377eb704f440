package dev.petrel.server.observe;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes access log lines on a thread of its own, so that a slow disk never holds a request: a
 * request {@linkplain #record offers} its line to a bounded queue and goes on; a full queue drops
 * the line and counts it, and the writer logs the count once it catches up. {@link #reopen} makes
 * the writer close and reopen the file (for {@code logrotate}); {@link #close} writes what is
 * queued and stops it.
 */
public final class AccessLogWriter implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("dev.petrel.server.access");
    /** Lines held at most: a few seconds of a busy server's requests, a few MiB. */
    static final int CAPACITY = 16_384;
    /**
     * Put in the queue to wake the writer for {@link #reopen} or {@link #close}, told apart by
     * identity: an interrupt would do it too, but closes a file channel it lands in mid-write.
     */
    @SuppressWarnings("StringOperationCanBeSimplified")
    private static final String WAKE = new String("wake");

    private final Path file; // null: standard output
    private final ArrayBlockingQueue<String> queue;
    private final AtomicLong dropped = new AtomicLong();
    private final Thread thread;
    private volatile boolean reopen;
    private volatile boolean closing;
    private Writer out; // the writer thread's only
    private long reported; // the writer thread's only

    /**
     * Opens {@code file} for appending (or standard output for {@code null}) and starts the writer.
     *
     * @throws IOException when the file cannot be opened: the server does not start
     */
    public AccessLogWriter(Path file) throws IOException {
        this(file, CAPACITY);
    }

    AccessLogWriter(Path file, int capacity) throws IOException {
        this.file = file;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.out = open();
        this.thread = Thread.ofPlatform().daemon().name("petrel-access-log").start(this::drain);
    }

    private Writer open() throws IOException {
        if (file == null) return new OutputStreamWriter(System.out, StandardCharsets.UTF_8);
        return Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                StandardOpenOption.WRITE);
    }

    /** Queues a line (without its line end); drops and counts it when the queue is full. */
    public void record(String line) {
        if (!queue.offer(line)) dropped.incrementAndGet();
    }

    /** Lines dropped so far because the queue was full. */
    public long dropped() {
        return dropped.get();
    }

    /** Asks the writer to close and reopen the file before its next line (a rotated file is left to its rotator). */
    public void reopen() {
        reopen = true;
        queue.offer(WAKE); // an idle server's writer reopens at once; a full queue's is awake anyway
    }

    private void drain() {
        List<String> batch = new ArrayList<>(256);
        while (true) {
            try {
                String first = queue.poll(1, TimeUnit.SECONDS);
                if (first != null) {
                    batch.add(first);
                    queue.drainTo(batch, 255);
                    write(batch);
                    batch.clear();
                }
            } catch (InterruptedException e) {
                closing = true; // nobody else interrupts this thread: treat it as a stop
            }
            if (reopen) reopenNow();
            reportDropped();
            if (closing && queue.isEmpty()) break;
        }
        try {
            out.flush();
            if (file != null) out.close();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "access log " + where() + ": " + e.getMessage());
        }
    }

    private void write(List<String> lines) {
        try {
            for (String line : lines) {
                if (line == WAKE) continue;
                out.write(line);
                out.write('\n');
            }
            out.flush();
        } catch (IOException e) {
            dropped.addAndGet(lines.size());
            LOG.log(System.Logger.Level.WARNING, "access log " + where() + ": " + e.getMessage());
        }
    }

    private void reopenNow() {
        reopen = false;
        if (file == null) return;
        try {
            out.close();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "access log " + where() + ": " + e.getMessage());
        }
        try {
            out = open();
            LOG.log(System.Logger.Level.INFO, "access log " + where() + " reopened");
        } catch (IOException e) {
            // keep trying at the next line: lines meanwhile are counted as dropped by write()
            LOG.log(System.Logger.Level.ERROR, "access log " + where() + " cannot be reopened: " + e.getMessage());
            out = Writer.nullWriter();
            reopen = true;
        }
    }

    private void reportDropped() {
        long now = dropped.get();
        if (now > reported) {
            LOG.log(System.Logger.Level.WARNING, "access log " + where() + ": " + (now - reported)
                    + " line(s) dropped: the writer fell behind (" + now + " in all)");
            reported = now;
        }
    }

    private String where() {
        return file == null ? "(standard output)" : file.toString();
    }

    /** Writes what is queued, closes the file, and stops the writer. */
    @Override
    public void close() {
        closing = true;
        queue.offer(WAKE);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
