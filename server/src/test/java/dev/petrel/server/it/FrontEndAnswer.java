package dev.petrel.server.it;

import dev.petrel.testkit.HttpBodyEnding;
import java.io.IOException;

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
        RawResponse head;
        try {
            head = client.readHead();
        } catch (IOException e) {
            return new FrontEndAnswer(-1, false, "no status line: " + e);
        }
        String length = head.header("Content-Length");
        HttpBodyEnding ending = HttpBodyEnding.read(client.input(), "chunked".equalsIgnoreCase(head.header("Transfer-Encoding")),
                length == null ? -1 : Long.parseLong(length));
        return new FrontEndAnswer(head.status(), ending.complete(), head.status() + ", " + ending.how());
    }
}
