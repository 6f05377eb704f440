package dev.petrel.server;

import dev.petrel.http.HeaderFields;
import dev.petrel.http.HttpVersion;
import dev.petrel.http.MultipartLimits;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;

/**
 * A {@link Request} of an embedder's own making, which has no {@link PathParameters} to record
 * a template's captures in, as the router hands it to the route's handler: the same request, with
 * a set of its own. The server's requests never need it (their set is part of the exchange).
 */
final class CapturingRequest implements Request {
    private final Request request;
    private final PathParameters pathParameters = new PathParameters();

    CapturingRequest(Request request) {
        this.request = request;
    }

    @Override
    public PathParameters pathParameters() {
        return pathParameters;
    }

    @Override
    public String method() {
        return request.method();
    }

    @Override
    public String target() {
        return request.target();
    }

    @Override
    public String path() {
        return request.path();
    }

    @Override
    public String rawPath() {
        return request.rawPath();
    }

    @Override
    public String query() {
        return request.query();
    }

    @Override
    public HttpVersion version() {
        return request.version();
    }

    @Override
    public String connectProtocol() {
        return request.connectProtocol();
    }

    @Override
    public String scheme() {
        return request.scheme();
    }

    @Override
    public String host() {
        return request.host();
    }

    @Override
    public HeaderFields headers() {
        return request.headers();
    }

    @Override
    public String header(String name) {
        return request.header(name);
    }

    @Override
    public long contentLength() {
        return request.contentLength();
    }

    @Override
    public boolean hasBody() {
        return request.hasBody();
    }

    @Override
    public InputStream body() {
        return request.body();
    }

    @Override
    public HeaderFields trailers() {
        return request.trailers();
    }

    @Override
    public byte[] bodyBytes() throws IOException {
        return request.bodyBytes();
    }

    @Override
    public Map<String, List<String>> queryParameters() {
        return request.queryParameters();
    }

    @Override
    public Map<String, List<String>> formParameters() throws IOException {
        return request.formParameters();
    }

    @Override
    public MultipartForm multipart(MultipartLimits limits) throws IOException {
        return request.multipart(limits); // the server's request removes the files when the exchange ends
    }

    @Override
    public Map<String, String> cookies() {
        return request.cookies();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return request.remoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return request.localAddress();
    }

    @Override
    public TlsDetails tls() {
        return request.tls();
    }

    @Override
    public Map<String, String> attributes() {
        return request.attributes();
    }

    @Override
    public String toString() {
        return request.toString();
    }
}
