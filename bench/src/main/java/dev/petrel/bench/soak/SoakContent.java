package dev.petrel.bench.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.SplittableRandom;

/**
 * What the soak's servers serve and its clients check, the same on Petrel and on Tomcat: the
 * contract between {@link SoakPetrel}, {@link SoakTomcat} and the clients of {@link SoakTraffic}.
 *
 * <ul>
 *   <li>{@code GET /ping}: 200, {@code pong}.</li>
 *   <li>{@code GET /download?size=N&seed=S}: 200, {@code application/octet-stream}, the N bytes of
 *       {@link #bytes(long, int)}; the client makes the same bytes and compares digests.</li>
 *   <li>{@code POST /upload} with {@value #DIGEST_HEADER}: the SHA-256 of the body, in hex. The
 *       server reads the whole body and answers 200 with the digest of what it read when that is
 *       the one announced, 422 otherwise; the client checks the digest echoed.</li>
 *   <li>{@code GET /files/NAME}: the static files of {@link #writeFiles}, with ranges, and gzip for
 *       the text file when asked.</li>
 *   <li>{@code /ws/echo}: WebSocket, every message sent back as it came.</li>
 * </ul>
 */
public final class SoakContent {
    /** The request header with the upload's SHA-256 in hex. */
    public static final String DIGEST_HEADER = "X-Soak-Digest";
    /** The largest body {@code /download} makes and {@code /upload} takes. */
    public static final int MAX_BODY = 16 << 20;
    /** A binary file of {@link #writeFiles}, for ranges. */
    public static final String BINARY_FILE = "data.bin";
    /** A text file of {@link #writeFiles}, for gzip. */
    public static final String TEXT_FILE = "page.html";
    /** The seed of the files' bytes. */
    private static final long FILE_SEED = 42;
    private static final int BINARY_FILE_SIZE = 300 * 1024;

    private SoakContent() {}

    /** {@code size} bytes drawn from {@code seed}: the same on every JVM. */
    public static byte[] bytes(long seed, int size) {
        byte[] b = new byte[size];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }

    /** The SHA-256 of {@code bytes} in lower-case hex. */
    public static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(digest().digest(bytes));
    }

    /** A fresh SHA-256 digest. */
    public static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** The bytes of the binary file. */
    public static byte[] binaryFile() {
        return bytes(FILE_SEED, BINARY_FILE_SIZE);
    }

    /** The bytes of the text file: an HTML page of about 120 KiB that compresses well. */
    public static byte[] textFile() {
        StringBuilder page = new StringBuilder("<!doctype html>\n<html><head><title>soak</title></head><body>\n");
        for (int i = 0; i < 2000; i++) page.append("<p>Line ").append(i).append(" of the soak's page, served again and again.</p>\n");
        return page.append("</body></html>\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Writes the static files into {@code dir}. */
    public static void writeFiles(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve(BINARY_FILE), binaryFile());
        Files.write(dir.resolve(TEXT_FILE), textFile());
    }

    /** A positive query parameter of {@code query} ({@code a=1&b=2}), or -1. */
    public static long parameter(String query, String name) {
        if (query == null) return -1;
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).equals(name)) {
                try {
                    return Long.parseLong(pair.substring(eq + 1));
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        }
        return -1;
    }
}
