package dev.petrel.tomcat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import org.apache.coyote.ActionCode;
import org.apache.coyote.OutputBuffer;
import org.apache.coyote.Response;

/**
 * The response body as Coyote writes it: each chunk straight into Petrel's response stream,
 * which buffers, frames (length or chunked) and paces it. Writes block; Catalina's non-blocking
 * writers are told the response is always ready, and a write waits for the client as a
 * blocking one does.
 */
final class ExchangeOutput implements OutputBuffer {
    private final byte[] copy = new byte[8192]; // for direct buffers, which have no array
    private final Response response;
    private OutputStream body;
    private long written;
    private boolean swallow;

    ExchangeOutput(Response response) {
        this.response = response;
    }

    /** The body stream of the next response. */
    void begin(OutputStream body) {
        this.body = body;
        this.written = 0;
        this.swallow = false;
    }

    /** Drops what is written from now on (Coyote's CLOSE_NOW: the response is abandoned). */
    void swallow() {
        swallow = true;
    }

    @Override
    public int doWrite(ByteBuffer chunk) throws IOException {
        // Catalina writes without committing first; as Tomcat's own output buffers, commit here
        if (!response.isCommitted()) response.action(ActionCode.COMMIT, null);
        int length = chunk.remaining();
        if (swallow) {
            chunk.position(chunk.limit());
            return length;
        }
        if (chunk.hasArray()) {
            body.write(chunk.array(), chunk.arrayOffset() + chunk.position(), length);
            chunk.position(chunk.limit());
        } else {
            while (chunk.hasRemaining()) {
                int n = Math.min(copy.length, chunk.remaining());
                chunk.get(copy, 0, n);
                body.write(copy, 0, n);
            }
        }
        written += length;
        return length;
    }

    @Override
    public long getBytesWritten() {
        return written;
    }

    void flush() throws IOException {
        if (!swallow) body.flush();
    }

    /** Ends the body: what is buffered leaves, and the framing is finished. */
    void end() throws IOException {
        if (!swallow) body.close();
    }
}
