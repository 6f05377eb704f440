package dev.petrel.http;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Decodes percent-encoded URI components (RFC 3986 section 2.1) as UTF-8. */
public final class PercentDecoder {
    private PercentDecoder() {}

    /**
     * Decodes {@code raw}; {@code +} stays a plus (this is for paths, not form data). Returns
     * {@code null} when a {@code %} is not followed by two hex digits or the bytes are not UTF-8.
     */
    public static String decode(String raw) {
        if (raw.indexOf('%') < 0) return raw;
        byte[] bytes = new byte[raw.length()];
        int n = 0;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                if (i + 2 >= raw.length()) return null;
                int hi = hexValue(raw.charAt(i + 1));
                int lo = hexValue(raw.charAt(i + 2));
                if (hi < 0 || lo < 0) return null;
                bytes[n++] = (byte) (hi * 16 + lo);
                i += 2;
            } else if (c > 0x7F) {
                return null; // request targets are ASCII; the parser already refuses anything else
            } else {
                bytes[n++] = (byte) c;
            }
        }
        try {
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, 0, n));
            return chars.toString();
        } catch (CharacterCodingException notUtf8) {
            return null;
        }
    }

    /** HEXDIG is ASCII only; {@link Character#digit} would also take other scripts' digits. */
    private static int hexValue(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }
}
