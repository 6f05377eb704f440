package dev.petrel.server.http2;

import dev.petrel.http.HeaderFields;
import dev.petrel.server.IncompleteBodyException;
import dev.petrel.server.engine.exchange.BodySource;
import dev.petrel.server.engine.exchange.BodyWaitLimits;
import java.io.IOException;
import java.io.InterruptedIOException;

/**
 * A stream's request body as its handler reads it: the bytes of its {@code DATA} frames, in order,
 * to the frame that ends the stream. Each read gives the bytes back to the client's windows (see
 * {@link Http2Connection#consumed}); a wait for more is bounded by the body limits every protocol
 * shares ({@link BodyWaitLimits}). A stream reset before its end cuts the body short.
 */
final class StreamBody extends BodySource {
    private final StreamState stream;
    private final Http2Connection connection;
    private final BodyWaitLimits.Fill waitForData;
    private FirstRead firstRead; // the 100 Continue the client waits for, sent on the handler's first read

    /** What to do when the handler first reads: send {@code 100 Continue} to a client that expects it. */
    interface FirstRead {
        void run() throws IOException;
    }

    StreamBody(StreamState stream, Http2Connection connection, BodyWaitLimits waits, long maxBodySize) {
        super(waits, maxBodySize);
        this.stream = stream;
        this.connection = connection;
        this.waitForData = this::await;
        rearm();
    }

    /** Runs {@code action} before the first read of the body, once. */
    void onFirstRead(FirstRead action) {
        this.firstRead = action;
    }

    @Override
    protected int readBody(byte[] b, int off, int len) throws IOException {
        FirstRead first = firstRead;
        if (first != null) {
            firstRead = null;
            first.run();
        }
        while (true) {
            int n = stream.take(b, off, len);
            if (n > 0) {
                connection.consumed(stream, n);
                return n;
            }
            if (n == -1) return -1;
            if (n == -2) throw fail(IncompleteBodyException.cutShort("the stream was reset before the end of its body"));
            fill(waitForData, "DATA");
        }
    }

    private int await(int timeoutMillis) throws IOException {
        try {
            return stream.await(timeoutMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for DATA");
        }
    }

    @Override
    public int available() {
        return 0;
    }

    @Override
    public HeaderFields trailers() {
        return stream.trailerFields();
    }
}
