package dev.petrel.server.it;

import dev.petrel.http2.Frames;
import dev.petrel.http2.Http2ErrorCode;
import dev.petrel.server.Server;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * An {@link Upload} on stream 1 of an HTTP/2 connection, {@code h2} over TLS or {@code h2c} with
 * prior knowledge, with {@link H2Client}. The response ended whole when a frame of it carried
 * {@code END_STREAM}; a failed one must end with {@code RST_STREAM} (or the connection) instead.
 */
final class H2Upload implements Upload {
    private static final int STREAM = 1;

    private final H2Client client;
    private final String scheme;
    private long bodyBytes;
    private long declared = -1; // content-length: the DATA that reaches it ends the stream
    private long sent;
    private Trickle trickle;

    H2Upload(Server server, boolean tls) throws IOException {
        this.client = tls ? H2Client.connectTls(server.httpsAddress().getPort(), TestCertificate.get().clientContext())
                : H2Client.connect(server.address().getPort());
        this.scheme = tls ? "https" : "http";
    }

    @Override
    public void begin(long length) throws IOException {
        declared = length;
        String[] fields = length < 0 ? H2Client.requestWithScheme(scheme, "POST", "/upload")
                : H2Client.requestWithScheme(scheme, "POST", "/upload", "content-length", Long.toString(length));
        client.headers(STREAM, false, fields);
    }

    @Override
    public void send(byte[] bytes) throws IOException {
        for (int off = 0; off < bytes.length; off += Frames.DEFAULT_MAX_FRAME_SIZE) {
            int n = Math.min(Frames.DEFAULT_MAX_FRAME_SIZE, bytes.length - off);
            sent += n;
            client.data(STREAM, java.util.Arrays.copyOfRange(bytes, off, off + n), sent == declared);
        }
    }

    @Override
    public int awaitHead() throws IOException {
        H2Client.Frame frame = client.await(f -> f.streamId() == STREAM, "the response on stream 1");
        if (frame.type() != Frames.HEADERS) throw new AssertionError("the response began with " + frame + ", not HEADERS");
        if (frame.has(Frames.FLAG_END_STREAM)) throw new AssertionError("the response ended with its head: " + frame);
        return Integer.parseInt(frame.field(":status"));
    }

    @Override
    public void cutShort() throws IOException {
        client.data(STREAM, new byte[0], true); // END_STREAM before the declared content-length
    }

    @Override
    public void reset() throws IOException {
        client.rst(STREAM, Http2ErrorCode.CANCEL);
    }

    @Override
    public void trickle(Duration every, int count) {
        trickle = Trickle.start(b -> client.data(STREAM, new byte[] {b}, false), every, count);
    }

    @Override
    public Outcome finish() throws IOException {
        List<String> seen = new ArrayList<>();
        boolean complete = false;
        try {
            while (true) {
                H2Client.Frame frame = client.next();
                if (frame == null) {
                    seen.add("the connection closed");
                    break;
                }
                if (frame.type() == Frames.GOAWAY) {
                    seen.add("GOAWAY " + frame.errorCode());
                    break;
                }
                if (frame.streamId() != STREAM) continue;
                if (frame.type() == Frames.DATA) bodyBytes += frame.payload().length;
                if (frame.type() == Frames.RST_STREAM) {
                    seen.add("RST_STREAM " + frame.errorCode());
                    break;
                }
                if (frame.has(Frames.FLAG_END_STREAM)) {
                    complete = true;
                    seen.add("END_STREAM on " + frame);
                    break;
                }
            }
        } finally {
            if (trickle != null) trickle.stop();
        }
        return new Outcome(complete, bodyBytes, String.join(", ", seen) + " after " + bodyBytes + " bytes of body");
    }

    @Override
    public void close() throws IOException {
        client.close();
    }
}
