package dev.petrel.server.it;

import dev.petrel.server.Server;
import dev.petrel.testkit.HttpBodyEnding;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * An {@link Upload} over HTTP/1.1 (or, over TLS, HTTPS), with {@link RawClient}: a body of unknown
 * length goes chunked. Whether the response ended whole is read from its own framing: the chunked
 * body decoded to its last chunk by Petrel's codec, or the declared length received in full.
 */
final class Http1Upload implements Upload {
    private final RawClient client;
    private boolean chunked;
    private RawResponse head;
    private Trickle trickle;

    Http1Upload(Server server) throws IOException {
        this.client = RawClient.connect(server);
    }

    @Override
    public void begin(long length) throws IOException {
        chunked = length < 0;
        client.send("POST /upload HTTP/1.1\r\nHost: test\r\nContent-Type: application/octet-stream\r\n"
                + (chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + length + "\r\n") + "\r\n");
    }

    @Override
    public void send(byte[] bytes) throws IOException {
        if (!chunked) {
            client.send(bytes);
            return;
        }
        byte[] size = (Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] chunk = new byte[size.length + bytes.length + 2];
        System.arraycopy(size, 0, chunk, 0, size.length);
        System.arraycopy(bytes, 0, chunk, size.length, bytes.length);
        chunk[chunk.length - 2] = '\r';
        chunk[chunk.length - 1] = '\n';
        client.send(chunk);
    }

    @Override
    public int awaitHead() throws IOException {
        head = client.readHead();
        return head.status();
    }

    @Override
    public void cutShort() throws IOException {
        client.shutdownOutput();
    }

    @Override
    public void reset() throws IOException {
        client.reset();
    }

    @Override
    public void trickle(Duration every, int count) {
        trickle = Trickle.start(b -> send(new byte[] {b}), every, count);
    }

    /**
     * Reads until the response's framing is complete (the last chunk, the declared length) or the
     * server ends the connection first; a response delimited by the end of the connection is whole
     * only when it ends in order, not by a reset.
     */
    @Override
    public Outcome finish() throws IOException {
        try {
            return readToItsEnd();
        } finally {
            if (trickle != null) trickle.stop();
        }
    }

    private Outcome readToItsEnd() throws IOException {
        String length = head.header("Content-Length");
        HttpBodyEnding ending = HttpBodyEnding.read(client.input(), "chunked".equalsIgnoreCase(head.header("Transfer-Encoding")),
                length == null ? -1 : Long.parseLong(length));
        return new Outcome(ending.complete(), ending.bodyBytes(), ending.how());
    }

    @Override
    public void close() throws IOException {
        client.close();
    }
}
