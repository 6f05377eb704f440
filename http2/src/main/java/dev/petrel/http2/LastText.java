package dev.petrel.http2;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Remembers the last text it decoded and hands the same {@code String} back while the same bytes
 * keep coming: the requests of one connection mostly repeat their {@code :authority}, and often
 * their {@code :path}, so this keeps a steady connection from allocating a String for each.
 * One value only; owned by one connection, so no locking.
 */
final class LastText {
    /** Longer values are decoded each time rather than kept for comparison. */
    private static final int MAX_KEPT = 1024;

    private byte[] bytes = new byte[32];
    private int length = -1;
    private String text;

    /** The ISO-8859-1 text of {@code len} bytes of {@code src} from {@code off}. */
    String of(byte[] src, int off, int len) {
        if (len == length && Arrays.equals(bytes, 0, len, src, off, off + len)) return text;
        String decoded = new String(src, off, len, StandardCharsets.ISO_8859_1);
        if (len > MAX_KEPT) return decoded; // the value kept before stays: it may well come back
        if (len > bytes.length) bytes = new byte[Math.max(len, 2 * bytes.length)];
        System.arraycopy(src, off, bytes, 0, len);
        length = len;
        text = decoded;
        return decoded;
    }
}
