package dev.petrel.bench.soak;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Reads the server's HTTP/2 frames on an h2c connection of a fault, on a thread of its own, until
 * EOF or until told to stop, and counts them by type, keeping the GOAWAY's code. Frames are parsed
 * from the bytes as they come, so that a read timing out partway through a frame loses nothing:
 * the socket's short read timeout only lets the loop look at its deadline.
 */
final class H2ReplyReader implements Runnable {
    private static final int GOAWAY_KEPT_BYTES = 8 + 80; // last stream id, code, then the start of the debug data

    private final Socket socket;
    private final InputStream in;
    private final long start = System.nanoTime();
    private final Map<String, Integer> frames = new TreeMap<>();
    private final byte[] header = new byte[H2Frames.HEADER_BYTES];
    private int headerFill;
    private int type = -1;
    private int payloadLeft;
    private byte[] goaway;
    private int goawayFill;
    private String goawayText;
    private long bytes;
    private String ending = "still reading";
    private long endNanos;
    private volatile boolean ended;
    private volatile boolean serverEnded;
    private volatile boolean goawaySeen;
    /** Whether {@link #stopWithin} was called. */
    private volatile boolean stopping;
    /** When to stop reading, on {@link System#nanoTime()}, once {@link #stopping}. */
    private volatile long stopAt;

    /** @param socket the connection; its read timeout is the loop's tick */
    H2ReplyReader(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
    }

    @Override
    public void run() {
        byte[] buffer = new byte[16 * 1024];
        String why;
        try {
            while (true) {
                int n;
                try {
                    n = in.read(buffer);
                } catch (SocketTimeoutException e) {
                    if (stopping && System.nanoTime() - stopAt >= 0) {
                        why = "still open when reading stopped";
                        break;
                    }
                    continue;
                }
                if (n < 0) {
                    why = "EOF";
                    serverEnded = true;
                    break;
                }
                synchronized (this) {
                    bytes += n;
                    parse(buffer, n);
                }
            }
        } catch (IOException e) {
            // closed here (the fault is over, or cut at its bound) is not the server ending it
            serverEnded = !socket.isClosed();
            boolean reset = e instanceof SocketException && e.getMessage() != null && e.getMessage().contains("reset");
            why = socket.isClosed() ? "closed by the fault" : reset ? "reset by the server" : Reply.describe(e);
        }
        synchronized (this) {
            ending = why;
            endNanos = System.nanoTime();
        }
        ended = true;
    }

    /** Reads on until EOF or {@code millis} from now at most. */
    void stopWithin(long millis) {
        stopAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        stopping = true;
    }

    /** Whether the server has said it is done with the connection: a GOAWAY, an EOF or a reset. */
    boolean serverDone() {
        return goawaySeen || serverEnded;
    }

    private void parse(byte[] buffer, int n) {
        for (int i = 0; i < n; ) {
            if (type < 0) {
                int take = Math.min(H2Frames.HEADER_BYTES - headerFill, n - i);
                System.arraycopy(buffer, i, header, headerFill, take);
                headerFill += take;
                i += take;
                if (headerFill == H2Frames.HEADER_BYTES) begin();
            } else {
                int take = Math.min(payloadLeft, n - i);
                if (goaway != null) {
                    int keep = Math.min(take, goaway.length - goawayFill);
                    System.arraycopy(buffer, i, goaway, goawayFill, keep);
                    goawayFill += keep;
                }
                payloadLeft -= take;
                i += take;
                if (payloadLeft == 0) end();
            }
        }
    }

    private void begin() {
        headerFill = 0;
        type = header[3] & 0xFF;
        payloadLeft = (header[0] & 0xFF) << 16 | (header[1] & 0xFF) << 8 | header[2] & 0xFF;
        frames.merge(H2Frames.typeName(type), 1, Integer::sum);
        if (type == H2Frames.GOAWAY) {
            goaway = new byte[Math.min(payloadLeft, GOAWAY_KEPT_BYTES)];
            goawayFill = 0;
        }
        if (payloadLeft == 0) end();
    }

    private void end() {
        if (goaway != null) {
            goawayText = goawayText(goaway, goawayFill);
            goawaySeen = true;
            goaway = null;
        }
        type = -1;
    }

    private static String goawayText(byte[] payload, int length) {
        if (length < 8) return "GOAWAY (" + length + " bytes, too short)";
        int lastStream = (payload[0] & 0x7F) << 24 | (payload[1] & 0xFF) << 16 | (payload[2] & 0xFF) << 8 | payload[3] & 0xFF;
        long code = ((payload[4] & 0xFFL) << 24) | (payload[5] & 0xFF) << 16 | (payload[6] & 0xFF) << 8 | payload[7] & 0xFF;
        String debug = new String(payload, 8, length - 8, StandardCharsets.UTF_8).strip();
        return "GOAWAY " + H2Frames.errorName(code) + " (last stream " + lastStream + (debug.isEmpty() ? "" : ", \"" + debug + "\"") + ")";
    }

    /** E.g. {@code got SETTINGS x2, HEADERS x37; GOAWAY ENHANCE_YOUR_CALM (last stream 399); EOF after 40 ms}. */
    @Override
    public synchronized String toString() {
        List<String> counts = new ArrayList<>();
        for (Map.Entry<String, Integer> entry : frames.entrySet()) counts.add(entry.getKey() + " x" + entry.getValue());
        long endedAt = ended ? endNanos : System.nanoTime();
        return "got " + (counts.isEmpty() ? "no frames" : String.join(", ", counts)) + " (" + bytes + " bytes); "
                + (goawayText == null ? "no GOAWAY" : goawayText) + "; " + ending + " after "
                + TimeUnit.NANOSECONDS.toMillis(endedAt - start) + " ms";
    }
}
