package dev.petrel.server;

import dev.petrel.http.HeaderFields;
import dev.petrel.http.HttpVersion;
import dev.petrel.http.MultipartLimits;
import dev.petrel.server.config.AjpConfig;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * The request a {@link Handler} answers. Valid only while the handler runs: the server reuses
 * its storage for the next request on the connection.
 */
public interface Request {
    /** The method, e.g. {@code GET}; case-sensitive. */
    String method();

    /** The request-target exactly as received, e.g. {@code /a%20b?x=1}. */
    String target();

    /** The path, percent-decoded as UTF-8, e.g. {@code /a b}. Use {@link #rawPath()} where an encoded {@code /} matters. */
    String path();

    /** The path as received, still percent-encoded. */
    String rawPath();

    /** The query string after {@code ?}, still encoded, or {@code null}. */
    String query();

    /** The protocol version of the request. */
    HttpVersion version();

    /**
     * The protocol an HTTP/2 extended CONNECT (RFC 8441) asks to run over its stream, its
     * {@code :protocol} (e.g. {@code websocket}), or {@code null} for every other request. Such a
     * request has the method {@code CONNECT} and the path of its {@code :path}; the server accepts
     * it only when it has a WebSocket route (see {@link Handler#servesWebSockets()}).
     */
    default String connectProtocol() {
        return null;
    }

    /** {@code http} or {@code https}, as the connection was received. */
    String scheme();

    /** The host the request was sent to (Host field, or the authority of an absolute-form target). */
    String host();

    /** All header fields, in the order received. */
    HeaderFields headers();

    /** The first value of a header field, or {@code null}. Names are case-insensitive. */
    default String header(String name) {
        return headers().first(name);
    }

    /** The declared body length, or -1 when chunked or absent. */
    long contentLength();

    /** Whether the request has a body to read (declared length above zero, or chunked). */
    boolean hasBody();

    /**
     * The body as a stream. Reading sends {@code 100 Continue} first when the client asked for it.
     * A malformed or oversized body makes reads throw {@link HttpStatusException} (400 or 413).
     */
    InputStream body();

    /**
     * The trailer fields that followed the body (a chunked HTTP/1.1 body's trailer section),
     * once the body has been read to its end; empty before that and where there are none.
     */
    HeaderFields trailers();

    /** Reads the whole body, up to the server's body limit. */
    default byte[] bodyBytes() throws IOException {
        return body().readAllBytes();
    }

    /**
     * The query's parameters, decoded ({@code +} and {@code %XX} as UTF-8), in their order, each
     * name with every value it was given; a name without {@code =} has the value {@code ""}.
     *
     * @throws HttpStatusException 400 when the query has a malformed {@code %} escape
     */
    default Map<String, java.util.List<String>> queryParameters() {
        return FormDecoder.decode(query());
    }

    /** The first value of the query parameter {@code name}, decoded, or {@code null}; see {@link #queryParameters()}. */
    default String queryParameter(String name) {
        java.util.List<String> values = queryParameters().get(name);
        return values == null ? null : values.getFirst();
    }

    /**
     * The parameters of an {@code application/x-www-form-urlencoded} body (an HTML form's POST),
     * decoded as {@link #queryParameters()} are; empty for a body of any other type. Reads the
     * body, which the server has already limited in size.
     *
     * @throws HttpStatusException 400 when the body has a malformed {@code %} escape
     */
    default Map<String, java.util.List<String>> formParameters() throws IOException {
        String type = header("Content-Type");
        if (type == null || !FormDecoder.isForm(type)) return Map.of();
        return FormDecoder.decode(new String(bodyBytes(), java.nio.charset.StandardCharsets.UTF_8));
    }

    /**
     * The body as a {@code multipart/form-data} form (file uploads, {@code curl -F}), read whole
     * within {@link MultipartLimits#DEFAULT}'s generous limits, large parts in temporary files
     * removed when the exchange ends. See {@link MultipartForm} for what is refused, and how.
     *
     * @throws HttpStatusException 415 for another body, 400 for a malformed one, 413 past a limit
     */
    default MultipartForm multipart() throws IOException {
        return multipart(MultipartLimits.DEFAULT);
    }

    /** As {@link #multipart()}, within {@code limits}. */
    default MultipartForm multipart(MultipartLimits limits) throws IOException {
        return MultipartForm.read(this, limits);
    }

    /**
     * The cookies the client sent ({@code Cookie} headers, RFC 6265), by name, in their order; a
     * value in double quotes loses them. A name sent twice keeps its first value, as browsers
     * send the most specific cookie first.
     */
    default Map<String, String> cookies() {
        return Cookies.parse(headers());
    }

    /** The value of the cookie {@code name}, or {@code null}; see {@link #cookies()}. */
    default String cookie(String name) {
        return cookies().get(name);
    }

    /** The client's address. */
    InetSocketAddress remoteAddress();

    /** The server address the request arrived on. */
    InetSocketAddress localAddress();

    /**
     * What the client negotiated over TLS, or {@code null} when it did not use TLS. Over AJP,
     * what the front end reported of its own TLS connection with the client.
     */
    default TlsDetails tls() {
        return null;
    }

    /**
     * Request attributes a front end forwarded over AJP and the AJP connector allows (see
     * {@code AjpConfig}); empty for requests received over HTTP.
     */
    default Map<String, String> attributes() {
        return Map.of();
    }

    /**
     * What the {@link Router} path template that routed this request captured
     * ({@code /users/{id}}); empty when no template did. The server's requests carry a set of their
     * own; a {@code Request} implementation of one's own gets {@link PathParameters#NONE} by
     * default, and a router then hands its handlers a request that carries one.
     */
    default PathParameters pathParameters() {
        return PathParameters.NONE;
    }

    /** The value the routing template captured as {@code name}, or {@code null}; see {@link #pathParameters()}. */
    default String pathParameter(String name) {
        return pathParameters().get(name);
    }
}
