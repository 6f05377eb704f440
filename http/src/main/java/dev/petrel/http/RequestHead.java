package dev.petrel.http;

/**
 * A parsed and validated request head: request line, header fields, and what the codec concluded
 * from them about framing, persistence and expectations.
 *
 * <p>Owned by the {@link RequestParser} that produced it and valid until that parser is
 * {@linkplain RequestParser#reset() reset} for the next request; copy what must outlive it.
 */
public final class RequestHead {
    private final HeaderFields headers;
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
    boolean closeRequested;
    boolean keepAliveRequested;
    boolean expectContinue;

    RequestHead(HeaderFields headers) {
        this.headers = headers;
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

    /** The declared Content-Length when {@link #framing()} is {@link BodyFraming#LENGTH}, else -1. */
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
        method = target = rawPath = query = authority = host = null;
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
