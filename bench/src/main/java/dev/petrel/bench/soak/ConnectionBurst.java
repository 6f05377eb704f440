package dev.petrel.bench.soak;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@link FaultKind#CONNECTION_BURST}: more connections at once than the server takes, held idle.
 * They are opened non-blocking from one thread and finished with a selector, so that they really
 * arrive together (and no thread per connection is needed); those not connected within
 * {@value FaultSockets#CONNECT_TIMEOUT_MILLIS} ms are given up. After about 3 s of silence each is
 * looked at once (did the server answer unasked, a 503, or close it?), then all are reset: a reset
 * rather than a close, so that a burst leaves no TIME_WAIT behind on the soak's own client ports.
 *
 * @param count how many connections: the server's limit and 50 more
 * @param maxConnections the server's limit, for the detail
 */
record ConnectionBurst(int count, int maxConnections) implements Fault {
    static final int OVER_THE_LIMIT = 50;
    private static final long HOLD_MILLIS = 3_000;

    @Override
    public void run(Listener target, FaultSockets sockets, Transcript transcript) throws IOException, InterruptedException {
        long start = System.nanoTime();
        List<SocketChannel> connected = new ArrayList<>();
        Outcomes failures = new Outcomes();
        int stillConnecting;
        try (Selector selector = Selector.open()) {
            for (int i = 0; i < count; i++) {
                try {
                    SocketChannel channel = sockets.connecting(target.port());
                    if (channel.isConnected()) connected.add(channel);
                    else channel.register(selector, SelectionKey.OP_CONNECT);
                } catch (IOException e) {
                    // the client's own file descriptors may run out first: what was opened still bursts
                    failures.add("not opened (" + Reply.describe(e) + ")");
                }
            }
            stillConnecting = finishConnects(selector, connected, failures);
        } // closing the selector leaves the channels open
        long connectMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        transcript.note(count + " connections at once (limit " + maxConnections + " + " + OVER_THE_LIMIT + "): " + connected.size()
                + " connected in " + connectMillis + " ms" + (stillConnecting > 0 ? ", " + stillConnecting + " still connecting at "
                + FaultSockets.CONNECT_TIMEOUT_MILLIS + " ms" : "") + (failures.isEmpty() ? "" : ", " + failures));
        Thread.sleep(HOLD_MILLIS);
        Outcomes held = new Outcomes();
        for (SocketChannel channel : connected) held.add(look(channel));
        for (SocketChannel channel : connected) FaultSockets.reset(channel.socket());
        transcript.note("after " + HOLD_MILLIS + " ms idle: " + held + "; all reset");
    }

    /** Finishes the connects under way until all are done or the connect timeout passes; returns how many are not. */
    private static int finishConnects(Selector selector, List<SocketChannel> connected, Outcomes failures) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FaultSockets.CONNECT_TIMEOUT_MILLIS);
        int pending = selector.keys().size();
        while (pending > 0) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) break;
            selector.select(left);
            for (SelectionKey key : selector.selectedKeys()) {
                SocketChannel channel = (SocketChannel) key.channel();
                key.cancel();
                pending--;
                try {
                    if (channel.finishConnect()) connected.add(channel);
                } catch (IOException e) {
                    failures.add("refused (" + Reply.describe(e) + ")");
                }
            }
            selector.selectedKeys().clear();
        }
        return pending;
    }

    /** What an idle connection shows after the hold: nothing, an answer it did not ask for, a close or a reset. */
    private static String look(SocketChannel channel) {
        ByteBuffer buffer = ByteBuffer.allocate(64);
        try {
            int n = channel.read(buffer); // non-blocking: 0 when nothing came
            if (n < 0) return "closed by the server";
            if (n == 0) return "open, nothing from the server";
            String text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.ISO_8859_1);
            int end = text.indexOf('\r');
            return "answered unasked \"" + (end < 0 ? text : text.substring(0, end)) + "\"";
        } catch (IOException e) {
            return "reset by the server";
        }
    }
}
