package dev.petrel.microbench;

import java.nio.charset.StandardCharsets;

/** Request heads the benchmarks parse and answer, as the lab's load tools and a browser send them. */
final class Requests {
    private Requests() {}

    /** What {@code ab -k} sends: HTTP/1.0 asking for keep-alive. */
    static final String AB = "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\nHost: 127.0.0.1:8080\r\n"
            + "User-Agent: ApacheBench/2.3\r\nAccept: */*\r\n\r\n";

    /** What {@code wrk} sends: HTTP/1.1, keep-alive by default. */
    static final String WRK = "GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n";

    /** A browser's navigation: a longer target with a query and a dozen fields. */
    static final String BROWSER = "GET /articles/2026/petrel-speed.html?ref=home&lang=en HTTP/1.1\r\n"
            + "Host: www.example.org\r\n"
            + "User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0\r\n"
            + "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\n"
            + "Accept-Language: en-GB,en;q=0.5\r\n"
            + "Accept-Encoding: gzip, deflate, br, zstd\r\n"
            + "Referer: https://www.example.org/\r\n"
            + "Connection: keep-alive\r\n"
            + "Cookie: session=5f2d1c0e9a7b4e33a1c2; theme=dark\r\n"
            + "Upgrade-Insecure-Requests: 1\r\n"
            + "Sec-Fetch-Dest: document\r\n"
            + "Sec-Fetch-Mode: navigate\r\n"
            + "Sec-Fetch-Site: same-origin\r\n"
            + "Priority: u=0, i\r\n\r\n";

    static byte[] bytes(String name) {
        return switch (name) {
            case "ab" -> AB.getBytes(StandardCharsets.US_ASCII);
            case "wrk" -> WRK.getBytes(StandardCharsets.US_ASCII);
            case "browser" -> BROWSER.getBytes(StandardCharsets.US_ASCII);
            default -> throw new IllegalArgumentException("no request named " + name);
        };
    }
}
