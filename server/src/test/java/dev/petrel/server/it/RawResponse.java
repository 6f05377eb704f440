package dev.petrel.server.it;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One parsed response: status line, header fields in order, the decoded body ({@code null} when
 * only the head was read) and the trailer fields of a chunked body.
 */
record RawResponse(String statusLine, int status, List<Header> headers, byte[] body, List<Header> trailers) {
    record Header(String name, String value) {
        @Override
        public String toString() {
            return name + ": " + value;
        }
    }

    RawResponse withBody(byte[] body, List<Header> trailers) {
        return new RawResponse(statusLine, status, headers, body, trailers);
    }

    /** The first value of a header, names compared case-insensitively, or {@code null}. */
    String header(String name) {
        for (Header h : headers) {
            if (h.name().equalsIgnoreCase(name)) return h.value();
        }
        return null;
    }

    /** Every value of a header, in order. */
    List<String> headers(String name) {
        return headers.stream().filter(h -> h.name().equalsIgnoreCase(name)).map(Header::value).toList();
    }

    /** The names of all header fields, lower-cased, in order. */
    List<String> headerNames() {
        return headers.stream().map(h -> h.name().toLowerCase(java.util.Locale.ROOT)).toList();
    }

    /** The first value of a trailer field, or {@code null}. */
    String trailer(String name) {
        for (Header h : trailers) {
            if (h.name().equalsIgnoreCase(name)) return h.value();
        }
        return null;
    }

    /** The body as UTF-8 text. */
    String text() {
        return new String(body, StandardCharsets.UTF_8);
    }

    /** Whether the server announced it closes the connection after this response. */
    boolean saysClose() {
        String connection = header("Connection");
        return connection != null && connection.equalsIgnoreCase("close");
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(statusLine);
        headers.forEach(h -> s.append("\n").append(h));
        if (body != null) s.append("\n\n").append(body.length > 300 ? text().substring(0, 300) + "..." : text());
        return s.toString();
    }
}
