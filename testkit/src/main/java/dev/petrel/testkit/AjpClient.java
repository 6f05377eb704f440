package dev.petrel.testkit;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A minimal AJP/1.3 front end for tests, speaking to a backend the way mod_jk does over one
 * connection: a forward-request, the first body chunk unasked when the length is declared, more
 * chunks when the backend asks, then the response up to its end-response. Also sends raw bytes,
 * for what a real front end never would.
 */
public final class AjpClient implements AutoCloseable {
    private static final List<String> METHODS = List.of("", "OPTIONS", "GET", "HEAD", "POST", "PUT", "DELETE", "TRACE",
            "PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "ACL", "REPORT", "VERSION-CONTROL", "CHECKIN",
            "CHECKOUT", "UNCHECKOUT", "SEARCH", "MKWORKSPACE", "UPDATE", "LABEL", "MERGE", "BASELINE-CONTROL", "MKACTIVITY");

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final int packetSize;

    private AjpClient(Socket socket, int packetSize) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
        this.packetSize = packetSize;
    }

    /** Connects to {@code address} with 8 KiB packets and a 10 s read timeout. */
    public static AjpClient connect(InetSocketAddress address) throws IOException {
        return connect(address, 8192);
    }

    /** Connects to {@code address} with packets of {@code packetSize} bytes. */
    public static AjpClient connect(InetSocketAddress address, int packetSize) throws IOException {
        Socket socket = new Socket();
        socket.connect(address, 5000);
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true);
        return new AjpClient(socket, packetSize);
    }

    /** A request to describe, then {@link #send}. */
    public static Request request(String method, String uri) {
        return new Request(method, uri);
    }

    /** Sends {@code request} and reads the whole response, serving the backend's requests for body chunks. */
    public Response send(Request request) throws IOException {
        return readResponse(request, write(request));
    }

    /**
     * Sends the forward-request and, for a body of declared length, its first chunk unasked, as
     * mod_jk does; returns how many body bytes that chunk held. {@link #readResponse} goes on.
     */
    public int write(Request request) throws IOException {
        out.write(request.packet());
        out.flush();
        byte[] body = request.body;
        return body != null && !request.chunked ? sendChunk(body, 0) : 0;
    }

    /**
     * Reads the response to {@code request} after {@link #write}, answering the backend's requests
     * for body chunks from byte {@code sent} of its body on; once the body is used up, with empty
     * chunks.
     */
    public Response readResponse(Request request, int sent) throws IOException {
        byte[] body = request.body;
        int status = -1;
        String reason = null;
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        int bodyRequests = 0;
        int chunks = 0;
        while (true) {
            byte[] packet = readPacket();
            int type = packet[0] & 0xFF;
            switch (type) {
                case 4 -> { // send headers
                    Reader r = new Reader(packet, 1);
                    status = r.int16();
                    reason = r.string();
                    int count = r.int16();
                    for (int i = 0; i < count; i++) {
                        String name = r.peek() == 0xA0 ? responseHeader(r.int16()) : r.string();
                        headers.add(Map.entry(name, r.string()));
                    }
                }
                case 3 -> { // body chunk: length, data, NUL
                    int length = ((packet[1] & 0xFF) << 8) | (packet[2] & 0xFF);
                    content.write(packet, 3, length);
                    chunks++;
                }
                case 6 -> { // get body chunk
                    bodyRequests++;
                    int asked = ((packet[1] & 0xFF) << 8) | (packet[2] & 0xFF);
                    if (socket.isOutputShutdown()) {
                        // a front end that has gone answers nothing
                    } else if (body == null || sent >= body.length) {
                        out.write(new byte[] {0x12, 0x34, 0, 0});
                        out.flush();
                    } else {
                        sent += sendChunk(body, sent, Math.min(asked, packetSize - 6));
                    }
                }
                case 5 -> { // end response
                    return new Response(status, reason, headers, content.toByteArray(), packet[1] != 0, bodyRequests, chunks);
                }
                default -> throw new IOException("unexpected AJP packet type " + type);
            }
        }
    }

    private int sendChunk(byte[] body, int from) throws IOException {
        return sendChunk(body, from, packetSize - 6);
    }

    private int sendChunk(byte[] body, int from, int max) throws IOException {
        int length = Math.min(max, body.length - from);
        ByteArrayOutputStream packet = new ByteArrayOutputStream(length + 6);
        packet.write(0x12);
        packet.write(0x34);
        packet.write((length + 2) >>> 8);
        packet.write((length + 2) & 0xFF);
        packet.write(length >>> 8);
        packet.write(length & 0xFF);
        packet.write(body, from, length);
        out.write(packet.toByteArray());
        out.flush();
        return length;
    }

    /**
     * Sends {@code data} as one body chunk, as a front end answers a get-body-chunk (an empty one
     * ends the body); at most a packet's worth.
     */
    public void sendBodyChunk(byte[] data) throws IOException {
        if (data.length > packetSize - 6) throw new IllegalArgumentException("more than a packet: " + data.length + " bytes");
        if (data.length == 0) {
            writeRaw(new byte[] {0x12, 0x34, 0, 0}); // as mod_jk ends a body: a packet with no payload
            return;
        }
        sendChunk(data, 0, data.length);
    }

    /** Sends a CPing and says whether a CPong came back. */
    public boolean cping() throws IOException {
        out.write(new byte[] {0x12, 0x34, 0, 1, 10});
        out.flush();
        byte[] packet = readPacket();
        return packet.length == 1 && packet[0] == 9;
    }

    /** Half-closes: the backend reads end of stream, and the response can still be read. */
    public void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    /** Writes bytes as they are. */
    public void writeRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Whether the backend closed the connection (end of stream) within the read timeout. */
    public boolean closedByPeer() throws IOException {
        try {
            return in.read() < 0;
        } catch (java.net.SocketException e) {
            return true; // reset: closed too
        }
    }

    /** Reads one packet from the backend and returns its payload. */
    public byte[] readPacket() throws IOException {
        int a = in.read();
        if (a < 0) throw new EOFException("the backend closed the connection");
        int b = in.readUnsignedByte();
        if (a != 'A' || b != 'B') throw new IOException("not a packet from an AJP backend: " + a + " " + b);
        int length = in.readUnsignedShort();
        byte[] payload = new byte[length];
        in.readFully(payload);
        return payload;
    }

    /** The underlying socket, for timeouts. */
    public Socket socket() {
        return socket;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** Resets the connection, as a front end that crashed or dropped it does: RST, not FIN. */
    public void reset() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    private static String responseHeader(int code) {
        String[] names = {null, "Content-Type", "Content-Language", "Content-Length", "Date", "Last-Modified", "Location",
            "Set-Cookie", "Set-Cookie2", "Servlet-Engine", "Status", "WWW-Authenticate"};
        int index = code & 0xFF;
        return index < names.length && names[index] != null ? names[index] : "unknown-0x" + Integer.toHexString(code);
    }

    /** A forward-request being described. */
    public static final class Request {
        private final String method;
        private final String uri;
        private String protocol = "HTTP/1.1";
        private String query;
        private String remoteAddress = "203.0.113.7";
        private int remotePort = -1;
        private String serverName = "www.example.com";
        private int serverPort = 80;
        private boolean ssl;
        private final List<String[]> headers = new ArrayList<>();
        private final List<String[]> attributes = new ArrayList<>();
        private String secret;
        private String sslCipher;
        private String sslSession;
        private int sslKeySize = -1;
        private String sslCertificate;
        private byte[] body;
        private boolean chunked;

        private Request(String method, String uri) {
            this.method = method;
            this.uri = uri;
        }

        public Request protocol(String protocol) { this.protocol = protocol; return this; }
        public Request query(String query) { this.query = query; return this; }
        public Request remote(String address, int port) { this.remoteAddress = address; this.remotePort = port; return this; }
        public Request server(String name, int port) { this.serverName = name; this.serverPort = port; return this; }
        public Request header(String name, String value) { headers.add(new String[] {name, value}); return this; }
        public Request attribute(String name, String value) { attributes.add(new String[] {name, value}); return this; }
        public Request secret(String secret) { this.secret = secret; return this; }

        /** The client reached the front end over TLS, with these details (any may be null / -1). */
        public Request ssl(String protocol, String cipher, String session, int keySize, String certificatePem) {
            this.ssl = true;
            this.sslCipher = cipher;
            this.sslSession = session;
            this.sslKeySize = keySize;
            this.sslCertificate = certificatePem;
            if (protocol != null) attribute("AJP_SSL_PROTOCOL", protocol);
            return this;
        }

        /** A body of declared length: a Content-Length header and the first chunk sent unasked. */
        public Request body(byte[] body) {
            this.body = body;
            this.chunked = false;
            return header("Content-Length", Integer.toString(body.length));
        }

        /**
         * A body that ends early, as a front end passes on an upload its client cut short: a
         * Content-Length of {@code declaredLength}, then only {@code body} (the first chunk unasked),
         * then an empty chunk when asked for more.
         */
        public Request truncatedBody(byte[] body, long declaredLength) {
            this.body = body;
            this.chunked = false;
            return header("Content-Length", Long.toString(declaredLength));
        }

        /** A body of unknown length, as a chunked upload: sent only when asked, ended by an empty chunk. */
        public Request chunkedBody(byte[] body) {
            this.body = body;
            this.chunked = true;
            return header("Transfer-Encoding", "chunked");
        }

        /** The forward-request packet, header included. */
        public byte[] packet() {
            Writer w = new Writer();
            w.byte8(2);
            int code = METHODS.indexOf(method);
            w.byte8(code > 0 ? code : 0xFF);
            w.string(protocol);
            w.string(uri);
            w.string(remoteAddress);
            w.string(remoteAddress);
            w.string(serverName);
            w.int16(serverPort);
            w.byte8(ssl ? 1 : 0);
            w.int16(headers.size());
            for (String[] h : headers) {
                w.string(h[0]); // names as strings: the backend must read both forms; coded ones come from real front ends
                w.string(h[1]);
            }
            if (query != null) { w.byte8(0x05); w.string(query); }
            if (sslCipher != null) { w.byte8(0x08); w.string(sslCipher); }
            if (sslSession != null) { w.byte8(0x09); w.string(sslSession); }
            if (sslKeySize >= 0) { w.byte8(0x0B); w.int16(sslKeySize); }
            if (sslCertificate != null) { w.byte8(0x07); w.string(sslCertificate); }
            if (secret != null) { w.byte8(0x0C); w.string(secret); }
            if (code <= 0) { w.byte8(0x0D); w.string(method); }
            if (remotePort >= 0) { w.byte8(0x0A); w.string("AJP_REMOTE_PORT"); w.string(Integer.toString(remotePort)); }
            for (String[] a : attributes) { w.byte8(0x0A); w.string(a[0]); w.string(a[1]); }
            w.byte8(0xFF);
            return w.packet();
        }
    }

    /**
     * A response read up to its end-response.
     *
     * @param status the status code
     * @param reason the reason phrase
     * @param headers the headers in order
     * @param body the body bytes of every chunk
     * @param reuse whether the end-response allowed another request on the connection
     * @param bodyRequests how many get-body-chunk packets the backend sent
     * @param chunks how many body chunk packets the backend sent
     */
    public record Response(int status, String reason, List<Map.Entry<String, String>> headers, byte[] body, boolean reuse,
                           int bodyRequests, int chunks) {
        /** The first value of a header, case-insensitive, or null. */
        public String header(String name) {
            for (Map.Entry<String, String> h : headers) {
                if (h.getKey().equalsIgnoreCase(name)) return h.getValue();
            }
            return null;
        }

        /** The body as UTF-8. */
        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private static final class Writer {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        void byte8(int b) { bytes.write(b); }
        void int16(int v) { bytes.write(v >>> 8); bytes.write(v & 0xFF); }

        void string(String s) {
            if (s == null) { int16(0xFFFF); return; }
            byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
            int16(b.length);
            bytes.write(b, 0, b.length);
            bytes.write(0);
        }

        byte[] packet() {
            byte[] payload = bytes.toByteArray();
            byte[] packet = new byte[payload.length + 4];
            packet[0] = 0x12;
            packet[1] = 0x34;
            packet[2] = (byte) (payload.length >>> 8);
            packet[3] = (byte) payload.length;
            System.arraycopy(payload, 0, packet, 4, payload.length);
            return packet;
        }
    }

    private static final class Reader {
        private final byte[] bytes;
        private int pos;

        Reader(byte[] bytes, int pos) { this.bytes = bytes; this.pos = pos; }
        int peek() { return bytes[pos] & 0xFF; }
        int int16() { int v = ((bytes[pos] & 0xFF) << 8) | (bytes[pos + 1] & 0xFF); pos += 2; return v; }

        String string() {
            int length = int16();
            if (length == 0xFFFF) return null;
            String s = new String(bytes, pos, length, StandardCharsets.ISO_8859_1);
            pos += length + 1;
            return s;
        }
    }
}
