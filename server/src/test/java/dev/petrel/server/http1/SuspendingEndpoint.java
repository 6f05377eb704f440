package dev.petrel.server.http1;

import dev.petrel.server.engine.connection.RecordingEndpoint;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * An in-memory {@link Endpoint} that {@linkplain #waitsWithoutThread() waits without a thread},
 * as an event-loop transport's does: the test {@linkplain #feed feeds} bytes as if they had
 * arrived, {@link #readAvailable} hands over what is there (0 when nothing is), and everything
 * written is recorded.
 *
 * <p>A blocking {@link #read} is legitimate only inside an exchange (a handler reading its body,
 * the engine draining it) or while lingering after the output was shut down. The test marks an
 * exchange's start with {@link #exchangeStarted()}; the engine's next {@code readAvailable},
 * which only reading toward a next head does, marks its end. A blocking read outside both is
 * recorded in {@link #misuses()} (and fails, though the engine may swallow that), so that a test
 * can assert that none happened. A blocking read finding nothing throws a read timeout at once,
 * rather than waiting.
 */
final class SuspendingEndpoint extends RecordingEndpoint {
    private final List<String> misuses = new ArrayList<>();
    private byte[] pending = new byte[0];
    private int position;
    private boolean eof;
    private boolean inExchange;
    private int readAvailableCalls;

    /** Bytes that have arrived from the peer. */
    void feed(String bytes) {
        byte[] more = bytes.getBytes(StandardCharsets.ISO_8859_1);
        byte[] rest = new byte[pending.length - position + more.length];
        System.arraycopy(pending, position, rest, 0, pending.length - position);
        System.arraycopy(more, 0, rest, pending.length - position, more.length);
        pending = rest;
        position = 0;
    }

    /** The peer closed its side: once the fed bytes are taken, reads see end of stream. */
    void feedEnd() {
        eof = true;
    }

    /** The handler has started: blocking reads are allowed until the engine reads toward the next head. */
    void exchangeStarted() {
        inExchange = true;
    }

    @Override
    public boolean waitsWithoutThread() {
        return true;
    }

    @Override
    public int readAvailable(ByteBuffer dst) {
        readAvailableCalls++;
        inExchange = false;
        if (closed) throw new IllegalStateException("readAvailable after close");
        return take(dst);
    }

    @Override
    public int read(ByteBuffer dst, int timeoutMillis) throws SocketTimeoutException {
        if (!inExchange && !outputShutdown) {
            String misuse = "blocking read(" + timeoutMillis + " ms) between requests";
            misuses.add(misuse);
            throw new AssertionError(misuse);
        }
        if (closed) return -1;
        int n = take(dst);
        if (n == 0) throw new SocketTimeoutException("scripted: nothing arrived");
        return n;
    }

    private int take(ByteBuffer dst) {
        int available = pending.length - position;
        if (available == 0) return eof ? -1 : 0;
        int n = Math.min(available, dst.remaining());
        dst.put(pending, position, n);
        position += n;
        return n;
    }

    /** Fed bytes not taken by the engine yet. */
    int unread() {
        return pending.length - position;
    }

    int readAvailableCalls() {
        return readAvailableCalls;
    }

    /** Blocking reads made outside an exchange and outside lingering. */
    List<String> misuses() {
        return List.copyOf(misuses);
    }
}
