package dev.petrel.websocket;

/**
 * Encodes strings to UTF-8 straight into a frame's array, so that a text frame costs one
 * allocation: {@code String.getBytes(UTF_8)} would make an array only to be copied into the
 * frame. The length is measured first, since it decides the frame's header.
 */
final class Utf8Encoding {
    private Utf8Encoding() {}

    /**
     * The UTF-8 length of {@code s}, or -1 when it holds a lone surrogate: that is not text, and
     * the caller leaves its replacement to the JDK's encoder.
     */
    static int length(String s) {
        int n = s.length();
        int bytes = n;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) continue;
            if (c < 0x800) {
                bytes += 1;
            } else if (!Character.isSurrogate(c)) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 2; // two chars, four bytes
                i++;
            } else {
                return -1;
            }
        }
        return bytes;
    }

    /**
     * Writes {@code s}, whose {@link #length} is {@code utf8Length} (not -1), into {@code bytes}
     * from {@code offset}.
     */
    @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): exact for ASCII, and a plain copy
    static void encode(String s, int utf8Length, byte[] bytes, int offset) {
        int n = s.length();
        if (utf8Length == n) { // every char is ASCII
            s.getBytes(0, n, bytes, offset);
            return;
        }
        int at = offset;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                bytes[at++] = (byte) c;
            } else if (c < 0x800) {
                bytes[at++] = (byte) (0xC0 | c >> 6);
                bytes[at++] = (byte) (0x80 | c & 0x3F);
            } else if (!Character.isSurrogate(c)) {
                bytes[at++] = (byte) (0xE0 | c >> 12);
                bytes[at++] = (byte) (0x80 | c >> 6 & 0x3F);
                bytes[at++] = (byte) (0x80 | c & 0x3F);
            } else {
                int codePoint = Character.toCodePoint(c, s.charAt(++i));
                bytes[at++] = (byte) (0xF0 | codePoint >> 18);
                bytes[at++] = (byte) (0x80 | codePoint >> 12 & 0x3F);
                bytes[at++] = (byte) (0x80 | codePoint >> 6 & 0x3F);
                bytes[at++] = (byte) (0x80 | codePoint & 0x3F);
            }
        }
    }
}
