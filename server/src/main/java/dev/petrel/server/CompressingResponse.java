package dev.petrel.server;

import dev.petrel.server.config.WebSocketConfig;
import dev.petrel.server.handler.ContentCodings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;

/**
 * A response that gzips its body when it may ({@link Compression}): headers go
 * straight to the real response, except the length, held back until the body shows whether it
 * is compressed; the body is buffered up to the threshold, then decided, and written through
 * {@link GZIPOutputStream} (with sync flush) or as it is.
 */
final class CompressingResponse implements Response {
    private final Response response;
    private final boolean accepted;
    private final boolean head;
    private final int minBytes;
    private long declaredLength = -1;
    private DecidingStream stream;
    private boolean detached;

    CompressingResponse(Response response, String acceptEncoding, boolean head, int minBytes) {
        this.response = response;
        this.accepted = ContentCodings.accepts(acceptEncoding, "gzip");
        this.head = head;
        this.minBytes = minBytes;
    }

    @Override
    public Response status(int status) {
        response.status(status);
        return this;
    }

    @Override
    public int status() {
        return response.status();
    }

    @Override
    public Response header(String name, String value) {
        if (name.equalsIgnoreCase("Content-Length")) return contentLength(Long.parseLong(value.strip()));
        response.header(name, value);
        return this;
    }

    @Override
    public Response addHeader(String name, String value) {
        if (name.equalsIgnoreCase("Content-Length")) return contentLength(Long.parseLong(value.strip()));
        response.addHeader(name, value);
        return this;
    }

    @Override
    public String header(String name) {
        if (name.equalsIgnoreCase("Content-Length")) return declaredLength < 0 ? null : Long.toString(declaredLength);
        return response.header(name);
    }

    @Override
    public Response contentLength(long length) {
        declaredLength = length;
        return this;
    }

    @Override
    public void send(byte[] body) throws IOException {
        if (compresses(body.length)) {
            ByteArrayOutputStream compressed = new ByteArrayOutputStream(body.length / 3 + 64);
            try (GZIPOutputStream gzip = new GZIPOutputStream(compressed)) {
                gzip.write(body);
            }
            markCompressed();
            response.send(compressed.toByteArray());
        } else {
            if (declaredLength >= 0) response.contentLength(declaredLength);
            response.send(body);
        }
    }

    /** Compressed, the file's bytes are copied through the gzip stream; otherwise the response sends them as it can. */
    @Override
    public void sendFile(FileChannel file, long position, long count) throws IOException {
        if (compresses(count)) {
            Response.super.sendFile(file, position, count);
        } else {
            response.sendFile(file, position, count);
        }
    }

    @Override
    public void send(String text) throws IOException {
        if (response.header("Content-Type") == null) response.header("Content-Type", "text/plain;charset=UTF-8");
        send(text.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public OutputStream body() {
        if (stream == null) stream = new DecidingStream();
        return stream;
    }

    @Override
    public boolean committed() {
        return response.committed();
    }

    @Override
    public void reset() {
        response.reset();
        declaredLength = -1;
        stream = null;
    }

    @Override
    public Response trailer(String name, String value) {
        response.trailer(name, value);
        return this;
    }

    @Override
    public void sendInterim(int status) throws IOException {
        response.sendInterim(status);
    }

    @Override
    public void upgradeToWebSocket(WebSocketHandler handler, WebSocketConfig config) throws IOException {
        response.upgradeToWebSocket(handler, config); // a 101 has no body to compress
    }

    @Override
    public Detached detach(Duration timeout) {
        Detached real = response.detach(timeout);
        detached = true;
        return new Detached() { // completing finishes the gzip stream first, as a handler's return does
            @Override
            public boolean complete() {
                try {
                    finish();
                } catch (IOException e) {
                    return real.fail(e);
                }
                return real.complete();
            }

            @Override
            public boolean fail(Throwable failure) {
                return real.fail(failure);
            }

            @Override
            public boolean done() {
                return real.done();
            }
        };
    }

    /** Whether the handler detached the response: it is finished when completed, not when the handler returns. */
    boolean detached() {
        return detached;
    }

    /**
     * Ends a body the handler left open (Petrel closes a response's body itself after the
     * handler, so handlers need not): the gzip trailer is written then.
     */
    void finish() throws IOException {
        if (stream != null) stream.close();
    }

    /**
     * Whether a body of {@code length} bytes ({@code -1}: not known yet, streamed) is compressed;
     * a compressible type gets {@code Vary} either way.
     */
    private boolean compresses(long length) {
        if (!compressible(response.header("Content-Type"))) return false;
        addVary();
        return accepted && !head && response.status() == 200 && response.header("Content-Encoding") == null
                && response.header("Content-Range") == null && (length < 0 || length >= minBytes);
    }

    private void addVary() {
        String vary = response.header("Vary");
        if (vary == null) response.header("Vary", "Accept-Encoding");
        else if (!vary.toLowerCase(Locale.ROOT).contains("accept-encoding")) response.header("Vary", vary + ", Accept-Encoding");
    }

    private void markCompressed() {
        response.header("Content-Encoding", "gzip");
        String etag = response.header("ETag");
        if (etag != null && etag.startsWith("\"")) response.header("ETag", "W/" + etag); // other bytes, same meaning
    }

    static boolean compressible(String contentType) {
        if (contentType == null) return false;
        String type = contentType.toLowerCase(Locale.ROOT);
        int semicolon = type.indexOf(';');
        if (semicolon >= 0) type = type.substring(0, semicolon);
        type = type.strip();
        return type.startsWith("text/") || type.equals("application/json") || type.endsWith("+json")
                || type.equals("application/javascript") || type.equals("application/xml") || type.endsWith("+xml")
                || type.equals("image/svg+xml");
    }

    /** Holds the first bytes until it knows whether the body is compressed, then writes through. */
    private final class DecidingStream extends OutputStream {
        private final ByteArrayOutputStream held = new ByteArrayOutputStream();
        private OutputStream out; // decided: gzip over the response's body, or the body itself
        private boolean closed;

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (out == null) {
                held.write(b, off, len);
                if (held.size() < Math.max(minBytes, 1)) return;
                decide(-1);
                return;
            }
            out.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            if (out == null) decide(-1); // a streaming handler wants its bytes out now
            out.flush();
        }

        @Override
        public void close() throws IOException {
            if (closed) return;
            closed = true;
            if (out == null) decide(held.size());
            out.close();
        }

        /** @param length the whole body's length when known (closed before the threshold), else -1 */
        private void decide(long length) throws IOException {
            long known = length >= 0 ? length : declaredLength;
            if (compresses(known)) {
                markCompressed();
                out = new GZIPOutputStream(response.body(), 8192, true);
            } else {
                if (declaredLength >= 0) response.contentLength(declaredLength);
                else if (length >= 0) response.contentLength(length);
                out = response.body();
            }
            held.writeTo(out);
            held.reset();
        }
    }
}
