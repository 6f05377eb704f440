package dev.petrel.server;

import java.util.Objects;

/**
 * Opt-in gzip for a handler's responses: {@code Compression.gzip(handler)}. A response is
 * compressed when the client accepts gzip, it is a {@code 200} of a compressible type (text, JSON,
 * JavaScript, XML, SVG) of at least {@value #DEFAULT_MIN_BYTES} bytes (or of unknown length, streamed),
 * and it carries no {@code Content-Encoding} or {@code Content-Range} of its own; {@code Vary:
 * Accept-Encoding} goes with every compressible response, compressed or not, and a strong
 * {@code ETag} becomes weak on a compressed one (its bytes differ). {@code HEAD}, {@code 206} and
 * precompressed static files are never touched. A {@code flush()} by the handler leaves as a
 * gzip sync flush, so streamed responses (server-sent events) still arrive as they are written.
 */
public final class Compression {
    /** Below this, gzip's header and the CPU cost more than the bytes saved. */
    public static final int DEFAULT_MIN_BYTES = 1024;

    private Compression() {}

    /** {@code handler} with its responses gzipped as described above. */
    public static Handler gzip(Handler handler) {
        return gzip(handler, DEFAULT_MIN_BYTES);
    }

    /**
     * The same with another threshold.
     *
     * @param minBytes responses of a known length below this are sent as they are
     */
    public static Handler gzip(Handler handler, int minBytes) {
        Objects.requireNonNull(handler, "handler");
        if (minBytes < 0) throw new IllegalArgumentException("minBytes must not be negative");
        return new Gzipped(handler, minBytes);
    }

    /**
     * A handler whose responses are gzipped. It runs where the wrapped one runs: whether it may
     * block is the wrapped handler's answer, for every request, so that compression never moves
     * a non-blocking handler off the event loop or a blocking one onto it.
     */
    private static final class Gzipped implements Handler {
        private final Handler handler;
        private final int minBytes;

        Gzipped(Handler handler, int minBytes) {
            this.handler = handler;
            this.minBytes = minBytes;
        }

        @Override
        public void handle(Request request, Response response) throws Exception {
            CompressingResponse compressing = new CompressingResponse(response, request.header("Accept-Encoding"),
                    "HEAD".equals(request.method()), minBytes);
            handler.handle(request, compressing);
            if (!compressing.detached()) compressing.finish();
        }

        @Override
        public boolean mayBlock() {
            return handler.mayBlock();
        }

        @Override
        public boolean mayBlock(Request request) {
            return handler.mayBlock(request);
        }

        @Override
        public boolean servesWebSockets() {
            return handler.servesWebSockets();
        }
    }
}
