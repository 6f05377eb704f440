package dev.petrel.server.it;

import dev.petrel.server.Handler;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A handler that echoes the request body the way real handlers do (stream in, stream out, both
 * closed by try-with-resources) and records what it saw: the bytes it read and what the body
 * stream threw at the end, if anything.
 */
final class BodySpy {
    private final ByteArrayOutputStream seen = new ByteArrayOutputStream();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final CountDownLatch done = new CountDownLatch(1);

    /** The echo handler that records into this spy. */
    Handler handler() {
        return (request, response) -> {
            try (InputStream in = request.body(); OutputStream out = response.body()) {
                byte[] buffer = new byte[256];
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    synchronized (seen) {
                        seen.write(buffer, 0, n);
                    }
                    out.write(buffer, 0, n);
                }
            } catch (Throwable t) {
                failure.set(t);
                throw t;
            } finally {
                done.countDown();
            }
        };
    }

    /** Waits (at most 10 s) for the handler to return or throw, and says what the body stream threw (null: nothing). */
    Throwable awaitFailure() throws InterruptedException {
        if (!done.await(10, TimeUnit.SECONDS)) throw new AssertionError("the handler did not finish within 10 s");
        return failure.get();
    }

    /** The body bytes the handler read. */
    String seen() {
        synchronized (seen) {
            return seen.toString(java.nio.charset.StandardCharsets.ISO_8859_1);
        }
    }
}
