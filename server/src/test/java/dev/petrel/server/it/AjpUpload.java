package dev.petrel.server.it;

import dev.petrel.server.Server;
import dev.petrel.testkit.AjpClient;
import java.io.IOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;

/**
 * An {@link Upload} as a front end (httpd's mod_jk) forwards it over AJP, with {@link AjpClient}:
 * body chunks go when the backend asks for them (the first of a declared length unasked), so
 * bytes the test sends wait in a queue until asked for. The response ended whole when AJP's
 * end-response came; a failed one must end with the connection instead.
 */
final class AjpUpload implements Upload {
    private static final int MAX_CHUNK = 8192 - 6;

    private final AjpClient client;
    private final String secret;
    private final Deque<byte[]> queued = new ArrayDeque<>();
    private boolean declared;
    private boolean firstSent;
    private int asked;              // get-body-chunk requests not answered yet
    private Duration trickleEvery;  // answer each request with one byte, this late
    private int trickleLeft;
    private long bodyBytes;

    AjpUpload(Server server, String secret) throws IOException {
        this.client = AjpClient.connect(server.ajpAddress());
        this.secret = secret;
    }

    @Override
    public void begin(long length) throws IOException {
        AjpClient.Request request = AjpClient.request("POST", "/upload").secret(secret).header("Host", "test");
        declared = length >= 0;
        if (declared) request.header("Content-Length", Long.toString(length));
        else request.header("Transfer-Encoding", "chunked");
        client.writeRaw(request.packet());
    }

    @Override
    public void send(byte[] bytes) throws IOException {
        for (int off = 0; off < bytes.length; off += MAX_CHUNK) {
            queue(Arrays.copyOfRange(bytes, off, Math.min(bytes.length, off + MAX_CHUNK)));
        }
    }

    /** A chunk goes at once when asked for (or as a declared body's first, unasked), else waits for the request. */
    private void queue(byte[] chunk) throws IOException {
        if (declared && !firstSent) {
            firstSent = true;
            client.sendBodyChunk(chunk);
        } else if (asked > 0 && queued.isEmpty()) {
            asked--;
            client.sendBodyChunk(chunk);
        } else {
            queued.add(chunk);
        }
    }

    @Override
    public int awaitHead() throws IOException {
        while (true) {
            byte[] packet = client.readPacket();
            switch (packet[0] & 0xFF) {
                case 4 -> {
                    return ((packet[1] & 0xFF) << 8) | (packet[2] & 0xFF);
                }
                case 6 -> answerBodyRequest();
                default -> throw new AssertionError("AJP packet " + (packet[0] & 0xFF) + " before the response's head");
            }
        }
    }

    private void answerBodyRequest() throws IOException {
        if (!queued.isEmpty()) {
            client.sendBodyChunk(queued.poll());
        } else if (trickleLeft > 0) {
            trickleLeft--;
            try {
                Thread.sleep(trickleEvery);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
            client.sendBodyChunk(new byte[] {'x'});
        } else {
            asked++;
        }
    }

    @Override
    public void cutShort() throws IOException {
        queue(new byte[0]); // the front end's empty chunk: the body ends here, short of its length
    }

    @Override
    public void reset() throws IOException {
        client.socket().setSoLinger(true, 0);
        client.close();
    }

    @Override
    public void trickle(Duration every, int count) throws IOException {
        trickleEvery = every;
        trickleLeft = count;
        while (asked > 0 && trickleLeft > 0) {
            asked--;
            answerBodyRequest();
        }
    }

    @Override
    public Outcome finish() throws IOException {
        while (true) {
            try {
                byte[] packet = client.readPacket();
                switch (packet[0] & 0xFF) {
                    case 3 -> bodyBytes += ((packet[1] & 0xFF) << 8) | (packet[2] & 0xFF);
                    case 6 -> answerBodyRequest();
                    case 5 -> {
                        return new Outcome(true, bodyBytes, "end-response after " + bodyBytes + " bytes of body");
                    }
                    default -> throw new AssertionError("unexpected AJP packet " + (packet[0] & 0xFF));
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the backend neither ended nor cut the response; " + bodyBytes + " bytes of body", e);
            } catch (SocketException | java.io.EOFException e) { // in a read, or in the answer to a body request
                return new Outcome(false, bodyBytes, "the connection ended (" + e.getMessage() + ") after " + bodyBytes + " bytes of body");
            }
        }
    }

    @Override
    public void close() throws IOException {
        client.close();
    }
}
