package dev.petrel.server.proxy;

import dev.petrel.http.HttpError;
import dev.petrel.http.ParseStatus;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Parses the PROXY protocol header (HAProxy's proxy-protocol.txt, versions 1 and 2) a proxy
 * sends before the client's bytes, pure over bytes like the HTTP codec: fed what has arrived, it
 * says {@link ParseStatus#NEED_MORE}, {@link ParseStatus#COMPLETE} (the buffer is then positioned
 * at the first byte after the header) or {@link ParseStatus#ERROR} (see {@link #error()}).
 *
 * <p>Strict: v1 is {@code PROXY TCP4|TCP6|UNKNOWN}, single spaces, addresses of the family named,
 * ports 0 to 65535 without leading zeros, CRLF, at most 107 bytes. v2 has its 12-byte signature,
 * version 2, the {@code LOCAL} or {@code PROXY} command, a length that fits the family's addresses
 * and at most {@link #MAX_V2_LENGTH} bytes in all; its TLS fields are read, any other TLV is
 * skipped. A v2 header for another transport than a stream, or a v1 header for a family it does
 * not name, is refused: the bytes behind it would not be what the protocol expects.
 */
public final class ProxyHeaderParser {
    /** The longest v1 header, CRLF included, as the specification bounds it. */
    static final int MAX_V1_LENGTH = 107;
    /** The longest v2 header accepted, signature included: far more than addresses and TLS fields need. */
    public static final int MAX_V2_LENGTH = 4096;
    private static final byte[] V1_START = "PROXY ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] V2_SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};
    private static final int V2_FIXED = 16;
    private static final int PP2_TYPE_SSL = 0x20;
    private static final int PP2_SUBTYPE_SSL_VERSION = 0x21;
    private static final int PP2_SUBTYPE_SSL_CIPHER = 0x23;
    private static final int PP2_CLIENT_SSL = 0x01;

    private final byte[] header = new byte[MAX_V2_LENGTH];
    private int length;
    private ProxyHeader result;
    private HttpError error;

    /** Forgets the last header. */
    public void reset() {
        length = 0;
        result = null;
        error = null;
    }

    /** The header, after {@link ParseStatus#COMPLETE}. */
    public ProxyHeader header() {
        return result;
    }

    /** Why the bytes were refused, after {@link ParseStatus#ERROR}; the reason never quotes them. */
    public HttpError error() {
        return error;
    }

    /** Takes in bytes from {@code in} toward the header, never past its end. */
    public ParseStatus parse(ByteBuffer in) {
        if (result != null) return ParseStatus.COMPLETE;
        if (error != null) return ParseStatus.ERROR;
        while (in.hasRemaining()) {
            if (length < V2_SIGNATURE.length) {
                byte b = in.get();
                header[length++] = b;
                if (!startsAsV1OrV2()) return fail("not a PROXY protocol header");
                if (length == V1_START.length && isV1()) return parseV1(in);
                continue;
            }
            if (isV1()) return parseV1(in);
            return parseV2(in);
        }
        return ParseStatus.NEED_MORE;
    }

    /** Whether what was taken in so far can still begin a v1 or a v2 header. */
    private boolean startsAsV1OrV2() {
        return startsAs(V1_START) || startsAs(V2_SIGNATURE);
    }

    private boolean startsAs(byte[] start) {
        for (int i = 0; i < Math.min(length, start.length); i++) {
            if (header[i] != start[i]) return false;
        }
        return true;
    }

    private boolean isV1() {
        return length >= V1_START.length && startsAs(V1_START);
    }

    // ---- version 1 ----

    private ParseStatus parseV1(ByteBuffer in) {
        while (in.hasRemaining()) {
            byte b = in.get();
            if (length == MAX_V1_LENGTH) return fail("PROXY v1 header longer than 107 bytes");
            header[length++] = b;
            if (b == '\n') {
                if (length < 2 || header[length - 2] != '\r') return fail("PROXY v1 header not ended by CRLF");
                return v1Line(new String(header, 0, length - 2, StandardCharsets.US_ASCII));
            }
        }
        return ParseStatus.NEED_MORE;
    }

    private ParseStatus v1Line(String line) {
        String[] parts = line.split(" ", -1);
        if (parts.length >= 2 && parts[1].equals("UNKNOWN")) return complete(ProxyHeader.LOCAL); // the rest is ignored, as specified
        if (parts.length != 6) return fail("PROXY v1 header with the wrong number of fields");
        boolean v6;
        if (parts[1].equals("TCP4")) v6 = false;
        else if (parts[1].equals("TCP6")) v6 = true;
        else return fail("PROXY v1 header for an unknown protocol");
        InetAddress source = literal(parts[2], v6);
        InetAddress destination = literal(parts[3], v6);
        int sourcePort = port(parts[4]);
        int destinationPort = port(parts[5]);
        if (source == null || destination == null) return fail("PROXY v1 header with an invalid address");
        if (sourcePort < 0 || destinationPort < 0) return fail("PROXY v1 header with an invalid port");
        return complete(new ProxyHeader(new InetSocketAddress(source, sourcePort), new InetSocketAddress(destination, destinationPort),
                false, null, null));
    }

    /** An IP literal of the family given, never looked up; null when it is not one. */
    private static InetAddress literal(String text, boolean v6) {
        if (text.isEmpty() || text.length() > 45) return null;
        if (!v6 && !text.matches("(0|[1-9][0-9]{0,2})(\\.(0|[1-9][0-9]{0,2})){3}")) return null;
        if (v6 && (!text.contains(":") || !text.matches("[0-9a-fA-F:.]+"))) return null;
        try {
            InetAddress address = InetAddress.ofLiteral(text);
            return (address.getAddress().length == 16) == v6 ? address : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static int port(String text) {
        if (text.isEmpty() || text.length() > 5 || (text.length() > 1 && text.charAt(0) == '0')) return -1;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') return -1;
        }
        int port = Integer.parseInt(text);
        return port <= 65535 ? port : -1;
    }

    // ---- version 2 ----

    private ParseStatus parseV2(ByteBuffer in) {
        while (in.hasRemaining() && length < V2_FIXED) header[length++] = in.get();
        if (length < V2_FIXED) return ParseStatus.NEED_MORE;
        int total = V2_FIXED + (((header[14] & 0xFF) << 8) | (header[15] & 0xFF));
        if (total > MAX_V2_LENGTH) return fail("PROXY v2 header longer than " + MAX_V2_LENGTH + " bytes");
        int take = Math.min(total - length, in.remaining());
        in.get(header, length, take);
        length += take;
        if (length < total) return ParseStatus.NEED_MORE;
        return v2Header(total);
    }

    private ParseStatus v2Header(int total) {
        int versionCommand = header[12] & 0xFF;
        if (versionCommand >>> 4 != 2) return fail("PROXY v2 header of another version");
        int command = versionCommand & 0x0F;
        if (command > 1) return fail("PROXY v2 header with an unknown command");
        int family = (header[13] & 0xFF) >>> 4;
        int transport = header[13] & 0x0F;
        int addressLength = switch (family) {
            case 1 -> 12;  // INET
            case 2 -> 36;  // INET6
            case 3 -> 216; // UNIX
            default -> 0;  // UNSPEC
        };
        if (family > 3) return fail("PROXY v2 header with an unknown address family");
        if (V2_FIXED + addressLength > total) return fail("PROXY v2 header too short for its addresses");
        boolean tls = false;
        String version = null;
        String cipher = null;
        int at = V2_FIXED + addressLength;
        while (at < total) { // TLVs
            if (total - at < 3) return fail("PROXY v2 header with a truncated TLV");
            int type = header[at] & 0xFF;
            int tlvLength = ((header[at + 1] & 0xFF) << 8) | (header[at + 2] & 0xFF);
            int value = at + 3;
            if (value + tlvLength > total) return fail("PROXY v2 header with a TLV longer than the header");
            if (type == PP2_TYPE_SSL) {
                if (tlvLength < 5) return fail("PROXY v2 header with a truncated TLS field");
                tls = (header[value] & PP2_CLIENT_SSL) != 0;
                int sub = value + 5;
                while (sub < value + tlvLength) {
                    if (value + tlvLength - sub < 3) return fail("PROXY v2 header with a truncated TLS field");
                    int subType = header[sub] & 0xFF;
                    int subLength = ((header[sub + 1] & 0xFF) << 8) | (header[sub + 2] & 0xFF);
                    if (sub + 3 + subLength > value + tlvLength) return fail("PROXY v2 header with a truncated TLS field");
                    String text = new String(header, sub + 3, subLength, StandardCharsets.US_ASCII);
                    if (subType == PP2_SUBTYPE_SSL_VERSION) version = text;
                    if (subType == PP2_SUBTYPE_SSL_CIPHER) cipher = text;
                    sub += 3 + subLength;
                }
            }
            at = value + tlvLength;
        }
        if (command == 0) return complete(ProxyHeader.LOCAL); // the proxy's own connection, e.g. a health check
        if (transport != 1 && family != 0) return fail("PROXY v2 header for another transport than a stream");
        if (family == 0 || family == 3) return complete(new ProxyHeader(null, null, tls, version, cipher));
        try {
            int size = family == 1 ? 4 : 16;
            InetAddress source = InetAddress.getByAddress(java.util.Arrays.copyOfRange(header, V2_FIXED, V2_FIXED + size));
            InetAddress destination = InetAddress.getByAddress(java.util.Arrays.copyOfRange(header, V2_FIXED + size, V2_FIXED + 2 * size));
            int ports = V2_FIXED + 2 * size;
            int sourcePort = ((header[ports] & 0xFF) << 8) | (header[ports + 1] & 0xFF);
            int destinationPort = ((header[ports + 2] & 0xFF) << 8) | (header[ports + 3] & 0xFF);
            return complete(new ProxyHeader(new InetSocketAddress(source, sourcePort), new InetSocketAddress(destination, destinationPort),
                    tls, version, cipher));
        } catch (UnknownHostException e) {
            return fail("PROXY v2 header with an invalid address"); // never: the lengths are fixed
        }
    }

    private ParseStatus complete(ProxyHeader header) {
        result = header;
        return ParseStatus.COMPLETE;
    }

    private ParseStatus fail(String reason) {
        if (error == null) error = new HttpError(400, reason);
        return ParseStatus.ERROR;
    }
}
