package dev.petrel.server.it;

import dev.petrel.http.ChunkedDecoder;
import dev.petrel.http.HttpLimits;
import dev.petrel.http.ParseStatus;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * How an HTTP/1.1 response body ended, read raw from a {@link RawClient} after its head: whole by
 * its framing (the last chunk, the declared length, or an orderly end of a body delimited by
 * close), or cut (the connection ended first, or was reset). Reading stops at the framing's end,
 * so a kept-alive connection is not waited on.
 *
 * @param complete whether the body ended whole
 * @param bodyBytes the body bytes received (decoded, for a chunked one)
 * @param how what the client saw at the end, for a failure message
 */
record BodyEnding(boolean complete, long bodyBytes, String how) {
    /**
     * Reads the body framed as the head said ({@code chunked}, else {@code length}, else by
     * close), beginning with {@code first}: bytes of it already read with the head.
     */
    static BodyEnding read(RawClient client, boolean chunked, long length, ByteBuffer first) throws IOException {
        ChunkedDecoder decoder = chunked ? new ChunkedDecoder(HttpLimits.DEFAULT) : null;
        String framing = chunked ? "chunked" : length >= 0 ? "of length " + length : "delimited by close";
        ByteBuffer pending = ByteBuffer.allocate(1 << 20);
        ByteBuffer decoded = ByteBuffer.allocate(1 << 20);
        byte[] buffer = new byte[16 * 1024];
        pending.put(first).flip();
        long body = 0;
        while (true) {
            if (decoder != null) {
                ParseStatus status;
                do {
                    decoded.clear();
                    status = decoder.decode(pending, decoded);
                    body += decoded.position();
                } while (status == ParseStatus.NEED_MORE && decoded.position() > 0 && pending.hasRemaining());
                if (status == ParseStatus.COMPLETE) return new BodyEnding(true, body, "the last chunk after " + body + " bytes");
                if (status == ParseStatus.ERROR) return new BodyEnding(false, body, "a broken chunked body: " + decoder.error());
            } else {
                body += pending.remaining();
                pending.position(pending.limit());
                if (length >= 0 && body >= length) return new BodyEnding(true, body, "all " + length + " bytes");
            }
            int n = client.readSome(buffer);
            if (n < 0) {
                boolean reset = n == RawClient.RESET;
                String how = (reset ? "a reset" : "the end of the connection") + " after " + body + " bytes of a body " + framing;
                return new BodyEnding(decoder == null && length < 0 && !reset, body, how);
            }
            pending.compact().put(buffer, 0, n).flip();
        }
    }
}
