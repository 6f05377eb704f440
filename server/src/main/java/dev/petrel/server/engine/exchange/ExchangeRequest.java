package dev.petrel.server.engine.exchange;

import dev.petrel.http.HeaderFields;
import dev.petrel.http.HttpVersion;
import dev.petrel.http.RequestHead;
import dev.petrel.server.PathParameters;
import dev.petrel.server.Request;
import dev.petrel.server.TlsDetails;
import dev.petrel.server.engine.connection.RequestOrigin;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * The request of one exchange, whatever the protocol: a view of the {@link RequestHead} the
 * protocol's codec filled ({@link #begin}), of the protocol's {@link BodySource} for the body, and
 * of the {@link RequestOrigin} it came from. One per connection (or stream), re-armed for every
 * request without allocating: the strings and fields are the codec's own.
 */
public final class ExchangeRequest implements Request {
    private final BodySource body;
    private final PathParameters pathParameters = new PathParameters(); // re-armed by each router that routes the request
    private RequestHead head;
    private RequestOrigin origin;

    /** A request whose body is read from {@code body}. */
    public ExchangeRequest(BodySource body) {
        this.body = body;
    }

    /**
     * Arms the request for the next exchange: {@code head} as the protocol's codec filled it,
     * its path {@linkplain RequestHead#decodedPath() decoded} (the protocol answers 400 before
     * this when it is not), from {@code origin}.
     */
    public void begin(RequestHead head, RequestOrigin origin) {
        this.head = head;
        this.origin = origin;
    }

    @Override
    public String method() {
        return head.method();
    }

    @Override
    public String target() {
        return head.target();
    }

    @Override
    public String connectProtocol() {
        return head.connectProtocol();
    }

    @Override
    public String path() {
        return head.decodedPath();
    }

    @Override
    public String rawPath() {
        return head.rawPath();
    }

    @Override
    public String query() {
        return head.query();
    }

    @Override
    public HttpVersion version() {
        return head.version();
    }

    @Override
    public String scheme() {
        return origin.scheme();
    }

    @Override
    public String host() {
        return origin.host(head.host());
    }

    @Override
    public HeaderFields headers() {
        return head.headers();
    }

    @Override
    public HeaderFields trailers() {
        return body.trailers();
    }

    @Override
    public long contentLength() {
        return head.contentLength();
    }

    @Override
    public boolean hasBody() {
        return head.hasBody();
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
    public PathParameters pathParameters() {
        return pathParameters;
    }

    @Override
    public Map<String, String> attributes() {
        return origin.attributes();
    }

    @Override
    public String toString() {
        return String.valueOf(head);
    }
}
