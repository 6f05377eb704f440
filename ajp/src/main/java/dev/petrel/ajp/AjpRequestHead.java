package dev.petrel.ajp;

import dev.petrel.http.BodyFraming;
import dev.petrel.http.HeaderFields;
import dev.petrel.http.HeaderFieldsBuilder;
import dev.petrel.http.HttpVersion;
import dev.petrel.http.RequestHead;
import dev.petrel.http.TargetForm;
import java.util.ArrayList;
import java.util.List;

/**
 * A decoded AJP forward-request: the client's request as the front end received it, with what
 * the front end knows of the client (address, port, TLS) and the attributes it forwards. Filled
 * by {@link ForwardRequestParser} and reused for the next request on the connection: copy what
 * must outlive it.
 *
 * <p>The values are the front end's claims, taken as sent. Whether to trust them (the secret, the
 * allowed attributes) is the server's decision, not the codec's.
 */
public final class AjpRequestHead {
    final HeaderFieldsBuilder headers = new HeaderFieldsBuilder(1024);
    private final RequestHead request = new RequestHead();
    final List<String> attributeNames = new ArrayList<>(4);
    final List<String> attributeValues = new ArrayList<>(4);
    String method;
    HttpVersion version;
    String uri;
    String query;
    String remoteAddress;
    String remoteHost;
    String serverName;
    int serverPort;
    boolean ssl;
    long contentLength;
    boolean chunked;
    String remoteUser;
    String authType;
    String route;
    String sslCertificate;
    String sslCipher;
    String sslSession;
    int sslKeySize;
    String secret;

    void reset() {
        headers.clear();
        attributeNames.clear();
        attributeValues.clear();
        method = null;
        version = null;
        uri = null;
        query = null;
        remoteAddress = null;
        remoteHost = null;
        serverName = null;
        serverPort = 0;
        ssl = false;
        contentLength = -1;
        chunked = false;
        remoteUser = null;
        authType = null;
        route = null;
        sslCertificate = null;
        sslCipher = null;
        sslSession = null;
        sslKeySize = -1;
        secret = null;
    }

    /**
     * The client's request as every protocol's head says it, filled once the packet parsed
     * ({@link ForwardRequestParser#parse} returned null): the target rebuilt from {@link #uri()}
     * and {@link #query()}; the host from the {@code Host} field, else the {@link #serverName()} the
     * front end received the request for; a body of declared length, or of unknown length when
     * the client sent it chunked.
     */
    public RequestHead request() {
        return request;
    }

    /** Fills {@link #request()} from the parsed packet. */
    void complete() {
        request.line(method, target(), uri.equals("*") ? TargetForm.ASTERISK : TargetForm.ORIGIN, uri, query, version);
        String host = headers.fields().first("Host");
        request.fields(headers.fields(), host != null ? host : serverName);
        BodyFraming framing = contentLength > 0 ? BodyFraming.LENGTH : chunked ? BodyFraming.FRAMED : BodyFraming.NONE;
        request.body(framing, contentLength, false); // the front end answers Expect: 100-continue itself
    }

    /** The method, e.g. {@code GET}. */
    public String method() {
        return method;
    }

    /** The client's protocol version. */
    public HttpVersion version() {
        return version;
    }

    /** The request path as the front end forwarded it (percent-encoded), without the query. */
    public String uri() {
        return uri;
    }

    /** The query string without {@code ?}, still encoded, or {@code null}. */
    public String query() {
        return query;
    }

    /** The request-target rebuilt from {@link #uri()} and {@link #query()}. */
    public String target() {
        return query == null ? uri : uri + '?' + query;
    }

    /** The client's IP address as the front end saw it. */
    public String remoteAddress() {
        return remoteAddress;
    }

    /** The client's host name if the front end resolved it, else usually its address; may be {@code null}. */
    public String remoteHost() {
        return remoteHost;
    }

    /** The server name the front end received the request for. */
    public String serverName() {
        return serverName;
    }

    /** The front end's port the client connected to. */
    public int serverPort() {
        return serverPort;
    }

    /** Whether the client reached the front end over TLS. */
    public boolean ssl() {
        return ssl;
    }

    /** The header fields, in order; encoded names are spelled out. */
    public HeaderFields headers() {
        return headers.fields();
    }

    /** The declared body length, or -1 when none was declared. */
    public long contentLength() {
        return contentLength;
    }

    /** Whether the body's length is unknown (the client sent it chunked); it ends with an empty body chunk. */
    public boolean chunked() {
        return chunked;
    }

    /** Whether a body follows: a declared length above zero, or chunked. */
    public boolean hasBody() {
        return contentLength > 0 || chunked;
    }

    /** The user the front end authenticated, or {@code null}. */
    public String remoteUser() {
        return remoteUser;
    }

    /** The front end's authentication type, or {@code null}. */
    public String authType() {
        return authType;
    }

    /** The load-balancer route (jvm_route), or {@code null}. */
    public String route() {
        return route;
    }

    /** The client's certificate chain, PEM, as the front end forwarded it, or {@code null}. */
    public String sslCertificate() {
        return sslCertificate;
    }

    /** The TLS cipher suite between client and front end, or {@code null}. */
    public String sslCipher() {
        return sslCipher;
    }

    /** The TLS session id, or {@code null}. */
    public String sslSession() {
        return sslSession;
    }

    /** The TLS key size in bits, or -1 when not sent. */
    public int sslKeySize() {
        return sslKeySize;
    }

    /** The shared secret the front end sent, or {@code null}. */
    public String secret() {
        return secret;
    }

    /** The number of named request attributes ({@code req_attribute}) forwarded. */
    public int attributeCount() {
        return attributeNames.size();
    }

    /** The name of request attribute {@code i}. */
    public String attributeName(int i) {
        return attributeNames.get(i);
    }

    /** The value of request attribute {@code i}. */
    public String attributeValue(int i) {
        return attributeValues.get(i);
    }

    /** The value of the named request attribute, or {@code null}. */
    public String attribute(String name) {
        int i = attributeNames.indexOf(name);
        return i < 0 ? null : attributeValues.get(i);
    }

    @Override
    public String toString() {
        return method + " " + target() + " " + version;
    }
}
