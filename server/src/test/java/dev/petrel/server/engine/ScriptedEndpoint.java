package dev.petrel.server.engine;

import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * An in-memory {@link Endpoint} for engine tests: it hands the engine the scripted input at most
 * {@code bytesPerRead} bytes per read (1 exercises every split), then ends with EOF or with a
 * read timeout, and records everything written.
 */
final class ScriptedEndpoint extends RecordingEndpoint {
    enum End { EOF, TIMEOUT }

    private final byte[] input;
    private final int bytesPerRead;
    private final End end;
    private int position;

    ScriptedEndpoint(String input, int bytesPerRead, End end) {
        this.input = input.getBytes(StandardCharsets.ISO_8859_1);
        this.bytesPerRead = bytesPerRead;
        this.end = end;
    }

    @Override
    public int read(ByteBuffer dst, int timeoutMillis) throws SocketTimeoutException {
        if (closed) return -1;
        if (position == input.length) {
            if (end == End.TIMEOUT && !outputShutdown) throw new SocketTimeoutException("scripted timeout");
            return -1;
        }
        int n = Math.min(Math.min(bytesPerRead, dst.remaining()), input.length - position);
        dst.put(input, position, n);
        position += n;
        return n;
    }

    int unread() {
        return input.length - position;
    }
}
