package dev.petrel.server.engine.connection;

import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * An in-memory {@link Endpoint} for engine tests: it hands the engine the scripted input at most
 * {@code bytesPerRead} bytes per read (1 exercises every split), then ends with EOF or with a
 * read timeout, and records everything written and every buffer read into.
 *
 * <p>The input may be given as segments, as if each had arrived apart: a read never spans two,
 * so the engine has taken in all of one before it sees any of the next.
 */
public final class ScriptedEndpoint extends RecordingEndpoint {
    public enum End { EOF, TIMEOUT }

    private final byte[] input;
    private final int[] segmentEnds;
    private final int bytesPerRead;
    private final End end;
    private final List<ByteBuffer> readInto = new ArrayList<>();
    private int position;

    public ScriptedEndpoint(String input, int bytesPerRead, End end) {
        this(List.of(input), bytesPerRead, end);
    }

    public ScriptedEndpoint(List<String> segments, int bytesPerRead, End end) {
        this.input = String.join("", segments).getBytes(StandardCharsets.ISO_8859_1);
        this.segmentEnds = new int[segments.size()];
        int at = 0;
        for (int i = 0; i < segments.size(); i++) {
            at += segments.get(i).length();
            segmentEnds[i] = at;
        }
        this.bytesPerRead = bytesPerRead;
        this.end = end;
    }

    @Override
    public int read(ByteBuffer dst, int timeoutMillis) throws SocketTimeoutException {
        readInto.add(dst);
        if (closed) return -1;
        if (position == input.length) {
            if (end == End.TIMEOUT && !outputShutdown) throw new SocketTimeoutException("scripted timeout");
            return -1;
        }
        int n = Math.min(Math.min(bytesPerRead, dst.remaining()), segmentEnd() - position);
        dst.put(input, position, n);
        position += n;
        return n;
    }

    private int segmentEnd() {
        for (int segmentEnd : segmentEnds) {
            if (segmentEnd > position) return segmentEnd;
        }
        return input.length;
    }

    public int unread() {
        return input.length - position;
    }

    /** The buffers the engine read into, one per read, in order (the same buffer recurs). */
    public List<ByteBuffer> readInto() {
        return List.copyOf(readInto);
    }
}
