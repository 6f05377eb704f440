package dev.petrel.http;

import java.nio.charset.StandardCharsets;

/** The protocol versions Petrel speaks. Others are answered with 505. */
public enum HttpVersion {
    /** HTTP/1.0: connections close after each exchange unless the client asks for keep-alive. */
    HTTP_1_0("HTTP/1.0"),
    /** HTTP/1.1: persistent connections by default, chunked coding, 100-continue. */
    HTTP_1_1("HTTP/1.1"),
    /**
     * HTTP/2 (RFC 9113), named as servlet containers name it in {@code getProtocol()} and access
     * logs; it has no version text on the wire.
     */
    HTTP_2("HTTP/2.0");

    private final String text;
    private final byte[] bytes;

    HttpVersion(String text) {
        this.text = text;
        this.bytes = text.getBytes(StandardCharsets.US_ASCII);
    }

    /** The version as it appears on the wire, e.g. {@code HTTP/1.1}. */
    public String text() {
        return text;
    }

    byte[] bytes() {
        return bytes;
    }

    @Override
    public String toString() {
        return text;
    }
}
