package dev.petrel.server.engine;

import dev.petrel.http.BodyFraming;
import dev.petrel.http.HeaderFields;
import dev.petrel.http.HttpVersion;
import dev.petrel.http.RequestHead;
import dev.petrel.server.Request;
import dev.petrel.server.TlsDetails;
import java.io.InputStream;
import java.net.InetSocketAddress;

/** A {@link Request} over the parser's head of the current exchange; re-armed for every request. */
final class Http1Request implements Request {
    private final Endpoint endpoint;
    private final RequestBody body;
    private RequestHead head;
    private String path;

    Http1Request(Endpoint endpoint, RequestBody body) {
        this.endpoint = endpoint;
        this.body = body;
    }

    void begin(RequestHead head, String decodedPath) {
        this.head = head;
        this.path = decodedPath;
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
    public String path() {
        return path;
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
        return endpoint.scheme();
    }

    @Override
    public String host() {
        return head.host();
    }

    @Override
    public HeaderFields headers() {
        return head.headers();
    }

    @Override
    public long contentLength() {
        return head.contentLength();
    }

    @Override
    public boolean hasBody() {
        return head.framing() != BodyFraming.NONE;
    }

    @Override
    public InputStream body() {
        return body;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return endpoint.remoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return endpoint.localAddress();
    }

    @Override
    public TlsDetails tls() {
        return endpoint.tls();
    }

    @Override
    public String toString() {
        return head.toString();
    }
}
