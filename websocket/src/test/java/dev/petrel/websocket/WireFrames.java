package dev.petrel.websocket;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * Frame bytes written by hand for the decoder's tests, independently of {@link MessageEncoder}:
 * a header from its parts, then the payload, masked with {@link #KEY} for client frames.
 */
final class WireFrames {
    /** The masking key of RFC 6455 section 5.7's examples: 37 fa 21 3d. */
    static final int KEY = 0x37FA_213D;

    static final int FIN = 0x80;
    static final int RSV1 = 0x40;
    static final int RSV2 = 0x20;
    static final int RSV3 = 0x10;
    static final int CONTINUATION = 0x0;
    static final int TEXT = 0x1;
    static final int BINARY = 0x2;
    static final int CLOSE = 0x8;
    static final int PING = 0x9;
    static final int PONG = 0xA;

    /** How the length is written: the shortest form, or forced to the 16- or 64-bit one. */
    enum LengthForm { SHORTEST, SIXTEEN, SIXTY_FOUR }

    private WireFrames() {}

    /** A client frame: {@code first} (FIN, RSV and opcode bits), masked with {@link #KEY}. */
    static byte[] client(int first, byte[] payload) {
        return frame(first, payload, true, LengthForm.SHORTEST);
    }

    /** A server frame: {@code first} (FIN, RSV and opcode bits), unmasked. */
    static byte[] server(int first, byte[] payload) {
        return frame(first, payload, false, LengthForm.SHORTEST);
    }

    static byte[] frame(int first, byte[] payload, boolean masked, LengthForm form) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(header(first, masked, payload.length, form));
        byte[] body = payload.clone();
        if (masked) {
            for (int i = 0; i < body.length; i++) body[i] ^= (byte) (KEY >>> (24 - 8 * (i & 3)));
        }
        out.writeBytes(body);
        return out.toByteArray();
    }

    /** A header alone, claiming any length, with {@link #KEY} when masked. */
    static byte[] header(int first, boolean masked, long length, LengthForm form) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(first);
        int maskBit = masked ? 0x80 : 0;
        if (form == LengthForm.SHORTEST && length < 126) {
            out.write(maskBit | (int) length);
        } else if (form != LengthForm.SIXTY_FOUR && length <= 0xFFFF) {
            out.write(maskBit | 126);
            out.write((int) (length >>> 8));
            out.write((int) length);
        } else {
            out.write(maskBit | 127);
            for (int shift = 56; shift >= 0; shift -= 8) out.write((int) (length >>> shift));
        }
        if (masked) {
            for (int shift = 24; shift >= 0; shift -= 8) out.write(KEY >>> shift);
        }
        return out.toByteArray();
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] hex(String digits) {
        return HexFormat.of().parseHex(digits.replace(" ", "").replace("0x", "").replace(",", ""));
    }

    static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) b[i] = (byte) values[i];
        return b;
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] part : parts) all.writeBytes(part);
        return all.toByteArray();
    }

    /** A close frame body: the code, big-endian, then the reason's bytes. */
    static byte[] closeBody(int code, byte[] reason) {
        return concat(bytes(code >>> 8, code), reason);
    }
}
