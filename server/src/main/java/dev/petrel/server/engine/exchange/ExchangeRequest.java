package dev.petrel.server.engine.exchange;

import dev.petrel.http.HeaderFields;
import dev.petrel.http.HttpVersion;
import dev.petrel.http.MultipartLimits;
import dev.petrel.http.RequestHead;
import dev.petrel.server.MultipartForm;
import dev.petrel.server.PathParameters;
import dev.petrel.server.Request;
import dev.petrel.server.TlsDetails;
import dev.petrel.server.engine.connection.RequestOrigin;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
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
    private volatile List<MultipartForm> forms; // read by the handler, closed when the exchange ends; null while none
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

    /** Reads the form, and closes it when the exchange ends (its temporary files go then) if the handler did not. */
    @Override
    public MultipartForm multipart(MultipartLimits limits) throws IOException {
        MultipartForm form = MultipartForm.read(this, limits);
        synchronized (this) { // a detached response's thread may read it
            if (forms == null) forms = new ArrayList<>(1);
            forms.add(form);
        }
        return form;
    }

    /** The exchange has ended: what the handler opened and left goes (the forms' temporary files). */
    public void end() {
        List<MultipartForm> opened = forms;
        if (opened == null) return; // the usual exchange, which read no form: no lock taken per request
        synchronized (this) {
            opened = forms;
            forms = null;
        }
        if (opened != null) opened.forEach(MultipartForm::close);
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
