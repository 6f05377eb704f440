package dev.petrel.server.it;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * WebSocket frames written by hand as a client sends them, masked with the key of RFC 6455
 * section 5.7's examples, with any header however wrong; and the server's frames read back. For
 * the tests that attack the server with frames no real client would send.
 */
final class ClientFrames {
    static final int KEY = 0x37FA_213D;
    static final int FIN = 0x80;
    static final int RSV1 = 0x40;
    static final int CONTINUATION = 0x0;
    static final int TEXT = 0x1;
    static final int BINARY = 0x2;
    static final int CLOSE = 0x8;
    static final int PING = 0x9;
    static final int PONG = 0xA;

    private ClientFrames() {}

    /** The opening handshake for {@code /ws}, with {@code extraHeaders} (each ending in CRLF). */
    static String handshake(String extraHeaders) {
        return "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" + extraHeaders + "\r\n";
    }

    /** A frame: {@code first} (FIN, RSV and opcode bits), then {@code payload}, masked. */
    static byte[] frame(int first, byte[] payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(payload.length + 14);
        out.writeBytes(header(first, payload.length));
        byte[] masked = payload.clone();
        for (int i = 0; i < masked.length; i++) masked[i] ^= (byte) (KEY >>> (24 - 8 * (i & 3)));
        out.writeBytes(masked);
        return out.toByteArray();
    }

    static byte[] text(String text) {
        return frame(FIN | TEXT, text.getBytes(StandardCharsets.UTF_8));
    }

    /** A close frame with {@code code} and no reason. */
    static byte[] close(int code) {
        return frame(FIN | CLOSE, new byte[] {(byte) (code >> 8), (byte) code});
    }

    /**
     * A masked frame's header alone, claiming {@code length} bytes of payload in the shortest
     * form; a negative length is written as its 64 bits, so {@link Long#MIN_VALUE} claims 2^63.
     */
    static byte[] header(int first, long length) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(14);
        out.write(first);
        if (length >= 0 && length < 126) {
            out.write(0x80 | (int) length);
        } else if (length >= 0 && length <= 0xFFFF) {
            out.write(0x80 | 126);
            out.write((int) (length >> 8));
            out.write((int) length);
        } else {
            out.write(0x80 | 127);
            for (int shift = 56; shift >= 0; shift -= 8) out.write((int) (length >>> shift));
        }
        for (int shift = 24; shift >= 0; shift -= 8) out.write(KEY >>> shift);
        return out.toByteArray();
    }

    /** A frame from the server: its first byte (FIN, RSV and opcode) and its payload. */
    record ServerFrame(int first, byte[] payload) {
        int opcode() {
            return first & 0x0F;
        }

        /** The code of a close frame; 1005 when it has none. */
        int closeCode() {
            return payload.length < 2 ? 1005 : (payload[0] & 0xFF) << 8 | payload[1] & 0xFF;
        }

        String text() {
            return new String(payload, StandardCharsets.UTF_8);
        }
    }

    /** Reads one frame the server sent (unmasked, as the RFC has it). */
    static ServerFrame read(InputStream in) throws IOException {
        DataInputStream data = new DataInputStream(in);
        int first = data.readUnsignedByte();
        int second = data.readUnsignedByte();
        if ((second & 0x80) != 0) throw new IOException("a masked frame from the server");
        long length = second & 0x7F;
        if (length == 126) length = data.readUnsignedShort();
        else if (length == 127) length = data.readLong();
        if (length < 0 || length > 64 << 20) throw new IOException("a server frame of " + length + " bytes");
        return new ServerFrame(first, data.readNBytes((int) length));
    }

    /** Reads frames until the server's close, skipping pings and pongs; its code. */
    static int readCloseCode(InputStream in) throws IOException {
        for (int i = 0; i < 1_000; i++) {
            ServerFrame frame = read(in);
            if (frame.opcode() == CLOSE) return frame.closeCode();
            if (frame.opcode() != PING && frame.opcode() != PONG) throw new IOException("a data frame before the close: " + frame.first());
        }
        throw new IOException("no close within 1,000 frames");
    }
}
