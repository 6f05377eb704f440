package dev.petrel.bench.lab;

import java.io.IOException;
import java.net.ProtocolException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The {@code rate} step of {@link WebSocketLoad}: N connections driven by one thread and one
 * selector, each with one message in flight (the next leaves as soon as the echo is back, as wrk
 * keeps one request in flight per connection). After the warm-up, the measured window counts the
 * echoes that come back within it and times each from its send; the server's CPU time
 * ({@code /proc/PID/stat}) is read when the window opens and when it closes, so that what the server
 * spent per message is known even when the client, not the server, was the limit.
 *
 * <p>A connection the server closes or answers wrongly is given up and counted as an error; the
 * step fails only when none is left. Nothing is sent after the window, and the connections are
 * closed.
 */
final class EchoRate {
    private final WebSocketLoad.Config config;
    private final WebSocketLoad.Rate step;
    private final RandomGenerator random;

    /** One connection of the run and the send time of its message in flight. */
    private static final class Client {
        final EchoConnection connection;
        long sentAt;

        Client(EchoConnection connection) {
            this.connection = connection;
        }
    }

    EchoRate(WebSocketLoad.Config config, WebSocketLoad.Rate step, RandomGenerator random) {
        this.config = config;
        this.step = step;
        this.random = random;
    }

    /** Opens the connections, runs the warm-up and the window; the result line's pairs. */
    String run(long deadlineNanos) throws IOException {
        byte[] payload = step.kind().payload(step.size(), random);
        byte[][] frames = new byte[RoundTrips.FRAMES][];
        for (int i = 0; i < frames.length; i++) frames[i] = ClientFrame.masked(step.kind().opcode(), payload, random);
        List<Client> clients = new ArrayList<>();
        try (Selector selector = Selector.open()) {
            for (int i = 0; i < step.connections(); i++) {
                Client client = new Client(EchoConnection.open(config.server(), config.path(), step.size(), false,
                        WebSocketLoad.TIMEOUT, random));
                clients.add(client);
                client.connection.register(selector, client);
            }
            return drive(selector, clients, frames, deadlineNanos);
        } finally {
            clients.forEach(c -> c.connection.close());
        }
    }

    private String drive(Selector selector, List<Client> clients, byte[][] frames, long deadlineNanos) throws IOException {
        long start = System.nanoTime();
        long windowStart = start + step.warmupMs() * 1_000_000;
        long windowEnd = windowStart + step.durationMs() * 1_000_000;
        if (windowEnd > deadlineNanos) throw new IOException("the run's time limit ends before this step's window");
        for (Client client : clients) send(client, frames, start);

        LatencyHistogram times = new LatencyHistogram();
        long echoes = 0;
        int errors = 0;
        int sent = clients.size();
        boolean inWindow = false;
        long cpuStart = 0;
        int live = clients.size();
        while (true) {
            long now = System.nanoTime();
            if (!inWindow && now >= windowStart) {
                inWindow = true;
                cpuStart = serverCpuTicks();
                windowStart = now;
                windowEnd = now + step.durationMs() * 1_000_000;
            }
            if (inWindow && now >= windowEnd) break;
            long next = inWindow ? windowEnd : windowStart;
            selector.select(Math.max(1, Math.min(100, (next - now) / 1_000_000)));
            for (SelectionKey key : selector.selectedKeys()) {
                Client client = (Client) key.attachment();
                try {
                    if (key.isWritable() && client.connection.writeRest()) key.interestOps(SelectionKey.OP_READ);
                    if (!key.isReadable()) continue;
                    while (client.connection.poll()) {
                        long back = System.nanoTime();
                        checkEcho(client.connection.decoder());
                        if (inWindow && back < windowEnd) {
                            echoes++;
                            times.record(back - client.sentAt);
                        }
                        if (back < windowEnd) {
                            send(client, frames, back);
                            sent++;
                        }
                    }
                } catch (IOException e) {
                    errors++;
                    live--;
                    key.cancel();
                    client.connection.close();
                    if (live == 0) throw new IOException("every connection failed; the last: " + e.getMessage(), e);
                }
            }
            selector.selectedKeys().clear();
        }
        long windowNanos = System.nanoTime() - windowStart;
        long cpuTicks = serverCpuTicks() - cpuStart;
        return WebSocketLoad.pairs("messages", echoes, "seconds", windowNanos / 1e9, "per_second", echoes / (windowNanos / 1e9),
                "p50_us", times.percentileMicros(50), "p99_us", times.percentileMicros(99), "max_us", times.maxMicros(),
                "server_cpu_ticks", config.serverPid() > 0 ? cpuTicks : -1, "errors", errors, "sent", sent);
    }

    /** Sends the client's next frame, waiting for room when the socket took only part of it. */
    private void send(Client client, byte[][] frames, long now) throws IOException {
        client.sentAt = now;
        if (!client.connection.send(frames[(int) (now & (frames.length - 1))])) {
            client.connection.key().interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        }
    }

    private void checkEcho(ServerFrameDecoder echo) throws ProtocolException {
        if (echo.opcode() != step.kind().opcode() || echo.length() != step.size()) {
            throw new ProtocolException("an echo of opcode " + echo.opcode() + " and " + echo.length() + " bytes");
        }
    }

    /** The server's user and system CPU ticks so far, or 0 when no server PID was given. */
    private long serverCpuTicks() throws IOException {
        if (config.serverPid() <= 0) return 0;
        return ProcessCpu.read(config.serverPid()).own();
    }
}
