package dev.petrel.bench.soak;

/** The HTTP/1.1 request heads the faults send, as {@link SoakContent} describes the paths. */
final class RequestHeads {
    private RequestHeads() {}

    /** {@code GET target} with nothing more than a Host. */
    static String get(Listener listener, String target) {
        return "GET " + target + " HTTP/1.1\r\n" + host(listener) + "\r\n";
    }

    /** {@code POST /upload} announcing {@code contentLength} bytes whose SHA-256 is {@code digest}. */
    static String upload(Listener listener, long contentLength, String digest) {
        return "POST /upload HTTP/1.1\r\n" + host(listener) + "Content-Type: application/octet-stream\r\n"
                + "Content-Length: " + contentLength + "\r\n" + SoakContent.DIGEST_HEADER + ": " + digest + "\r\n\r\n";
    }

    /** {@code POST /upload} with a chunked body whose SHA-256 is {@code digest}. */
    static String chunkedUpload(Listener listener, String digest) {
        return "POST /upload HTTP/1.1\r\n" + host(listener) + "Content-Type: application/octet-stream\r\n"
                + "Transfer-Encoding: chunked\r\n" + SoakContent.DIGEST_HEADER + ": " + digest + "\r\n\r\n";
    }

    /** The Host header line, CRLF included. */
    static String host(Listener listener) {
        return "Host: " + FaultSockets.HOST + ":" + listener.port() + "\r\n";
    }
}
