package dev.petrel.http;

/** How the end of a request body is found (RFC 9112 section 6.3). */
public enum BodyFraming {
    /** No body: neither Content-Length nor Transfer-Encoding was sent. */
    NONE,
    /** Content-Length bytes follow the head. */
    LENGTH,
    /** The body is chunked; decode it with {@link ChunkedDecoder}. */
    CHUNKED,
    /**
     * The protocol's own framing carries a body of undeclared length and marks its end: HTTP/2's
     * DATA frames up to END_STREAM, AJP's body packets up to an empty one. Never from HTTP/1.1.
     */
    FRAMED
}
