package dev.petrel.tomcat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import org.apache.coyote.InputBuffer;
import org.apache.tomcat.util.buf.ByteChunk;
import org.apache.tomcat.util.net.ApplicationBufferHandler;

/**
 * The request body as Coyote reads it: Petrel's body stream (already de-chunked, limited and
 * timed by the exchange) read into one buffer that Catalina's input buffer borrows. A body a
 * FORM login saved is replayed from memory instead.
 */
final class ExchangeInput implements InputBuffer {
    private static final int BUFFER_SIZE = 8192;

    private final byte[] buffer = new byte[BUFFER_SIZE];
    private InputStream body;
    private ByteBuffer replay;
    private int buffered; // bytes read ahead by awaitData(), not yet handed out
    private boolean ended;

    /** The body of the next request. */
    synchronized void begin(InputStream body) {
        this.body = body;
        this.replay = null;
        this.buffered = 0;
        this.ended = false;
    }

    /** A body read earlier and saved (FORM authentication), replayed instead of the stream. */
    void replay(ByteChunk saved) {
        replay = ByteBuffer.wrap(saved.getBytes(), saved.getStart(), saved.getLength());
        buffered = 0;
        ended = false;
    }

    @Override
    public int doRead(ApplicationBufferHandler handler) throws IOException {
        if (replay != null) {
            if (!replay.hasRemaining()) {
                ended = true;
                return -1;
            }
            ByteBuffer chunk = replay.slice();
            replay.position(replay.limit());
            handler.setByteBuffer(chunk);
            return chunk.remaining();
        }
        int n;
        if (buffered > 0) {
            n = buffered;
            buffered = 0;
        } else {
            if (ended || body == null) return -1;
            n = body.read(buffer, 0, buffer.length);
            if (n < 0) {
                ended = true;
                return -1;
            }
        }
        handler.setByteBuffer(ByteBuffer.wrap(buffer, 0, n));
        return n;
    }

    /**
     * Bytes readable without blocking: read ahead, or already in Petrel's buffers. With
     * {@code doRead}, Coyote asks for at least a byte when none is there; only what arrived
     * already is taken, never a wait.
     */
    @Override
    public int available() {
        if (replay != null) return replay.remaining();
        if (buffered > 0) return buffered;
        if (ended || body == null) return 0;
        try {
            return body.available();
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * Waits for the next bytes of the body (or its end), for a non-blocking reader to be told of
     * them: read ahead, handed out by the next {@link #doRead}. The read goes into its own array
     * and lands only if the exchange is still the one it began for: the exchange can end while
     * this waits (an async timeout), and this input then serves the next one.
     */
    void awaitData() throws IOException {
        InputStream stream;
        synchronized (this) {
            if (replay != null || buffered > 0 || ended || body == null) return;
            stream = body;
        }
        byte[] ahead = new byte[BUFFER_SIZE];
        int n = stream.read(ahead, 0, ahead.length);
        synchronized (this) {
            if (body != stream) return; // that exchange is over, and its connection was cut
            if (n < 0) {
                ended = true;
            } else {
                System.arraycopy(ahead, 0, buffer, 0, n);
                buffered = n;
            }
        }
    }

    /** Whether the body's end was read. */
    boolean ended() {
        return replay != null ? !replay.hasRemaining() : ended || body == null;
    }
}
