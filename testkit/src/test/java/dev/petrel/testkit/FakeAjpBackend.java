package dev.petrel.testkit;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tiny AJP/1.3 backend for the kit's own tests: it answers every FORWARD_REQUEST with 200, one
 * Content-Type header and the body {@code "backend saw " + uri}, answers CPING with CPONG, and
 * records what it was sent. A query {@code size=N} makes the body N bytes of 'x' in a single
 * SEND_BODY_CHUNK, to see the packet size httpd accepts; {@code sleep=MS} answers that late, to
 * have a request in flight. Requests with a body are not supported:
 * a GET or HEAD is all these tests send.
 *
 * <p>Written from the protocol description (Tomcat's "AJPv13" reference and httpd's mod_proxy_ajp
 * page), not from an implementation.
 */
final class FakeAjpBackend implements AutoCloseable {

    /** One request attribute: code, name (only for 0x0A req_attribute, else the code's name) and value. */
    record Attribute(int code, String name, String value) {
        @Override
        public String toString() {
            return String.format("0x%02X %s=%s", code, name, value);
        }
    }

    /** What one FORWARD_REQUEST carried. */
    record Forward(String method, String protocol, String uri, String remoteAddr, String remoteHost,
                   String serverName, int serverPort, boolean ssl, Map<String, String> headers,
                   List<Attribute> attributes) {
        /** The 0x0C secret attribute, or null if none was sent. */
        String secret() {
            return attributes.stream().filter(a -> a.code() == 0x0C).map(Attribute::value).findFirst().orElse(null);
        }

        /** The value of a 0x0A req_attribute, or of a coded attribute by its name, or null. */
        String attribute(String name) {
            return attributes.stream().filter(a -> a.name().equals(name)).map(Attribute::value).findFirst().orElse(null);
        }

        String describe() {
            StringBuilder b = new StringBuilder();
            b.append(method).append(' ').append(uri).append(' ').append(protocol)
                    .append("\n  remote_addr=").append(remoteAddr).append(" remote_host=").append(remoteHost)
                    .append(" server_name=").append(serverName).append(" server_port=").append(serverPort)
                    .append(" is_ssl=").append(ssl)
                    .append("\n  headers: ").append(headers)
                    .append("\n  attributes:");
            for (Attribute a : attributes) b.append("\n    ").append(a);
            return b.toString();
        }
    }

    private static final String[] METHODS = {null, "OPTIONS", "GET", "HEAD", "POST", "PUT", "DELETE", "TRACE",
        "PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "ACL", "REPORT", "VERSION-CONTROL",
        "CHECKIN", "CHECKOUT", "UNCHECKOUT", "SEARCH", "MKWORKSPACE", "UPDATE", "LABEL", "MERGE",
        "BASELINE-CONTROL", "MKACTIVITY"};
    private static final String[] HEADERS = {null, "accept", "accept-charset", "accept-encoding", "accept-language",
        "authorization", "connection", "content-type", "content-length", "cookie", "cookie2", "host", "pragma",
        "referer", "user-agent"};
    private static final String[] ATTRIBUTES = {null, "context", "servlet_path", "remote_user", "auth_type",
        "query_string", "route", "ssl_cert", "ssl_cipher", "ssl_session", "req_attribute", "ssl_key_size",
        "secret", "stored_method"};

    private final ServerSocket server;
    private final Thread acceptor;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final List<Forward> forwards = new CopyOnWriteArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger closedByPeer = new AtomicInteger();
    private final AtomicInteger cpings = new AtomicInteger();
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();

    FakeAjpBackend() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.ofLiteral("127.0.0.1"));
        acceptor = Thread.ofVirtual().name("fake-ajp-accept").start(this::acceptLoop);
    }

    int port() {
        return server.getLocalPort();
    }

    List<Forward> forwards() {
        return List.copyOf(forwards);
    }

    int accepted() {
        return accepted.get();
    }

    /** Connections that httpd closed (EOF seen). */
    int closedByPeer() {
        return closedByPeer.get();
    }

    int cpings() {
        return cpings.get();
    }

    /** Protocol errors seen (malformed packets): the tests expect none. */
    List<Throwable> errors() {
        return List.copyOf(errors);
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : open) s.close();
        try {
            acceptor.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            accepted.incrementAndGet();
            open.add(s);
            Thread.ofVirtual().name("fake-ajp-conn").start(() -> serve(s));
        }
    }

    private void serve(Socket s) {
        try (s; InputStream raw = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            DataInputStream in = new DataInputStream(raw);
            while (true) {
                int b1 = in.read();
                if (b1 < 0) {
                    closedByPeer.incrementAndGet();
                    return;
                }
                int b2 = in.readUnsignedByte();
                if (b1 != 0x12 || b2 != 0x34) throw new IOException(String.format("bad magic %02X %02X", b1, b2));
                byte[] payload = new byte[in.readUnsignedShort()];
                in.readFully(payload);
                if (payload.length == 0) continue; // an empty body packet: nothing to do
                ByteBuffer p = ByteBuffer.wrap(payload);
                int type = p.get() & 0xFF;
                switch (type) {
                    case 2 -> {
                        Forward f = parseForward(p);
                        forwards.add(f);
                        String query = f.attribute("query_string");
                        if (query != null && query.startsWith("sleep=")) {
                            try {
                                Thread.sleep(Long.parseLong(query.substring(6)));
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                        respond(out, f);
                    }
                    case 10 -> {
                        cpings.incrementAndGet();
                        out.write(packet(new byte[] {9})); // CPONG
                        out.flush();
                    }
                    default -> { } // 7 = SHUTDOWN and others: ignored, as a careful container would
                }
            }
        } catch (EOFException e) {
            closedByPeer.incrementAndGet();
        } catch (SocketException e) {
            // reset by httpd (e.g. its children killed), or closed by close(): not a protocol error
            closedByPeer.incrementAndGet();
        } catch (IOException | RuntimeException e) {
            errors.add(e);
        } finally {
            open.remove(s);
        }
    }

    private static Forward parseForward(ByteBuffer p) {
        int m = p.get() & 0xFF;
        String method = m < METHODS.length && METHODS[m] != null ? METHODS[m] : "method#" + m;
        String protocol = string(p);
        String uri = string(p);
        String remoteAddr = string(p);
        String remoteHost = string(p);
        String serverName = string(p);
        int serverPort = p.getShort() & 0xFFFF;
        boolean ssl = p.get() != 0;
        int n = p.getShort() & 0xFFFF;
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            int mark = p.getShort(p.position()) & 0xFFFF;
            String name;
            if ((mark & 0xFF00) == 0xA000) {
                p.getShort();
                int code = mark & 0xFF;
                name = code < HEADERS.length ? HEADERS[code] : String.format("header#%04X", mark);
            } else {
                name = string(p);
            }
            headers.put(name, string(p));
        }
        List<Attribute> attributes = new ArrayList<>();
        while (true) {
            int code = p.get() & 0xFF;
            if (code == 0xFF) break;
            if (code == 0x0A) {
                String name = string(p);
                attributes.add(new Attribute(code, name, string(p)));
            } else {
                String name = code < ATTRIBUTES.length ? ATTRIBUTES[code] : "attribute#" + code;
                attributes.add(new Attribute(code, name, string(p)));
            }
        }
        return new Forward(method, protocol, uri, remoteAddr, remoteHost, serverName, serverPort, ssl, headers,
                List.copyOf(attributes));
    }

    /** An AJP string: 2-byte length, bytes, a 0 terminator; length 0xFFFF is null (no bytes follow). */
    private static String string(ByteBuffer p) {
        int len = p.getShort() & 0xFFFF;
        if (len == 0xFFFF) return null;
        byte[] b = new byte[len];
        p.get(b);
        if (p.get() != 0) throw new IllegalStateException("string not terminated by 0");
        return new String(b, StandardCharsets.UTF_8);
    }

    private static void respond(OutputStream out, Forward f) throws IOException {
        byte[] body = body(f);
        ByteArrayOutputStream h = new ByteArrayOutputStream();
        h.write(4); // SEND_HEADERS
        writeShort(h, 200);
        writeString(h, "OK");
        writeShort(h, 1);
        writeShort(h, 0xA001); // Content-Type
        writeString(h, "text/plain");
        out.write(packet(h.toByteArray()));
        if (!f.method().equals("HEAD")) {
            ByteArrayOutputStream c = new ByteArrayOutputStream();
            c.write(3); // SEND_BODY_CHUNK
            writeShort(c, body.length);
            c.write(body);
            c.write(0);
            out.write(packet(c.toByteArray()));
        }
        out.write(packet(new byte[] {5, 1})); // END_RESPONSE, reuse
        out.flush();
    }

    private static byte[] body(Forward f) {
        String query = f.attribute("query_string");
        if (query != null && query.startsWith("size=")) {
            return "x".repeat(Integer.parseInt(query.substring(5))).getBytes(StandardCharsets.US_ASCII);
        }
        return ("backend saw " + f.uri()).getBytes(StandardCharsets.UTF_8);
    }

    /** A container-to-server packet: 'A' 'B', 2-byte length, payload. */
    private static byte[] packet(byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(4 + payload.length);
        b.put((byte) 'A').put((byte) 'B').putShort((short) payload.length).put(payload);
        return b.array();
    }

    private static void writeShort(ByteArrayOutputStream o, int v) {
        o.write(v >> 8);
        o.write(v);
    }

    private static void writeString(ByteArrayOutputStream o, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        writeShort(o, b.length);
        o.write(b, 0, b.length);
        o.write(0);
    }
}
