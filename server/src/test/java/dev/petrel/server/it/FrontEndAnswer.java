package dev.petrel.server.it;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What a front end (httpd, HAProxy, nginx) answered its client, read raw so that a response cut
 * short shows as such: the status line, and whether the body ended as its framing says a whole
 * one ends (the last chunk, the declared length) or the connection ended first, in order or by
 * a reset.
 *
 * @param status the status, or -1 when the connection ended before a status line
 * @param complete whether the body ended whole by its framing
 * @param how what the client saw, for a failure message
 */
record FrontEndAnswer(int status, boolean complete, String how) {
    /** Whether this is a success the client would take as whole: a 2xx, complete. */
    boolean wholeSuccess() {
        return status >= 200 && status < 300 && complete;
    }

    /** Reads one response from {@code client} to its framing's end, or to the end of the connection. */
    static FrontEndAnswer read(RawClient client) throws IOException {
        ByteBuffer all = ByteBuffer.allocate(1 << 20);
        byte[] buffer = new byte[16 * 1024];
        int headEnd = -1;
        int n;
        while (headEnd < 0) {
            n = client.readSome(buffer);
            if (n < 0) return new FrontEndAnswer(-1, false, (n == RawClient.RESET ? "a reset" : "the end") + " before a status line");
            all.put(buffer, 0, Math.min(n, all.remaining()));
            headEnd = indexOf(all, "\r\n\r\n");
        }
        String head = new String(all.array(), 0, headEnd, StandardCharsets.ISO_8859_1);
        int status = Integer.parseInt(head.substring(9, 12));
        String lower = head.toLowerCase(java.util.Locale.ROOT) + "\r\n"; // every field line ends in CRLF, the last too
        boolean chunked = lower.contains("\r\ntransfer-encoding: chunked");
        long length = -1;
        int at = lower.indexOf("\r\ncontent-length:");
        if (at >= 0) length = Long.parseLong(lower.substring(at + 17, lower.indexOf("\r\n", at + 2)).strip());
        ByteBuffer body = ByteBuffer.wrap(all.array(), headEnd + 4, all.position() - headEnd - 4);
        BodyEnding ending = BodyEnding.read(client, chunked, length, body);
        return new FrontEndAnswer(status, ending.complete(), status + ", " + ending.how());
    }

    private static int indexOf(ByteBuffer buffer, String text) {
        byte[] b = buffer.array();
        byte[] t = text.getBytes(StandardCharsets.ISO_8859_1);
        outer:
        for (int i = 0; i + t.length <= buffer.position(); i++) {
            for (int j = 0; j < t.length; j++) if (b[i + j] != t[j]) continue outer;
            return i;
        }
        return -1;
    }
}
