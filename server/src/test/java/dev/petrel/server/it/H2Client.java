package dev.petrel.server.it;

import dev.petrel.http.ByteSink;
import dev.petrel.http.ParseStatus;
import dev.petrel.http2.FrameReader;
import dev.petrel.http2.FrameWriter;
import dev.petrel.http2.Frames;
import dev.petrel.http2.HpackDecoder;
import dev.petrel.http2.HpackEncoder;
import dev.petrel.http2.Http2ErrorCode;
import dev.petrel.http2.Http2Settings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * A raw HTTP/2 client over a plain socket (h2c with prior knowledge), built on Petrel's own codec,
 * that sends exactly the frames a test asks for, well formed or not: what the hardening and
 * conformance tests need and no real client does. It reads frames one at a time, decoding header
 * blocks so that a test can look at statuses.
 */
final class H2Client implements AutoCloseable {
    /** A frame received, its payload copied. */
    record Frame(int type, int flags, int streamId, byte[] payload, List<String[]> fields, Http2ErrorCode errorCode,
                 int lastStreamId, int windowIncrement) {
        boolean has(int flag) {
            return (flags & flag) != 0;
        }

        /** The value of field {@code name} in a HEADERS frame, or null. */
        String field(String name) {
            for (String[] f : fields) if (f[0].equals(name)) return f[1];
            return null;
        }

        @Override
        public String toString() {
            return "Frame[type=" + type + ", flags=" + flags + ", stream=" + streamId + ", length=" + payload.length
                    + (errorCode != null ? ", " + errorCode : "") + "]";
        }
    }

    /** A whole response on one stream. */
    record Response(int status, List<String[]> fields, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final FrameReader reader = new FrameReader(Frames.DEFAULT_MAX_FRAME_SIZE);
    private final HpackEncoder encoder = new HpackEncoder(4096);
    private final HpackDecoder decoder = new HpackDecoder(4096, 1 << 20);
    private final ByteBuffer input = ByteBuffer.allocate(64 * 1024).flip();

    private H2Client(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /** Connects and sends the preface and a SETTINGS frame with {@code settings} (id, value pairs). */
    static H2Client connect(int port, long... settings) throws IOException {
        return connectAfter(port, new byte[0], settings);
    }

    /** As {@link #connect}, over TLS with {@code h2} chosen by ALPN, trusting {@code trust}. */
    static H2Client connectTls(int port, javax.net.ssl.SSLContext trust, long... settings) throws IOException {
        Socket tcp = new Socket();
        tcp.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        javax.net.ssl.SSLSocket socket = (javax.net.ssl.SSLSocket) trust.getSocketFactory().createSocket(tcp, "localhost", port, true);
        javax.net.ssl.SSLParameters parameters = socket.getSSLParameters();
        parameters.setApplicationProtocols(new String[] {"h2"});
        socket.setSSLParameters(parameters);
        socket.setSoTimeout(10_000);
        socket.startHandshake();
        if (!"h2".equals(socket.getApplicationProtocol())) {
            socket.close();
            throw new IOException("the server did not choose h2 by ALPN: " + socket.getApplicationProtocol());
        }
        H2Client client = new H2Client(socket);
        client.raw(Frames.clientPreface());
        client.settings(settings);
        return client;
    }

    /** As {@link #connect}, sending {@code first} (a PROXY protocol header, say) before the preface. */
    static H2Client connectAfter(int port, byte[] first, long... settings) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        socket.setSoTimeout(10_000);
        H2Client client = new H2Client(socket);
        if (first.length > 0) client.raw(first);
        client.raw(Frames.clientPreface());
        client.settings(settings);
        return client;
    }

    void settings(long... idValuePairs) throws IOException {
        Http2Settings values = new Http2Settings();
        for (int i = 0; i < idValuePairs.length; i += 2) values.set((int) idValuePairs[i], idValuePairs[i + 1]);
        ByteBuffer frame = ByteBuffer.allocate(Frames.HEADER_LENGTH + 6 * 6);
        FrameWriter.settings(frame, values);
        send(frame);
    }

    /** A header block for {@code nameValues} (name, value, name, value...), encoded by this connection's encoder. */
    byte[] block(String... nameValues) {
        ByteSink sink = new ByteSink(256);
        encoder.beginBlock(sink);
        for (int i = 0; i < nameValues.length; i += 2) encoder.field(sink, nameValues[i], nameValues[i + 1]);
        return Arrays.copyOf(sink.array(), sink.length());
    }

    /** A GET's pseudo-headers and {@code extra} fields. */
    static String[] get(String path, String... extra) {
        return request("GET", path, extra);
    }

    static String[] request(String method, String path, String... extra) {
        return requestWithScheme("http", method, path, extra);
    }

    /** A request's pseudo-headers with {@code scheme} ({@code https} over TLS) and {@code extra} fields. */
    static String[] requestWithScheme(String scheme, String method, String path, String... extra) {
        List<String> all = new ArrayList<>(List.of(":method", method, ":scheme", scheme, ":path", path, ":authority", "localhost"));
        all.addAll(List.of(extra));
        return all.toArray(String[]::new);
    }

    void headers(int streamId, boolean endStream, String... nameValues) throws IOException {
        byte[] block = block(nameValues);
        headersBlock(streamId, block, endStream, true);
    }

    /** A HEADERS frame carrying {@code block} as it is, with END_HEADERS or not. */
    void headersBlock(int streamId, byte[] block, boolean endStream, boolean endHeaders) throws IOException {
        int flags = (endStream ? Frames.FLAG_END_STREAM : 0) | (endHeaders ? Frames.FLAG_END_HEADERS : 0);
        frame(Frames.HEADERS, flags, streamId, block);
    }

    void continuation(int streamId, byte[] fragment, boolean endHeaders) throws IOException {
        frame(Frames.CONTINUATION, endHeaders ? Frames.FLAG_END_HEADERS : 0, streamId, fragment);
    }

    void data(int streamId, byte[] b, boolean endStream) throws IOException {
        frame(Frames.DATA, endStream ? Frames.FLAG_END_STREAM : 0, streamId, b);
    }

    void rst(int streamId, Http2ErrorCode code) throws IOException {
        ByteBuffer frame = ByteBuffer.allocate(Frames.HEADER_LENGTH + 4);
        FrameWriter.rstStream(frame, streamId, code);
        send(frame);
    }

    void ping(long data) throws IOException {
        ByteBuffer frame = ByteBuffer.allocate(Frames.HEADER_LENGTH + 8);
        FrameWriter.ping(frame, false, data);
        send(frame);
    }

    void windowUpdate(int streamId, int increment) throws IOException {
        ByteBuffer frame = ByteBuffer.allocate(Frames.HEADER_LENGTH + 4);
        FrameWriter.windowUpdate(frame, streamId, increment);
        send(frame);
    }

    /** Any frame, with a payload as given: for frames a correct client never sends. */
    void frame(int type, int flags, int streamId, byte[] payload) throws IOException {
        ByteBuffer frame = ByteBuffer.allocate(Frames.HEADER_LENGTH + payload.length);
        FrameWriter.header(frame, payload.length, type, flags, streamId);
        frame.put(payload);
        send(frame);
    }

    void raw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    private void send(ByteBuffer frame) throws IOException {
        out.write(frame.array(), 0, frame.position());
        out.flush();
    }

    /** The next frame, or null when the server closed the connection. */
    Frame next() throws IOException {
        while (true) {
            ParseStatus status = reader.read(input);
            if (status == ParseStatus.COMPLETE) return copy();
            if (status == ParseStatus.ERROR) throw new IOException("the server sent an invalid frame: " + reader.error());
            input.compact();
            int n;
            try {
                n = in.read(input.array(), input.position(), input.remaining());
            } catch (SocketTimeoutException e) {
                input.flip();
                throw e;
            } catch (IOException e) {
                input.flip();
                return null; // reset by the server: closed too
            }
            if (n < 0) {
                input.flip();
                return null;
            }
            input.position(input.position() + n).flip();
        }
    }

    private Frame copy() throws IOException {
        int type = reader.type();
        byte[] payload = type == Frames.PING ? ByteBuffer.allocate(8).putLong(reader.pingData()).array()
                : type == Frames.SETTINGS ? settingsPayload()
                : Arrays.copyOfRange(reader.payload(), reader.payloadOffset(), reader.payloadOffset() + reader.payloadLength());
        List<String[]> fields = new ArrayList<>();
        if (type == Frames.HEADERS) {
            try {
                decoder.decode(ByteBuffer.wrap(payload), (n, no, nl, v, vo, vl) -> fields.add(new String[] {
                        new String(n, no, nl, StandardCharsets.ISO_8859_1), new String(v, vo, vl, StandardCharsets.ISO_8859_1)}));
            } catch (dev.petrel.http2.HpackException e) {
                throw new IOException("the server's header block did not decode: " + e.getMessage(), e);
            }
        }
        Http2ErrorCode code = type == Frames.RST_STREAM || type == Frames.GOAWAY ? reader.errorCode() : null;
        return new Frame(type, reader.flags(), reader.streamId(), payload, fields, code,
                type == Frames.GOAWAY ? reader.lastStreamId() : 0, type == Frames.WINDOW_UPDATE ? reader.windowIncrement() : 0);
    }

    /** A SETTINGS frame's payload as on the wire (the reader parses it into settings): identifier and value, 6 bytes each. */
    private byte[] settingsPayload() {
        ByteBuffer payload = ByteBuffer.allocate(6 * reader.settingsCount());
        for (int i = 0; i < reader.settingsCount(); i++) payload.putShort((short) reader.settingId(i)).putInt((int) reader.settingValue(i));
        return payload.array();
    }

    /** Reads frames until one matches (skipping the others), or fails when the connection closes first. */
    Frame await(Predicate<Frame> wanted, String what) throws IOException {
        while (true) {
            Frame frame = next();
            if (frame == null) throw new AssertionError("the connection closed before " + what);
            if (wanted.test(frame)) return frame;
        }
    }

    /** Reads frames until a GOAWAY, then until the server closes; returns the GOAWAY. */
    Frame awaitGoAway() throws IOException {
        Frame goAway = await(f -> f.type() == Frames.GOAWAY, "a GOAWAY");
        awaitClosed();
        return goAway;
    }

    /** Reads and discards until the server closes the connection. */
    void awaitClosed() throws IOException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (next() != null) {
            if (System.nanoTime() > deadline) throw new AssertionError("the server did not close the connection");
        }
    }

    /** Reads the response on {@code streamId} to its END_STREAM, answering nothing else. */
    Response response(int streamId) throws IOException {
        int status = -1;
        List<String[]> fields = new ArrayList<>();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            Frame frame = await(f -> f.streamId() == streamId, "the response on stream " + streamId);
            if (frame.type() == Frames.RST_STREAM) throw new AssertionError("stream " + streamId + " was reset: " + frame.errorCode());
            if (frame.type() == Frames.HEADERS && status < 0 || frame.type() == Frames.HEADERS && status >= 100 && status < 200) {
                String s = frame.field(":status");
                status = s == null ? status : Integer.parseInt(s);
                fields.addAll(frame.fields());
            } else if (frame.type() == Frames.DATA) {
                body.writeBytes(frame.payload());
                if (frame.payload().length > 0) {
                    windowUpdate(0, frame.payload().length);
                    windowUpdate(streamId, frame.payload().length);
                }
            }
            if (frame.has(Frames.FLAG_END_STREAM)) return new Response(status, fields, body.toByteArray());
        }
    }

    /** Sends a GET on {@code streamId} and reads its response. */
    Response get(int streamId, String path) throws IOException {
        headers(streamId, true, get(path));
        return response(streamId);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
