package dev.petrel.bench.lab;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * An open-loop load generator: {@code GET} requests at a fixed rate, each scheduled at
 * {@code start + i / rate} whatever happened to the ones before, over a bounded pool of keep-alive
 * connections. Latency is measured from a request's <em>intended</em> send time, so a stall of the
 * server (or of the pool: every connection busy) shows in the latency of every request it delayed
 * rather than thinning the load, which a closed loop (ab, wrk: the next request only after the
 * last answer) would hide. No packaged tool here does this (wrk2 is not in Debian), so the lab has
 * its own; it runs as a separate JVM pinned to the load CPU, like the other load tools.
 *
 * <p>Bounded: {@code rate × duration} requests at most, and the process ends by itself at
 * {@code start + duration + timeout + 2 s} at the latest, counting what has not completed by then as
 * unfinished. The start is an agreed wall-clock instant, so the lab can sample CPU times at the
 * start and the end of the very window the requests are scheduled in.
 *
 * <p>Errors are counted, not retried: a connect that fails, a connection that closes or times out
 * before the whole response, a response that cannot be framed, and (separately) complete responses
 * other than 200. A connection the server closes ({@code Connection: close}, as httpd does after
 * {@code MaxKeepAliveRequests}) is opened again for the next request, which is not an error.
 *
 * <p>Usage: {@code FixedRateLoad URL RATE DURATION_MS CONNECTIONS START_EPOCH_MS TIMEOUT_MS}. The
 * report on standard output is one {@code name: value} per line ({@link FixedRateOutput} reads it).
 * While it runs, a line a second on standard error says how far it is, from its own counters:
 * {@code progress: C completed, K ok, T ms} (T since the start instant), which the lab's live line
 * reads ({@link LiveFigures#fixedRate}).
 */
public final class FixedRateLoad {
    /** The most requests one run may schedule (400/s for 60 s is 24,000). */
    static final long MAX_REQUESTS = 2_000_000;
    /** The most connections one run may open at a time. */
    static final int MAX_CONNECTIONS = 1024;
    /** Time the process allows itself after the last request's timeout before it ends regardless. */
    static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(2);

    private static final int OK = 1;
    private static final int NON_200 = 2;
    private static final int CONNECT_ERROR = 3;
    private static final int READ_ERROR = 4;
    private static final int TIMEOUT = 5;
    private static final int POISON = -1;
    /** How often a run says how far it is. */
    static final long PROGRESS_INTERVAL_MS = 1000;

    /**
     * What to run.
     *
     * @param url the URL, {@code http://host:port/path}
     * @param rate requests per second
     * @param durationMs the window requests are scheduled in
     * @param connections the pool's size
     * @param startEpochMs the wall-clock instant of the first request
     * @param timeoutMs the connect and read timeout of each request
     */
    record Config(URI url, int rate, long durationMs, int connections, long startEpochMs, long timeoutMs) {
        Config {
            if (!"http".equals(url.getScheme()) || url.getHost() == null || url.getPort() < 1) {
                throw new IllegalArgumentException("the URL must be http://host:port/..., not " + url);
            }
            if (rate < 1 || rate > 100_000) throw new IllegalArgumentException("rate must be 1 to 100000 per second: " + rate);
            if (durationMs < 1 || durationMs > 3_600_000) throw new IllegalArgumentException("duration must be 1 ms to 1 h: " + durationMs);
            if (connections < 1 || connections > MAX_CONNECTIONS) {
                throw new IllegalArgumentException("connections must be 1 to " + MAX_CONNECTIONS + ": " + connections);
            }
            if (timeoutMs < 1 || timeoutMs > 60_000) throw new IllegalArgumentException("timeout must be 1 ms to 60 s: " + timeoutMs);
            if (requests(rate, durationMs) > MAX_REQUESTS) {
                throw new IllegalArgumentException(requests(rate, durationMs) + " requests; at most " + MAX_REQUESTS);
            }
        }

        /** The command-line arguments that give this configuration. */
        List<String> arguments() {
            return List.of(url.toString(), Integer.toString(rate), Long.toString(durationMs), Integer.toString(connections),
                    Long.toString(startEpochMs), Long.toString(timeoutMs));
        }

        static Config parse(String[] args) {
            if (args.length != 6) {
                throw new IllegalArgumentException("usage: FixedRateLoad URL RATE DURATION_MS CONNECTIONS START_EPOCH_MS TIMEOUT_MS");
            }
            try {
                return new Config(URI.create(args[0]), Integer.parseInt(args[1]), Long.parseLong(args[2]),
                        Integer.parseInt(args[3]), Long.parseLong(args[4]), Long.parseLong(args[5]));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a number: " + e.getMessage(), e);
            }
        }
    }

    private FixedRateLoad() {}

    public static void main(String[] args) {
        Config config;
        try {
            config = Config.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("FixedRateLoad: " + e.getMessage());
            System.exit(2);
            return;
        }
        String report = run(config, System.err);
        System.out.print(report);
        System.out.flush();
        // the workers are daemons; any still stuck in a read are abandoned here
        System.exit(0);
    }

    /** The number of requests {@code rate} per second for {@code durationMs} schedules. */
    static long requests(int rate, long durationMs) {
        return rate * durationMs / 1000;
    }

    /** When request {@code i} is due, in nanoseconds after the start: {@code i / rate} seconds, exactly. */
    static long intendedOffsetNanos(long i, int rate) {
        return i * 1_000_000_000L / rate;
    }

    /**
     * The {@code p}-th percentile (0 < p ≤ 100) of {@code sorted} by the nearest-rank method: the
     * smallest value with at least p % of the values at or below it. 0 when there are none.
     */
    static long percentile(long[] sorted, double p) {
        if (!(p > 0 && p <= 100)) throw new IllegalArgumentException("percentile must be in (0, 100]: " + p);
        if (sorted.length == 0) return 0;
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }

    /** Runs the load and returns the report text. */
    static String run(Config config) {
        return run(config, null);
    }

    /**
     * Runs the load and returns the report text, telling {@code progress} (when not {@code null})
     * every {@link #PROGRESS_INTERVAL_MS} from the start instant how many requests have completed and
     * how many with a 200.
     */
    static String run(Config config, PrintStream progress) {
        int total = (int) requests(config.rate(), config.durationMs());
        long[] latency = new long[total];
        long[] lag = new long[total];
        AtomicIntegerArray outcome = new AtomicIntegerArray(total);
        AtomicLong lastDone = new AtomicLong();
        AtomicLong opened = new AtomicLong();
        Tally tally = new Tally(new AtomicLong(), new AtomicLong());
        LinkedBlockingQueue<Integer> queue = new LinkedBlockingQueue<>();

        long untilStartMs = config.startEpochMs() - System.currentTimeMillis();
        long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(untilStartMs);
        long hardEnd = start + TimeUnit.MILLISECONDS.toNanos(config.durationMs() + config.timeoutMs()) + GRACE_NANOS;
        byte[] request = ("GET " + pathOf(config.url()) + " HTTP/1.1\r\nHost: " + config.url().getHost() + ":"
                + config.url().getPort() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);

        Thread[] workers = new Thread[config.connections()];
        for (int w = 0; w < workers.length; w++) {
            Worker worker = new Worker(config, request, start, hardEnd, queue, latency, outcome, lastDone, opened, tally);
            workers[w] = Thread.ofPlatform().daemon().name("fixed-rate-" + w).start(worker);
        }

        Thread reporter = progress == null ? null
                : Thread.ofPlatform().daemon().name("fixed-rate-progress").start(() -> tellProgress(progress, start, tally));
        for (int i = 0; i < total; i++) {
            long due = start + intendedOffsetNanos(i, config.rate());
            long now;
            while ((now = System.nanoTime()) < due) LockSupport.parkNanos(due - now);
            lag[i] = now - due;
            queue.add(i);
        }
        for (int w = 0; w < workers.length; w++) queue.add(POISON);
        for (Thread worker : workers) {
            long left = hardEnd - System.nanoTime();
            if (left <= 0) break;
            try {
                worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (reporter != null) reporter.interrupt();
        return report(config, untilStartMs, total, outcome, latency, lag, start, lastDone.get(), opened.get());
    }

    /** Requests completed, and those answered with 200: what the progress lines say. */
    private record Tally(AtomicLong completed, AtomicLong ok) {}

    /** The progress lines: one per interval from the start instant until interrupted. */
    private static void tellProgress(PrintStream progress, long start, Tally tally) {
        long interval = TimeUnit.MILLISECONDS.toNanos(PROGRESS_INTERVAL_MS);
        for (long due = start + interval; !Thread.currentThread().isInterrupted(); due += interval) {
            long now;
            while ((now = System.nanoTime()) < due) {
                LockSupport.parkNanos(due - now);
                if (Thread.currentThread().isInterrupted()) return;
            }
            progress.println(progressLine(tally.completed().get(), tally.ok().get(), TimeUnit.NANOSECONDS.toMillis(now - start)));
        }
    }

    /** {@code progress: C completed, K ok, T ms}. */
    static String progressLine(long completed, long ok, long elapsedMs) {
        return "progress: " + completed + " completed, " + ok + " ok, " + elapsedMs + " ms";
    }

    private static String report(Config config, long untilStartMs, int total, AtomicIntegerArray outcome, long[] latency,
                                 long[] lag, long start, long lastDone, long opened) {
        int[] counts = new int[6];
        long[] okLatency = new long[total];
        int ok = 0;
        for (int i = 0; i < total; i++) {
            int o = outcome.get(i); // read before latency[i]: the worker set it after writing latency[i]
            counts[o]++;
            if (o == OK) okLatency[ok++] = latency[i];
        }
        long[] sorted = Arrays.copyOf(okLatency, ok);
        Arrays.sort(sorted);
        long[] lags = lag.clone();
        Arrays.sort(lags);
        double elapsed = (lastDone - start) / 1e9;
        int completed = total - counts[0];

        StringBuilder out = new StringBuilder();
        line(out, "url", config.url().toString());
        line(out, "rate per second", Integer.toString(config.rate()));
        line(out, "duration ms", Long.toString(config.durationMs()));
        line(out, "connections", Integer.toString(config.connections()));
        line(out, "timeout ms", Long.toString(config.timeoutMs()));
        line(out, "started late ms", Long.toString(Math.max(0, -untilStartMs)));
        line(out, "scheduled", Integer.toString(total));
        line(out, "completed", Integer.toString(completed));
        line(out, "ok", Integer.toString(counts[OK]));
        line(out, "non-200", Integer.toString(counts[NON_200]));
        line(out, "connect errors", Integer.toString(counts[CONNECT_ERROR]));
        line(out, "read errors", Integer.toString(counts[READ_ERROR]));
        line(out, "timeouts", Integer.toString(counts[TIMEOUT]));
        line(out, "unfinished", Integer.toString(counts[0]));
        line(out, "connections opened", Long.toString(opened));
        line(out, "achieved per second", ms(counts[OK] == 0 || elapsed <= 0 ? 0 : counts[OK] / elapsed));
        line(out, "latency p50 ms", ms(percentile(sorted, 50) / 1e6));
        line(out, "latency p90 ms", ms(percentile(sorted, 90) / 1e6));
        line(out, "latency p99 ms", ms(percentile(sorted, 99) / 1e6));
        line(out, "latency max ms", ms(sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6));
        line(out, "generator lag p99 ms", ms(percentile(lags, 99) / 1e6));
        line(out, "generator lag max ms", ms(lags.length == 0 ? 0 : lags[lags.length - 1] / 1e6));
        return out.toString();
    }

    private static void line(StringBuilder out, String name, String value) {
        out.append(name).append(": ").append(value).append('\n');
    }

    private static String ms(double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }

    private static String pathOf(URI url) {
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        return url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
    }

    /** One connection of the pool: takes the next due request, sends it, reads the whole response. */
    private static final class Worker implements Runnable {
        private final Config config;
        private final byte[] request;
        private final long start;
        private final long hardEnd;
        private final LinkedBlockingQueue<Integer> queue;
        private final long[] latency;
        private final AtomicIntegerArray outcome;
        private final AtomicLong lastDone;
        private final AtomicLong opened;
        private final Tally tally;
        private final byte[] buffer = new byte[16 * 1024];
        private final ResponseReader reader = new ResponseReader();
        private Socket socket;

        Worker(Config config, byte[] request, long start, long hardEnd, LinkedBlockingQueue<Integer> queue, long[] latency,
               AtomicIntegerArray outcome, AtomicLong lastDone, AtomicLong opened, Tally tally) {
            this.config = config;
            this.request = request;
            this.start = start;
            this.hardEnd = hardEnd;
            this.queue = queue;
            this.latency = latency;
            this.outcome = outcome;
            this.lastDone = lastDone;
            this.opened = opened;
            this.tally = tally;
        }

        @Override
        public void run() {
            try {
                while (true) {
                    long left = hardEnd - System.nanoTime();
                    Integer next = left <= 0 ? null : queue.poll(left, TimeUnit.NANOSECONDS);
                    if (next == null || next == POISON) return;
                    int i = next;
                    int result = exchange();
                    long done = System.nanoTime();
                    latency[i] = done - (start + intendedOffsetNanos(i, config.rate()));
                    outcome.set(i, result);
                    lastDone.accumulateAndGet(done, Math::max);
                    tally.completed().incrementAndGet();
                    if (result == OK) tally.ok().incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                close();
            }
        }

        private int exchange() {
            if (socket == null) {
                try {
                    Socket s = new Socket();
                    s.setTcpNoDelay(true);
                    s.connect(new InetSocketAddress(config.url().getHost(), config.url().getPort()), (int) config.timeoutMs());
                    s.setSoTimeout((int) config.timeoutMs());
                    socket = s;
                    opened.incrementAndGet();
                } catch (IOException e) {
                    close();
                    return CONNECT_ERROR;
                }
            }
            try {
                OutputStream out = socket.getOutputStream();
                out.write(request);
                out.flush();
                InputStream in = socket.getInputStream();
                reader.reset();
                boolean ended = false;
                while (true) {
                    int n = in.read(buffer);
                    if (n < 0) {
                        ended = true;
                        if (reader.endOfStream()) break;
                        close();
                        return READ_ERROR;
                    }
                    if (reader.feed(ByteBuffer.wrap(buffer, 0, n))) break;
                }
                int status = reader.status();
                if (ended || reader.closes()) close();
                return status == 200 ? OK : NON_200;
            } catch (SocketTimeoutException e) {
                close();
                return TIMEOUT;
            } catch (IOException | IllegalArgumentException e) {
                close();
                return READ_ERROR;
            }
        }

        private void close() {
            if (socket == null) return;
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing is all that is left to do with it
            }
            socket = null;
        }
    }
}
