package dev.petrel.http;

/**
 * A parsed and validated request head, whatever the protocol: request line (or its equivalent),
 * header fields, and what the codec concluded from them about framing, persistence and
 * expectations. HTTP/1.1's {@link RequestParser} fills one; so do HTTP/2's field decoder and AJP's
 * forward-request parser ({@link #line}, {@link #fields}, {@link #body}), so the server builds
 * every request from the same value and decodes its path in one place ({@link #decodedPath()}).
 *
 * <p>Owned by the codec that filled it and valid until it is filled again for the next request;
 * copy what must outlive it.
 */
public final class RequestHead {
    private HeaderFields headers;
    // the last path decoded, kept across requests: a keep-alive connection mostly repeats its target,
    // and the parsers hand back the same rawPath String then (RecentText), so it is decoded once
    private String decodedFrom;
    private String decoded;
    String method;
    String target;
    TargetForm form;
    String rawPath;
    String query;
    String authority;
    HttpVersion version;
    BodyFraming framing;
    long contentLength;
    String host;
    String connectProtocol;
    boolean closeRequested;
    boolean keepAliveRequested;
    boolean expectContinue;

    RequestHead(HeaderFields headers) {
        this.headers = headers;
    }

    /** An empty head, for a protocol other than HTTP/1.1 to fill with {@link #line}, {@link #fields} and {@link #body}. */
    public RequestHead() {
        this(null);
        clear();
    }

    /**
     * Sets the request line's parts.
     *
     * @param target the request-target as the client sent it (HTTP/2's {@code :path}, or its
     *        {@code :authority} for CONNECT; AJP's URI and query)
     * @param rawPath the path, still percent-encoded: see {@link #rawPath()}
     * @param query see {@link #query()}
     */
    public void line(String method, String target, TargetForm form, String rawPath, String query, HttpVersion version) {
        this.method = method;
        this.target = target;
        this.form = form;
        this.rawPath = rawPath;
        this.query = query;
        this.authority = form == TargetForm.AUTHORITY ? target : null;
        this.version = version;
        this.connectProtocol = null;
    }

    /**
     * Marks the request as an extended CONNECT (RFC 8441, HTTP/2): its {@code :protocol}, the
     * protocol the client asks to run over the stream. Called after {@link #line}, which clears it.
     */
    public void connectProtocol(String protocol) {
        this.connectProtocol = protocol;
    }

    /**
     * The protocol an extended CONNECT (RFC 8441) asks for, its {@code :protocol} (e.g.
     * {@code websocket}), or null for every other request. Such a request has CONNECT for its
     * method and an origin-form target (its {@code :path}).
     */
    public String connectProtocol() {
        return connectProtocol;
    }

    /** Sets the header fields and the host the request is for (see {@link #host()}). */
    public void fields(HeaderFields headers, String host) {
        this.headers = headers;
        this.host = host;
    }

    /**
     * Sets how the body is framed.
     *
     * @param contentLength the declared length, or -1
     * @param expectContinue whether the client waits for {@code 100 Continue} before it sends the body
     */
    public void body(BodyFraming framing, long contentLength, boolean expectContinue) {
        this.framing = framing;
        this.contentLength = contentLength;
        this.expectContinue = expectContinue;
    }

    /** The method, case-sensitive, e.g. {@code GET}. Standard methods are the {@link Methods} constants. */
    public String method() {
        return method;
    }

    /** The request-target exactly as received. */
    public String target() {
        return target;
    }

    /** Which of the four forms the target has. */
    public TargetForm targetForm() {
        return form;
    }

    /**
     * The path of the target, still percent-encoded: from an origin- or absolute-form target
     * ({@code "/"} when an absolute-form target has none), {@code "*"} for the asterisk form and
     * {@code null} for the authority form.
     */
    public String rawPath() {
        return rawPath;
    }

    /**
     * The path percent-decoded: {@code "*"} for the asterisk form, empty for the authority form,
     * else {@link #rawPath()} decoded as UTF-8; null when its percent-encoding is invalid (the
     * server answers 400). A path repeated from the last request is decoded once.
     */
    public String decodedPath() {
        if (form == TargetForm.ASTERISK) return "*";
        if (form == TargetForm.AUTHORITY) return "";
        if (rawPath != decodedFrom) { // the same String again: a repeated target (see RecentText)
            decoded = PercentDecoder.decode(rawPath);
            decodedFrom = rawPath;
        }
        return decoded;
    }

    /** The query after {@code ?}, still percent-encoded, or {@code null} when there is none. */
    public String query() {
        return query;
    }

    /** The host (and port) the request is for: from an absolute-form target, else the Host field; may be empty for HTTP/1.0. */
    public String host() {
        return host;
    }

    /** The protocol version of the request line. */
    public HttpVersion version() {
        return version;
    }

    /** The header fields, in the order received. */
    public HeaderFields headers() {
        return headers;
    }

    /** How the body is delimited. */
    public BodyFraming framing() {
        return framing;
    }

    /** Whether a body follows the head: its framing is other than {@link BodyFraming#NONE}. */
    public boolean hasBody() {
        return framing != BodyFraming.NONE;
    }

    /** The declared Content-Length, or -1 when none was declared. */
    public long contentLength() {
        return contentLength;
    }

    /**
     * Whether the client allows the connection to stay open after this exchange: HTTP/1.1 unless
     * it sent {@code Connection: close}; HTTP/1.0 only with {@code Connection: keep-alive}.
     */
    public boolean keepAlive() {
        if (closeRequested) return false;
        return version == HttpVersion.HTTP_1_1 || keepAliveRequested;
    }

    /** Whether the client sent {@code Connection: keep-alive}; an HTTP/1.0 response must then say it too. */
    public boolean keepAliveRequested() {
        return keepAliveRequested;
    }

    /** Whether an HTTP/1.1 client sent {@code Expect: 100-continue} and waits for it before sending the body. */
    public boolean expectContinue() {
        return expectContinue;
    }

    void clear() {
        method = target = rawPath = query = authority = host = connectProtocol = null;
        form = null;
        version = null;
        framing = BodyFraming.NONE;
        contentLength = -1;
        closeRequested = keepAliveRequested = expectContinue = false;
    }

    @Override
    public String toString() {
        return method + " " + target + " " + version;
    }
}
