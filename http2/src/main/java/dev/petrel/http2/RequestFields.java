package dev.petrel.http2;

import dev.petrel.http.BodyFraming;
import dev.petrel.http.Decimal;
import dev.petrel.http.HeaderFields;
import dev.petrel.http.HttpChars;
import dev.petrel.http.HttpVersion;
import dev.petrel.http.Methods;
import dev.petrel.http.RecentText;
import dev.petrel.http.RequestHead;
import dev.petrel.http.TargetForm;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The field rules of RFC 9113 sections 8.2 and 8.3 for a request's header section or trailers,
 * checked field by field as the HPACK decoder hands them over. A section that breaks them is
 * <em>malformed</em>: the caller answers with a stream error of type {@code PROTOCOL_ERROR}
 * (section 8.1.1), and the connection goes on.
 *
 * <p>Use: {@link #reset(boolean)}, {@link #field} for each field in order (stop at the first
 * reason given), {@link #end()}, then read the pseudo-headers. What is refused:
 * <ul>
 *   <li>field names that are empty, hold upper-case letters or anything but token characters
 *       (section 8.2.1);</li>
 *   <li>values holding NUL, CR or LF, or starting or ending with SP or HTAB (section 8.2.1);</li>
 *   <li>connection-specific fields ({@code connection}, {@code keep-alive},
 *       {@code proxy-connection}, {@code transfer-encoding}, {@code upgrade}) and {@code te}
 *       with any value but {@code trailers}, compared without case (section 8.2.2);</li>
 *   <li>pseudo-headers other than {@code :method}, {@code :scheme}, {@code :authority},
 *       {@code :path} (and {@code :protocol} where the extended CONNECT of RFC 8441 is accepted);
 *       repeated, after a regular field, or in trailers (section 8.3);</li>
 *   <li>a {@code :method} that is not a token, a {@code :scheme} that is not a URI scheme;</li>
 *   <li>at the end: a missing {@code :method}; a {@code :protocol} on another method than
 *       CONNECT; for CONNECT with {@code :protocol} (RFC 8441 section 4) a missing {@code :scheme}
 *       or {@code :path}, then checked as any other request; for CONNECT without it a missing
 *       {@code :authority} or any {@code :scheme} or {@code :path} (section 8.5); otherwise a missing {@code :scheme} or
 *       {@code :path}, an empty {@code :path}, and for {@code http} and {@code https} a
 *       {@code :path} that neither starts with {@code /} nor is {@code *} on OPTIONS, or holds
 *       characters a request-target cannot, and an {@code :authority} with userinfo or such
 *       characters (section 8.3.1).</li>
 * </ul>
 * Both {@code host} and {@code :authority} may be present; which one wins is the server's choice.
 *
 * <p>Reasons are fixed texts that never quote the input. The pseudo-header values are copied into
 * a store kept from one section to the next, and Strings are made only at {@link #end()}.
 */
public final class RequestFields {
    private static final int METHOD = 0;
    private static final int SCHEME = 1;
    private static final int AUTHORITY = 2;
    private static final int PATH = 3;
    private static final int PROTOCOL = 4;
    private static final byte[][] PSEUDO_NAMES = names(":method", ":scheme", ":authority", ":path", ":protocol");
    private static final byte[][] CONNECTION_SPECIFIC = names("connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade");
    private static final byte[] TE = names("te")[0];
    private static final byte[] TRAILERS = names("trailers")[0];
    private static final byte[] HTTP = names("http")[0];
    private static final byte[] HTTPS = names("https")[0];
    /** Standard methods come back as the shared constants, so a common request allocates no method String. */
    private static final String[] KNOWN_METHODS = {Methods.GET, Methods.POST, Methods.HEAD, Methods.PUT, Methods.DELETE,
        Methods.OPTIONS, Methods.PATCH, Methods.CONNECT, Methods.TRACE};

    private final int[] start = new int[5];
    /** Each pseudo-header's value length, -1 while absent. */
    private final int[] length = new int[5];
    private final boolean extendedConnect; // :protocol is accepted: the server announced SETTINGS_ENABLE_CONNECT_PROTOCOL
    private final RecentText authorityText = new RecentText();
    private final RecentText pathText = new RecentText();
    private byte[] store = new byte[128];
    private int stored;
    private boolean trailers;
    private boolean regularSeen;
    private String method;
    private String scheme;
    private String authority;
    private String path;
    private String protocol;

    /** Ready for a request's header section; {@code :protocol} is refused as an unknown pseudo-header. */
    public RequestFields() {
        this(false);
    }

    /**
     * Ready for a request's header section.
     *
     * @param extendedConnect whether {@code :protocol} is accepted on CONNECT (RFC 8441): only
     *        where the server announced {@code SETTINGS_ENABLE_CONNECT_PROTOCOL}; elsewhere it makes
     *        the request malformed (RFC 8441 section 3)
     */
    public RequestFields(boolean extendedConnect) {
        this.extendedConnect = extendedConnect;
        reset(false);
    }

    /**
     * Starts a new section.
     *
     * @param trailers whether it is a trailer section, where no pseudo-header is allowed
     */
    public void reset(boolean trailers) {
        this.trailers = trailers;
        regularSeen = false;
        stored = 0;
        Arrays.fill(length, -1);
        method = null;
        scheme = null;
        authority = null;
        path = null;
        protocol = null;
    }

    /**
     * Checks one field as decoded and records it if a pseudo-header. The bytes need only be
     * valid during the call.
     *
     * @return null when fine, else a short fixed reason the section is malformed
     */
    public String field(byte[] name, int nameOffset, int nameLength, byte[] value, int valueOffset, int valueLength) {
        if (nameLength == 0) return "empty field name";
        String invalidValue = checkValue(value, valueOffset, valueLength);
        if (name[nameOffset] == ':') return pseudo(name, nameOffset, nameLength, value, valueOffset, valueLength, invalidValue);
        for (int i = nameOffset; i < nameOffset + nameLength; i++) {
            byte b = name[i];
            if (b >= 'A' && b <= 'Z') return "upper-case field name";
            if (!HttpChars.isTchar(b)) return "invalid character in field name";
        }
        for (byte[] banned : CONNECTION_SPECIFIC) {
            if (equals(name, nameOffset, nameLength, banned)) return "connection-specific field";
        }
        if (equals(name, nameOffset, nameLength, TE) && !equalsIgnoreCase(value, valueOffset, valueLength, TRAILERS)) {
            return "te other than trailers";
        }
        if (invalidValue != null) return invalidValue;
        regularSeen = true;
        return null;
    }

    /**
     * Checks what only the whole section shows, and makes the pseudo-headers' Strings.
     *
     * @return null when the section is well formed, else a short fixed reason it is malformed
     */
    public String end() {
        if (trailers) return null;
        if (length[METHOD] < 0) return "missing :method";
        method = methodText(store, start[METHOD], length[METHOD]);
        if (length[PROTOCOL] >= 0) {
            // RFC 8441 section 4: :protocol only on CONNECT, which then names its target as any request does
            if (!method.equals(Methods.CONNECT)) return ":protocol on a method other than CONNECT";
            if (length[SCHEME] < 0 || length[PATH] < 0) return "extended CONNECT without :scheme or :path";
            protocol = new String(store, start[PROTOCOL], length[PROTOCOL], StandardCharsets.ISO_8859_1);
        } else if (method.equals(Methods.CONNECT)) {
            // section 8.5
            if (length[AUTHORITY] < 0) return "CONNECT without :authority";
            if (length[SCHEME] >= 0 || length[PATH] >= 0) return "CONNECT with :scheme or :path";
            String invalid = checkAuthority(false);
            if (invalid != null) return invalid;
            authority = authorityText.of(store, start[AUTHORITY], length[AUTHORITY]);
            return null;
        }
        if (length[SCHEME] < 0) return "missing :scheme";
        if (length[PATH] < 0) return "missing :path";
        if (length[PATH] == 0) return "empty :path";
        boolean web = equalsIgnoreCase(store, start[SCHEME], length[SCHEME], HTTP)
                || equalsIgnoreCase(store, start[SCHEME], length[SCHEME], HTTPS);
        if (web) {
            String invalid = checkPath();
            if (invalid == null && length[AUTHORITY] >= 0) invalid = checkAuthority(true);
            if (invalid != null) return invalid;
        }
        scheme = schemeText(store, start[SCHEME], length[SCHEME]);
        path = pathText.of(store, start[PATH], length[PATH]);
        if (length[AUTHORITY] >= 0) authority = authorityText.of(store, start[AUTHORITY], length[AUTHORITY]);
        return null;
    }

    /** {@code :method}, after a successful {@link #end()}. */
    public String method() {
        return method;
    }

    /** {@code :scheme}, after a successful {@link #end()}; null for a CONNECT without {@code :protocol}. */
    public String scheme() {
        return scheme;
    }

    /** {@code :authority}, after a successful {@link #end()}; null when absent. */
    public String authority() {
        return authority;
    }

    /** {@code :path}, after a successful {@link #end()}; null for a CONNECT without {@code :protocol}. */
    public String path() {
        return path;
    }

    /** {@code :protocol} of an extended CONNECT (RFC 8441), after a successful {@link #end()}; null for any other request. */
    public String protocol() {
        return protocol;
    }

    /**
     * Fills {@code head} with the request this header section makes, after {@link #end()}, over
     * the section's regular {@code fields}: the target from {@code :path} (from {@code :authority}
     * for a CONNECT without {@code :protocol}), the {@linkplain RequestHead#connectProtocol
     * protocol} of an extended CONNECT, the host from {@code :authority} or else the {@code host} field (null when
     * neither came), the declared {@code content-length}, and the body's framing: none with
     * END_STREAM, else DATA frames, of the declared length or of unknown length.
     *
     * <p>It fills what it can even when the section was cut short at its size limit (a missing
     * {@code :method} is taken as GET, a missing {@code :path} as {@code /}), so that a request
     * refused for its size can still be answered and logged.
     *
     * @param endStream whether the HEADERS frame ended the stream
     * @return null, or a short fixed reason the request is malformed (section 8.1.1): an invalid
     *         or conflicting {@code content-length}, one above zero on a stream with no DATA, or
     *         an {@code :authority} and a {@code host} that differ
     */
    public String toHead(RequestHead head, HeaderFields fields, boolean endStream) {
        String requestMethod = method != null ? method : Methods.GET;
        if (Methods.CONNECT.equals(requestMethod) && protocol == null) {
            head.line(requestMethod, authority, TargetForm.AUTHORITY, null, null, HttpVersion.HTTP_2);
        } else {
            String target = path != null ? path : "/";
            int question = target.indexOf('?');
            String rawPath = question < 0 ? target : target.substring(0, question);
            String query = question < 0 ? null : target.substring(question + 1);
            TargetForm form = "*".equals(rawPath) ? TargetForm.ASTERISK : TargetForm.ORIGIN;
            head.line(requestMethod, target, form, rawPath, query, HttpVersion.HTTP_2);
            head.connectProtocol(protocol);
        }
        String host = authority;
        String hostField = fields.first("host");
        head.fields(fields, host != null ? host : hostField);
        long contentLength = -1;
        for (String value : fields.all("content-length")) {
            long parsed = Decimal.parse(value);
            if (parsed < 0 || (contentLength >= 0 && parsed != contentLength)) return "invalid content-length";
            contentLength = parsed;
        }
        // RFC 9110 section 10.1.1: the client waits for 100 (Continue) before it sends the body
        boolean expectContinue = !endStream && fields.containsToken("expect", "100-continue");
        BodyFraming framing = endStream ? BodyFraming.NONE : contentLength >= 0 ? BodyFraming.LENGTH : BodyFraming.FRAMED;
        head.body(framing, contentLength, expectContinue);
        if (endStream && contentLength > 0) return "content-length without DATA";
        if (host != null && hostField != null && !host.equalsIgnoreCase(hostField)) return ":authority and host differ";
        return null;
    }

    /** Whether the {@code len} bytes of {@code name} from {@code off} name a pseudo-header: they start with {@code ':'}. */
    public boolean isPseudo(byte[] name, int off, int len) {
        return len > 0 && name[off] == ':';
    }

    private String pseudo(byte[] name, int nameOffset, int nameLength, byte[] value, int valueOffset, int valueLength, String invalidValue) {
        if (trailers) return "pseudo-header field in trailers";
        if (regularSeen) return "pseudo-header field after a regular field";
        int which = -1;
        for (int i = 0; i < PSEUDO_NAMES.length; i++) {
            if (equals(name, nameOffset, nameLength, PSEUDO_NAMES[i])) which = i;
        }
        if (which < 0 || (which == PROTOCOL && !extendedConnect)) return "unknown or response pseudo-header field";
        if (length[which] >= 0) return "repeated pseudo-header field";
        if (invalidValue != null) return invalidValue;
        if (which == METHOD && !isToken(value, valueOffset, valueLength)) return "invalid :method";
        if (which == SCHEME && !isScheme(value, valueOffset, valueLength)) return "invalid :scheme";
        if (stored + valueLength > store.length) store = Arrays.copyOf(store, Math.max(stored + valueLength, 2 * store.length));
        System.arraycopy(value, valueOffset, store, stored, valueLength);
        start[which] = stored;
        length[which] = valueLength;
        stored += valueLength;
        return null;
    }

    /** Section 8.2.1: no NUL, CR or LF anywhere, no whitespace at either end. */
    private static String checkValue(byte[] value, int off, int len) {
        if (len > 0 && (HttpChars.isOws(value[off]) || HttpChars.isOws(value[off + len - 1]))) return "whitespace around a field value";
        for (int i = off; i < off + len; i++) {
            byte b = value[i];
            if (b == 0 || b == '\r' || b == '\n') return "NUL, CR or LF in a field value";
        }
        return null;
    }

    /** Section 8.3.1: origin form, or asterisk form for OPTIONS only. */
    private String checkPath() {
        int off = start[PATH];
        int len = length[PATH];
        if (len == 1 && store[off] == '*') return method.equals(Methods.OPTIONS) ? null : ":path * for a method other than OPTIONS";
        if (store[off] != '/') return ":path not starting with /";
        for (int i = off; i < off + len; i++) {
            if (!HttpChars.isTargetChar(store[i])) return "invalid character in :path";
        }
        return null;
    }

    /** Section 8.3.1: an authority holds no userinfo for http or https, and only visible characters. */
    private String checkAuthority(boolean web) {
        int off = start[AUTHORITY];
        int len = length[AUTHORITY];
        if (len == 0 && !web) return "empty :authority";
        for (int i = off; i < off + len; i++) {
            byte b = store[i];
            if (b == '@' && web) return "userinfo in :authority";
            if (!HttpChars.isTargetChar(b) || b == '/' || b == '?') return "invalid character in :authority";
        }
        return null;
    }

    private static String methodText(byte[] b, int off, int len) {
        for (String known : KNOWN_METHODS) {
            if (matches(b, off, len, known)) return known;
        }
        return new String(b, off, len, StandardCharsets.ISO_8859_1);
    }

    private static String schemeText(byte[] b, int off, int len) {
        if (matches(b, off, len, "https")) return "https";
        if (matches(b, off, len, "http")) return "http";
        return new String(b, off, len, StandardCharsets.ISO_8859_1);
    }

    private static boolean matches(byte[] b, int off, int len, String s) {
        if (len != s.length()) return false;
        for (int i = 0; i < len; i++) {
            if (b[off + i] != s.charAt(i)) return false;
        }
        return true;
    }

    private static boolean isToken(byte[] b, int off, int len) {
        if (len == 0) return false;
        for (int i = off; i < off + len; i++) {
            if (!HttpChars.isTchar(b[i])) return false;
        }
        return true;
    }

    /** RFC 3986 section 3.1: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ). */
    private static boolean isScheme(byte[] b, int off, int len) {
        if (len == 0 || !isAlpha(b[off])) return false;
        for (int i = off + 1; i < off + len; i++) {
            byte c = b[i];
            if (!isAlpha(c) && !(c >= '0' && c <= '9') && c != '+' && c != '-' && c != '.') return false;
        }
        return true;
    }

    private static boolean isAlpha(byte c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static boolean equals(byte[] b, int off, int len, byte[] lower) {
        return Arrays.equals(b, off, off + len, lower, 0, lower.length);
    }

    private static boolean equalsIgnoreCase(byte[] b, int off, int len, byte[] lower) {
        if (len != lower.length) return false;
        for (int i = 0; i < len; i++) {
            if (HttpChars.lower(b[off + i]) != lower[i]) return false;
        }
        return true;
    }

    private static byte[][] names(String... names) {
        byte[][] bytes = new byte[names.length][];
        for (int i = 0; i < names.length; i++) bytes[i] = names[i].getBytes(StandardCharsets.US_ASCII);
        return bytes;
    }
}
