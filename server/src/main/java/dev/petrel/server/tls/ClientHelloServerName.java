package dev.petrel.server.tls;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The server name (SNI, RFC 6066 §3) a client's first TLS records ask for, read before any engine
 * sees them, so that the engine can be made for that name ({@link SniRoutingEngine}). JSSE and
 * BoringSSL settle whether to ask for a client certificate from the engine's configuration when
 * the hello arrives; only an engine made for the host can ask as that host wants.
 *
 * <p>Reads without consuming; a ClientHello split over several records is put together. Anything
 * that is not a well-formed ClientHello answers "no name": the engine then gets the bytes and
 * fails the handshake with its own alert.
 */
final class ClientHelloServerName {
    private static final int RECORD_HEADER = 5;
    private static final int HANDSHAKE_RECORD = 22;
    private static final int CLIENT_HELLO = 1;
    private static final int HANDSHAKE_HEADER = 4;
    private static final int SERVER_NAME_EXTENSION = 0;
    private static final int HOST_NAME = 0;
    /** The largest hello read; clients send a few hundred bytes, or a few KiB with post-quantum key shares. */
    private static final int MAX_HELLO = 1 << 16;

    /** What the records read so far say. */
    record Peek(boolean complete, String serverName) {
        static final Peek NEEDS_MORE = new Peek(false, null);
        static final Peek NO_NAME = new Peek(true, null);
    }

    private ClientHelloServerName() {}

    /**
     * Looks at {@code in} from its position to its limit, leaving both as they are.
     *
     * @return {@link Peek#NEEDS_MORE} while the hello is incomplete; else complete, with the host
     *     name asked for (lower case, no trailing dot) or null for none
     */
    static Peek peek(ByteBuffer in) {
        byte[] hello = new byte[0];
        int helloLength = -1;
        int at = in.position();
        while (true) {
            if (in.limit() - at < RECORD_HEADER) return Peek.NEEDS_MORE;
            if ((in.get(at) & 0xff) != HANDSHAKE_RECORD) return Peek.NO_NAME;
            int fragment = u16(in, at + 3);
            if (in.limit() - at - RECORD_HEADER < fragment) return Peek.NEEDS_MORE;
            byte[] grown = new byte[hello.length + fragment];
            System.arraycopy(hello, 0, grown, 0, hello.length);
            in.get(at + RECORD_HEADER, grown, hello.length, fragment);
            hello = grown;
            at += RECORD_HEADER + fragment;
            if (fragment == 0) return Peek.NO_NAME; // empty handshake records are forbidden (RFC 8446 §5.1)
            if (helloLength < 0 && hello.length >= HANDSHAKE_HEADER) {
                if ((hello[0] & 0xff) != CLIENT_HELLO) return Peek.NO_NAME;
                helloLength = ((hello[1] & 0xff) << 16) | ((hello[2] & 0xff) << 8) | (hello[3] & 0xff);
                if (helloLength > MAX_HELLO) return Peek.NO_NAME;
            }
            if (helloLength >= 0 && hello.length >= HANDSHAKE_HEADER + helloLength) {
                return new Peek(true, serverName(ByteBuffer.wrap(hello, HANDSHAKE_HEADER, helloLength)));
            }
        }
    }

    /** The host_name in the hello's server_name extension, or null; null too for a malformed hello. */
    private static String serverName(ByteBuffer body) {
        try {
            skip(body, 2 + 32);                  // legacy_version, random
            skip(body, body.get() & 0xff);       // legacy_session_id
            skip(body, u16(body));               // cipher_suites
            skip(body, body.get() & 0xff);       // legacy_compression_methods
            if (!body.hasRemaining()) return null; // no extensions
            ByteBuffer extensions = slice(body, u16(body));
            while (extensions.hasRemaining()) {
                int type = u16(extensions);
                ByteBuffer data = slice(extensions, u16(extensions));
                if (type == SERVER_NAME_EXTENSION) return hostName(slice(data, u16(data)));
            }
            return null;
        } catch (RuntimeException malformed) { // a length past the end: the engine will say what is wrong
            return null;
        }
    }

    private static String hostName(ByteBuffer names) {
        while (names.hasRemaining()) {
            int type = names.get() & 0xff;
            ByteBuffer name = slice(names, u16(names));
            if (type == HOST_NAME) return HostNames.normalize(StandardCharsets.US_ASCII.decode(name).toString());
        }
        return null;
    }

    private static ByteBuffer slice(ByteBuffer in, int length) {
        ByteBuffer slice = in.slice(in.position(), length); // throws past the end
        skip(in, length);
        return slice;
    }

    private static void skip(ByteBuffer in, int length) {
        in.position(in.position() + length); // throws past the end
    }

    private static int u16(ByteBuffer in) {
        return ((in.get() & 0xff) << 8) | (in.get() & 0xff);
    }

    private static int u16(ByteBuffer in, int at) {
        return ((in.get(at) & 0xff) << 8) | (in.get(at + 1) & 0xff);
    }
}
