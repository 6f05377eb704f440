package dev.petrel.server.it;

import java.nio.charset.StandardCharsets;

/** Raw request texts. */
final class Requests {
    private Requests() {}

    static String get(String target) {
        return "GET " + target + " HTTP/1.1\r\nHost: test\r\n\r\n";
    }

    static String head(String target) {
        return "HEAD " + target + " HTTP/1.1\r\nHost: test\r\n\r\n";
    }

    static String getAndClose(String target) {
        return "GET " + target + " HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n";
    }

    static String post(String target, String body) {
        return "POST " + target + " HTTP/1.1\r\nHost: test\r\nContent-Type: text/plain\r\nContent-Length: "
                + body.getBytes(StandardCharsets.ISO_8859_1).length + "\r\n\r\n" + body;
    }

    /** {@code n} bytes of a recognisable pattern: a to z, over and over. */
    static String pattern(int n) {
        StringBuilder s = new StringBuilder(n);
        for (int i = 0; i < n; i++) s.append((char) ('a' + i % 26));
        return s.toString();
    }
}
