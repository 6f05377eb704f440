package dev.petrel.ajp;

import dev.petrel.http.Decimal;
import dev.petrel.http.HttpChars;
import dev.petrel.http.HttpError;
import dev.petrel.http.HttpLimits;
import dev.petrel.http.HttpVersion;
import java.nio.charset.StandardCharsets;

/**
 * Decodes an AJP forward-request packet into an {@link AjpRequestHead}: method code, protocol,
 * URI, client address, server name and port, TLS flag, header fields (names encoded as
 * {@code 0xA0xx} codes or as strings), then the attributes up to {@code 0xFF}.
 *
 * <p>A packet that is cut short, names an unknown method, header or attribute code, declares its
 * body length twice or not as digits, or carries a URI with control characters is refused with a
 * {@code 400} (a protocol other than HTTP/1.x with a {@code 505}): the same answers the HTTP
 * codec gives, since the front end only relays what a client sent. One parser per connection; its
 * head is reused.
 */
public final class ForwardRequestParser {
    // attribute codes
    private static final int CONTEXT = 0x01;
    private static final int SERVLET_PATH = 0x02;
    private static final int REMOTE_USER = 0x03;
    private static final int AUTH_TYPE = 0x04;
    private static final int QUERY_STRING = 0x05;
    private static final int ROUTE = 0x06;
    private static final int SSL_CERT = 0x07;
    private static final int SSL_CIPHER = 0x08;
    private static final int SSL_SESSION = 0x09;
    private static final int REQ_ATTRIBUTE = 0x0A;
    private static final int SSL_KEY_SIZE = 0x0B;
    private static final int SECRET = 0x0C;
    private static final int STORED_METHOD = 0x0D;
    private static final int ARE_DONE = 0xFF;

    private static final byte[] CONTENT_LENGTH = "content-length".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRANSFER_ENCODING = "transfer-encoding".getBytes(StandardCharsets.US_ASCII);

    private final HttpLimits limits;
    private final PayloadReader in = new PayloadReader();
    private final AjpRequestHead head = new AjpRequestHead();

    /** A parser enforcing {@code limits}' header count and body size. */
    public ForwardRequestParser(HttpLimits limits) {
        this.limits = limits;
    }

    /** The head of the last packet parsed: complete when {@link #parse} returned {@code null}, partial after a refusal. */
    public AjpRequestHead head() {
        return head;
    }

    /**
     * Decodes the forward-request payload at {@code offset} (its first byte is the message type,
     * {@link AjpPackets#FORWARD_REQUEST}).
     *
     * @return {@code null} when {@link #head()} holds the request, else why it was refused
     */
    public HttpError parse(byte[] payload, int offset, int length) {
        head.reset();
        in.reset(payload, offset, length);
        if (in.readByte() != AjpPackets.FORWARD_REQUEST) throw new IllegalArgumentException("not a forward-request packet");
        int methodCode = in.readByte();
        if (methodCode != AjpCodes.STORED_METHOD) {
            head.method = AjpCodes.method(methodCode);
            if (head.method == null) return bad("Unknown AJP method code");
        }
        String protocol = in.readString();
        head.uri = in.readString();
        head.remoteAddress = in.readString();
        head.remoteHost = in.readString();
        head.serverName = in.readString();
        head.serverPort = in.readInt();
        head.ssl = in.readByte() != 0;
        if (in.overrun()) return truncated();
        HttpError error = headers(in.readInt());
        if (error != null) return error;
        error = attributes();
        if (error != null) return error;
        if (head.method == null) return bad("AJP stored method missing");
        if (head.uri == null || !validUri(head.uri)) return bad("Invalid request URI");
        if ("HTTP/1.1".equals(protocol)) {
            head.version = HttpVersion.HTTP_1_1;
        } else if ("HTTP/1.0".equals(protocol)) {
            head.version = HttpVersion.HTTP_1_0;
        } else {
            return new HttpError(505, "Only HTTP/1.1 and HTTP/1.0 are supported");
        }
        head.complete();
        return null;
    }

    private HttpError headers(int count) {
        if (count > limits.maxHeaderCount()) return new HttpError(431, "Too many header fields");
        boolean lengthSeen = false;
        for (int i = 0; i < count; i++) {
            byte[] bytes = in.bytes();
            int nameOffset;
            int nameLength;
            byte[] codedName = null;
            if (in.peekByte() == 0xA0) {
                in.readByte();
                int code = in.readByte();
                if (in.overrun()) return truncated();
                codedName = AjpCodes.requestHeader(code);
                if (codedName == null) return bad("Unknown AJP header code");
                nameOffset = 0;
                nameLength = codedName.length;
            } else {
                nameLength = in.skipString();
                if (nameLength <= 0) return in.overrun() ? truncated() : bad("Empty header name");
                nameOffset = in.position() - nameLength - 1;
            }
            int valueLength = in.skipString();
            if (in.overrun()) return truncated();
            int valueOffset = valueLength < 0 ? 0 : in.position() - valueLength - 1;
            if (valueLength < 0) valueLength = 0;
            if (codedName != null) head.headers.add(codedName, bytes, valueOffset, valueLength);
            else head.headers.add(bytes, nameOffset, nameLength, valueOffset, valueLength);

            byte[] name = codedName != null ? codedName : bytes;
            int nameAt = codedName != null ? 0 : nameOffset;
            if (equalsIgnoreCase(name, nameAt, nameLength, CONTENT_LENGTH)) {
                long declared = contentLength(bytes, valueOffset, valueLength);
                if (declared < 0) return bad("Invalid Content-Length");
                if (lengthSeen && declared != head.contentLength) return bad("Conflicting Content-Length values");
                lengthSeen = true;
                head.contentLength = declared;
            } else if (equalsIgnoreCase(name, nameAt, nameLength, TRANSFER_ENCODING)) {
                head.chunked = true; // the front end has removed the coding: what arrives is data of unknown length
            }
        }
        if (lengthSeen) head.chunked = false; // a declared length is what the front end sends
        if (head.contentLength > limits.maxBodySize()) return new HttpError(413, "Request body larger than the limit");
        return null;
    }

    private HttpError attributes() {
        while (true) {
            int code = in.readByte();
            if (in.overrun()) return truncated();
            switch (code) {
                case ARE_DONE -> {
                    return null;
                }
                case CONTEXT, SERVLET_PATH -> in.skipString(); // unused since mod_jk 1.2: the URI says it all
                case REMOTE_USER -> head.remoteUser = in.readString();
                case AUTH_TYPE -> head.authType = in.readString();
                case QUERY_STRING -> head.query = in.readString();
                case ROUTE -> head.route = in.readString();
                case SSL_CERT -> head.sslCertificate = in.readString();
                case SSL_CIPHER -> head.sslCipher = in.readString();
                case SSL_SESSION -> head.sslSession = in.readString();
                case SSL_KEY_SIZE -> head.sslKeySize = in.readInt();
                case SECRET -> head.secret = in.readString();
                case STORED_METHOD -> {
                    String method = in.readString();
                    if (method == null && in.overrun()) return truncated();
                    if (method == null || !isToken(method)) return bad("Invalid AJP stored method");
                    head.method = method;
                }
                case REQ_ATTRIBUTE -> {
                    String name = in.readString();
                    String value = in.readString();
                    if (name == null) return in.overrun() ? truncated() : bad("AJP request attribute without a name");
                    head.attributeNames.add(name);
                    head.attributeValues.add(value == null ? "" : value);
                }
                // the value's type, and so its length, is unknown: nothing after it can be read
                default -> {
                    return bad("Unknown AJP attribute code");
                }
            }
            if (in.overrun()) return truncated();
        }
    }

    private static boolean validUri(String uri) {
        if (uri.isEmpty()) return false;
        if (uri.charAt(0) != '/' && !uri.equals("*")) return false;
        for (int i = 0; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c <= 0x20 || c == 0x7F) return false;
        }
        return true;
    }

    private static boolean isToken(String s) {
        if (s.isEmpty()) return false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x80 || !HttpChars.isTchar(c)) return false;
        }
        return true;
    }

    /** A Content-Length value, {@code 1*DIGIT} with whitespace around it (as front ends pass it on), or -1. */
    private static long contentLength(byte[] bytes, int offset, int length) {
        int start = offset;
        int end = offset + length;
        while (start < end && HttpChars.isOws(bytes[start])) start++;
        while (end > start && HttpChars.isOws(bytes[end - 1])) end--;
        return Decimal.parse(bytes, start, end);
    }

    private static boolean equalsIgnoreCase(byte[] bytes, int offset, int length, byte[] lower) {
        if (length != lower.length) return false;
        for (int i = 0; i < length; i++) {
            int b = bytes[offset + i];
            if (b >= 'A' && b <= 'Z') b += 'a' - 'A';
            if (b != lower[i]) return false;
        }
        return true;
    }

    private static HttpError truncated() {
        return new HttpError(400, "AJP forward request cut short");
    }

    private static HttpError bad(String reason) {
        return new HttpError(400, reason);
    }
}
