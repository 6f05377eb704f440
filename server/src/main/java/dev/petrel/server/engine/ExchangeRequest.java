package dev.petrel.server.engine;

import dev.petrel.http.HeaderFields;
import dev.petrel.http.HttpVersion;
import dev.petrel.server.Request;
import dev.petrel.server.TlsDetails;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * The request of one exchange, whatever the protocol: the protocol fills it from its own head
 * ({@link #begin}), the body is the protocol's {@link BodySource}, and where the request came from
 * is its {@link RequestOrigin}. One per connection (or stream), re-armed for every request without
 * allocating: the strings and fields are the codec's own.
 */
public final class ExchangeRequest implements Request {
    private final BodySource body;
    private String method;
    private String target;
    private String rawPath;
    private String path;
    private String query;
    private HttpVersion version;
    private String host;
    private HeaderFields headers;
    private long contentLength;
    private boolean hasBody;
    private RequestOrigin origin;

    /** A request whose body is read from {@code body}. */
    public ExchangeRequest(BodySource body) {
        this.body = body;
    }

    /**
     * Arms the request for the next exchange.
     *
     * @param path the decoded path ({@code *} for OPTIONS *, empty for an authority-form target)
     * @param contentLength the declared body length, or -1
     * @param hasBody whether a body follows (declared above zero, or of unknown length)
     */
    public void begin(String method, String target, String rawPath, String path, String query, HttpVersion version,
                      String host, HeaderFields headers, long contentLength, boolean hasBody, RequestOrigin origin) {
        this.method = method;
        this.target = target;
        this.rawPath = rawPath;
        this.path = path;
        this.query = query;
        this.version = version;
        this.host = host;
        this.headers = headers;
        this.contentLength = contentLength;
        this.hasBody = hasBody;
        this.origin = origin;
    }

    @Override
    public String method() {
        return method;
    }

    @Override
    public String target() {
        return target;
    }

    @Override
    public String path() {
        return path;
    }

    @Override
    public String rawPath() {
        return rawPath;
    }

    @Override
    public String query() {
        return query;
    }

    @Override
    public HttpVersion version() {
        return version;
    }

    @Override
    public String scheme() {
        return origin.scheme();
    }

    @Override
    public String host() {
        return host;
    }

    @Override
    public HeaderFields headers() {
        return headers;
    }

    @Override
    public HeaderFields trailers() {
        return body.trailers();
    }

    @Override
    public long contentLength() {
        return contentLength;
    }

    @Override
    public boolean hasBody() {
        return hasBody;
    }

    @Override
    public InputStream body() {
        return body;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return origin.remoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return origin.localAddress();
    }

    @Override
    public TlsDetails tls() {
        return origin.tls();
    }

    @Override
    public Map<String, String> attributes() {
        return origin.attributes();
    }

    @Override
    public String toString() {
        return method + " " + target + " " + version;
    }
}
