package dev.petrel.bench.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * {@link FaultKind#SLOWLORIS_HEAD} and {@link FaultKind#SLOWLORIS_BODY}: connections that each
 * hold the server with a request that crawls in, a few bytes per tick, and is never finished. A
 * virtual thread per connection, all at once; each stops at the same deadline, and the fault ends
 * once every one has stopped. What each saw is counted: the server's answer (a 408), its close, a
 * write it refused, or nothing (the connection still open at the end).
 *
 * @param prefix what each connection sends at once (for the body, the whole head)
 * @param trickled what it then sends a few bytes per tick, never all of it within the time
 * @param what the request, as the detail names it
 * @param connections how many connections at once
 * @param durationMillis how long they trickle
 * @param bytesPerTick bytes per write, one write per {@value #TICK_MILLIS} ms
 */
record Slowloris(byte[] prefix, byte[] trickled, String what, int connections, int durationMillis, int bytesPerTick)
        implements Fault {
    static final int TICK_MILLIS = 500;
    private static final int READ_TIMEOUT_MILLIS = 3_000;
    /** How long the last look at each connection waits for a sign from the server. */
    private static final int LAST_LOOK_MILLIS = 200;
    private static final String STILL_OPEN = "still open at the end";

    /** A request head trickled from its first byte, never finished. */
    static Slowloris head(Listener target, int connections, int durationMillis, int bytesPerTick) {
        StringBuilder head = new StringBuilder("GET /ping HTTP/1.1\r\n").append(RequestHeads.host(target));
        // header lines enough for any duration at this rate, never the empty line that ends a head
        int needed = (durationMillis / TICK_MILLIS + 2) * bytesPerTick;
        for (int i = 0; head.length() < needed; i++) head.append("X-Slow-").append(i).append(": loris\r\n");
        return new Slowloris(new byte[0], head.toString().getBytes(StandardCharsets.US_ASCII), "a GET head", connections,
                durationMillis, bytesPerTick);
    }

    /** A whole head of {@code POST /upload} at once, then its body trickled. */
    static Slowloris body(Listener target, int connections, int durationMillis, int bytesPerTick, long bodySeed) {
        byte[] body = SoakContent.bytes(bodySeed, 100_000);
        byte[] head = RequestHeads.upload(target, body.length, SoakContent.sha256(body)).getBytes(StandardCharsets.US_ASCII);
        return new Slowloris(head, body, "the " + body.length + "-byte body of a POST /upload", connections, durationMillis, bytesPerTick);
    }

    @Override
    public void run(Listener target, FaultSockets sockets, Transcript transcript) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(durationMillis);
        Outcomes outcomes = new Outcomes();
        transcript.note(connections + " connections trickling " + what + ", " + bytesPerTick + (bytesPerTick == 1 ? " byte" : " bytes")
                + " per " + TICK_MILLIS + " ms for " + durationMillis + " ms");
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < connections; i++) threads.execute(() -> outcomes.add(crawl(target, sockets, deadline)));
        } // waits for every connection to end: none outlives the fault
        transcript.note(outcomes.toString());
    }

    /** One connection's crawl until {@code deadline}; says how it ended. */
    private String crawl(Listener target, FaultSockets sockets, long deadline) {
        Connection connection;
        try {
            connection = sockets.http1(target, READ_TIMEOUT_MILLIS);
        } catch (IOException e) {
            return "not connected (" + Reply.describe(e) + ")";
        }
        try (connection) {
            if (prefix.length > 0) connection.send(prefix);
            for (int sent = 0; sent < trickled.length && System.nanoTime() < deadline; ) {
                int n = Math.min(bytesPerTick, trickled.length - sent);
                connection.out().write(trickled, sent, n);
                connection.out().flush();
                sent += n;
                if (serverSpoke(connection)) {
                    Reply early = Reply.read(connection, LAST_LOOK_MILLIS, 4096);
                    // over TLS 1.3 the first bytes may be a session ticket, which is no answer: crawl on
                    if (early.bytes() > 0 || early.ending() != Reply.Ending.TIMEOUT) return outcome(early, " before the end");
                }
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left > 0) Thread.sleep(Math.min(TICK_MILLIS, left));
            }
            return outcome(Reply.read(connection, LAST_LOOK_MILLIS, 4096), "");
        } catch (InterruptedException e) {
            return "stopped (the fault was cut)";
        } catch (IOException e) {
            // a write the server refused: it closed or reset the connection while the bytes crawled in
            return "cut by the server (" + Reply.describe(e) + ")";
        }
    }

    /**
     * Whether bytes from the server wait on the TCP connection. Asked of the TCP socket, not of
     * TLS over it: TLS only counts bytes it has already decrypted, and would miss a 408 not yet read.
     */
    private static boolean serverSpoke(Connection connection) throws IOException {
        return connection.tcp().getInputStream().available() > 0;
    }

    /** What {@code reply} says of how the connection ended, in words that count alike across connections. */
    private static String outcome(Reply reply, String when) {
        String answer = reply.bytes() == 0 ? "" : "answered \"" + reply.firstLine() + "\"" + when + ", ";
        return answer + switch (reply.ending()) {
            case TIMEOUT -> reply.bytes() == 0 ? STILL_OPEN : "still open";
            case EOF -> "closed by the server";
            case RESET -> "reset by the server";
            case LIMIT -> "still sending";
            case ERROR -> "ended by the server (" + reply.error() + ")";
        };
    }
}
