package dev.petrel.ajp;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes AJP/1.3 forward-request packets the way the front ends do (mod_jk, mod_proxy_ajp), for
 * tests only. Written from the protocol description, independently of the codec under test:
 *
 * <pre>
 * 0x12 0x34  payload length (int)
 * 0x02 method-code (byte)
 * protocol, req_uri, remote_addr, remote_host, server_name (string)
 * server_port (int)  is_ssl (boolean)
 * num_headers (int)  then per header: name (0xA0 code byte, or string), value (string)
 * attributes: code (byte) and its value, in the order added, then 0xFF
 * </pre>
 *
 * An int is two bytes, high first; a string is an int length, the bytes, and a NUL, or the length
 * {@code 0xFFFF} and nothing else when absent ({@code null} here). Strings are written as
 * ISO-8859-1, so obs-text characters become single bytes.
 */
final class ForwardRequestBuilder {
    // method codes (the front ends' table; 0xFF means the name follows as attribute 0x0D)
    static final int OPTIONS = 1;
    static final int GET = 2;
    static final int HEAD = 3;
    static final int POST = 4;
    static final int PUT = 5;
    static final int STORED_METHOD = 0xFF;

    /** The method named by each code 1..27, index = code. */
    static final List<String> METHOD_NAMES = List.of(
            "", "OPTIONS", "GET", "HEAD", "POST", "PUT", "DELETE", "TRACE", "PROPFIND", "PROPPATCH", "MKCOL", "COPY",
            "MOVE", "LOCK", "UNLOCK", "ACL", "REPORT", "VERSION-CONTROL", "CHECKIN", "CHECKOUT", "UNCHECKOUT",
            "SEARCH", "MKWORKSPACE", "UPDATE", "LABEL", "MERGE", "BASELINE-CONTROL", "MKACTIVITY");

    // request header codes
    static final int SC_ACCEPT = 0xA001;
    static final int SC_ACCEPT_CHARSET = 0xA002;
    static final int SC_ACCEPT_ENCODING = 0xA003;
    static final int SC_ACCEPT_LANGUAGE = 0xA004;
    static final int SC_AUTHORIZATION = 0xA005;
    static final int SC_CONNECTION = 0xA006;
    static final int SC_CONTENT_TYPE = 0xA007;
    static final int SC_CONTENT_LENGTH = 0xA008;
    static final int SC_COOKIE = 0xA009;
    static final int SC_COOKIE2 = 0xA00A;
    static final int SC_HOST = 0xA00B;
    static final int SC_PRAGMA = 0xA00C;
    static final int SC_REFERER = 0xA00D;
    static final int SC_USER_AGENT = 0xA00E;

    /** The header named by each code 0xA001..0xA00E, index = low byte. */
    static final List<String> HEADER_NAMES = List.of(
            "", "Accept", "Accept-Charset", "Accept-Encoding", "Accept-Language", "Authorization", "Connection",
            "Content-Type", "Content-Length", "Cookie", "Cookie2", "Host", "Pragma", "Referer", "User-Agent");

    // attribute codes
    static final int A_CONTEXT = 0x01;
    static final int A_SERVLET_PATH = 0x02;
    static final int A_REMOTE_USER = 0x03;
    static final int A_AUTH_TYPE = 0x04;
    static final int A_QUERY_STRING = 0x05;
    static final int A_ROUTE = 0x06;
    static final int A_SSL_CERT = 0x07;
    static final int A_SSL_CIPHER = 0x08;
    static final int A_SSL_SESSION = 0x09;
    static final int A_REQ_ATTRIBUTE = 0x0A;
    static final int A_SSL_KEY_SIZE = 0x0B;
    static final int A_SECRET = 0x0C;
    static final int A_STORED_METHOD = 0x0D;
    static final int A_ARE_DONE = 0xFF;

    private int methodCode = GET;
    private String protocol = "HTTP/1.1";
    private String uri = "/";
    private String remoteAddress = "192.0.2.10";
    private String remoteHost = "192.0.2.10";
    private String serverName = "www.example.com";
    private int serverPort = 80;
    private boolean ssl;
    private final Out headers = new Out();
    private int headerCount;
    private int declaredHeaderCount = -1;
    private final Out attributes = new Out();

    /** A GET of {@code /} over HTTP/1.1, no headers, no attributes. */
    ForwardRequestBuilder() {}

    ForwardRequestBuilder method(int code) {
        methodCode = code;
        return this;
    }

    /** A method without a code: code 0xFF, and the name as the stored_method attribute. */
    ForwardRequestBuilder storedMethod(String name) {
        methodCode = STORED_METHOD;
        return attribute(A_STORED_METHOD, name);
    }

    ForwardRequestBuilder protocol(String protocol) {
        this.protocol = protocol;
        return this;
    }

    ForwardRequestBuilder uri(String uri) {
        this.uri = uri;
        return this;
    }

    ForwardRequestBuilder remoteAddress(String address) {
        this.remoteAddress = address;
        return this;
    }

    ForwardRequestBuilder remoteHost(String host) {
        this.remoteHost = host;
        return this;
    }

    ForwardRequestBuilder serverName(String name) {
        this.serverName = name;
        return this;
    }

    ForwardRequestBuilder serverPort(int port) {
        this.serverPort = port;
        return this;
    }

    ForwardRequestBuilder ssl(boolean ssl) {
        this.ssl = ssl;
        return this;
    }

    /** A header as the front ends send it: the 14 common names (any case) as codes, others as strings. */
    ForwardRequestBuilder header(String name, String value) {
        int index = -1;
        for (int i = 1; i < HEADER_NAMES.size(); i++) {
            if (HEADER_NAMES.get(i).equalsIgnoreCase(name)) index = i;
        }
        return index > 0 ? codedHeader(0xA000 | index, value) : stringHeader(name, value);
    }

    /** A header whose name is the two-byte code {@code code} (0xA0xx); {@code null} value is absent. */
    ForwardRequestBuilder codedHeader(int code, String value) {
        headers.int16(code);
        headers.string(value);
        headerCount++;
        return this;
    }

    /** A header whose name is sent as a string, exactly as given; {@code null} name or value is absent. */
    ForwardRequestBuilder stringHeader(String name, String value) {
        headers.string(name);
        headers.string(value);
        headerCount++;
        return this;
    }

    /** A header of raw name and value bytes (each with its length and NUL). */
    ForwardRequestBuilder stringHeader(byte[] name, byte[] value) {
        headers.string(name);
        headers.string(value);
        headerCount++;
        return this;
    }

    /** Declares {@code count} headers whatever was added. */
    ForwardRequestBuilder headerCount(int count) {
        declaredHeaderCount = count;
        return this;
    }

    ForwardRequestBuilder context(String context) {
        return attribute(A_CONTEXT, context);
    }

    ForwardRequestBuilder servletPath(String path) {
        return attribute(A_SERVLET_PATH, path);
    }

    ForwardRequestBuilder remoteUser(String user) {
        return attribute(A_REMOTE_USER, user);
    }

    ForwardRequestBuilder authType(String type) {
        return attribute(A_AUTH_TYPE, type);
    }

    ForwardRequestBuilder queryString(String query) {
        return attribute(A_QUERY_STRING, query);
    }

    ForwardRequestBuilder route(String route) {
        return attribute(A_ROUTE, route);
    }

    ForwardRequestBuilder sslCert(String pem) {
        return attribute(A_SSL_CERT, pem);
    }

    ForwardRequestBuilder sslCipher(String cipher) {
        return attribute(A_SSL_CIPHER, cipher);
    }

    ForwardRequestBuilder sslSession(String session) {
        return attribute(A_SSL_SESSION, session);
    }

    /** The key size is the one attribute sent as an int, not a string. */
    ForwardRequestBuilder sslKeySize(int bits) {
        attributes.byte8(A_SSL_KEY_SIZE);
        attributes.int16(bits);
        return this;
    }

    ForwardRequestBuilder secret(String secret) {
        return attribute(A_SECRET, secret);
    }

    /** A named request attribute (req_attribute): code 0x0A, the name, the value. */
    ForwardRequestBuilder requestAttribute(String name, String value) {
        attributes.byte8(A_REQ_ATTRIBUTE);
        attributes.string(name);
        attributes.string(value);
        return this;
    }

    /** An attribute with a string value. */
    ForwardRequestBuilder attribute(int code, String value) {
        attributes.byte8(code);
        attributes.string(value);
        return this;
    }

    /** An attribute code followed by arbitrary bytes. */
    ForwardRequestBuilder rawAttribute(int code, int... bytes) {
        attributes.byte8(code);
        for (int b : bytes) attributes.byte8(b);
        return this;
    }

    /** The payload: message type, fields, headers, attributes and the terminating 0xFF. */
    byte[] payload() {
        Out out = new Out();
        out.byte8(AjpPackets.FORWARD_REQUEST);
        out.byte8(methodCode);
        out.string(protocol);
        out.string(uri);
        out.string(remoteAddress);
        out.string(remoteHost);
        out.string(serverName);
        out.int16(serverPort);
        out.byte8(ssl ? 1 : 0);
        out.int16(declaredHeaderCount >= 0 ? declaredHeaderCount : headerCount);
        out.bytes(headers.toByteArray());
        out.bytes(attributes.toByteArray());
        out.byte8(A_ARE_DONE);
        return out.toByteArray();
    }

    /** The whole packet: {@code 0x12 0x34}, the payload length, the payload. */
    byte[] packet() {
        return framed(payload());
    }

    /** A request body packet carrying {@code data}: the magic, the payload length, the data length, the data. */
    static byte[] bodyChunk(byte[] data) {
        Out out = new Out();
        out.int16(data.length);
        out.bytes(data);
        return framed(out.toByteArray());
    }

    /** {@code payload} framed as a packet from the front end. */
    static byte[] framed(byte[] payload) {
        Out out = new Out();
        out.byte8(0x12);
        out.byte8(0x34);
        out.int16(payload.length);
        out.bytes(payload);
        return out.toByteArray();
    }

    @Override
    public String toString() {
        return "forward-request method " + methodCode + " " + uri + " " + protocol;
    }

    /** AJP's data types, written big-endian. */
    private static final class Out extends ByteArrayOutputStream {
        void byte8(int b) {
            write(b & 0xFF);
        }

        void int16(int value) {
            write((value >>> 8) & 0xFF);
            write(value & 0xFF);
        }

        void bytes(byte[] bytes) {
            write(bytes, 0, bytes.length);
        }

        void string(String s) {
            string(s == null ? null : s.getBytes(StandardCharsets.ISO_8859_1));
        }

        void string(byte[] bytes) {
            if (bytes == null) {
                int16(0xFFFF);
                return;
            }
            int16(bytes.length);
            bytes(bytes);
            byte8(0);
        }
    }
}
