package dev.petrel.http;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The text of the last bytes it decoded, handed out again while the same bytes keep coming. A
 * keep-alive connection sends the same Host, and very often the same target, request after
 * request; with one of these per field a parser gives back the same {@code String} instead of
 * allocating a new one each time, which is what keeps the steady state of a connection free of
 * allocation. It remembers one value only: a field that changes costs one decode, as it would
 * without it.
 *
 * <p>Every codec's parser keeps its own (HTTP/1.1's target and Host, HTTP/2's {@code :path} and
 * {@code :authority}). Owned by one parser, so one connection: no locking.
 */
public final class RecentText {
    /** Values longer than this are decoded every time rather than copied to be compared later. */
    private static final int MAX_REMEMBERED = 1024;

    private byte[] bytes = new byte[64];
    private int length = -1;
    private String text;

    /**
     * The ISO-8859-1 text of {@code len} bytes of {@code src} from {@code off}: the remembered
     * {@code String} itself when the bytes are the same as last time, else a new one, remembered.
     */
    public String of(byte[] src, int off, int len) {
        if (len == length && Arrays.equals(bytes, 0, len, src, off, off + len)) return text;
        String decoded = new String(src, off, len, StandardCharsets.ISO_8859_1);
        if (len > MAX_REMEMBERED) return decoded; // the value remembered stays: it may well come back
        if (len > bytes.length) bytes = new byte[Math.max(len, 2 * bytes.length)];
        System.arraycopy(src, off, bytes, 0, len);
        length = len;
        text = decoded;
        return decoded;
    }
}
