package dev.petrel.websocket;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Objects;
import java.util.function.IntSupplier;

/**
 * Writes WebSocket frames (RFC 6455 section 5). A server's frames go out unmasked; a client's
 * (for tests and the lab's load tool) are masked with a fresh key per frame, from a
 * {@link SecureRandom} unless one is injected (section 5.3: the key must not be predictable).
 *
 * <p>Each method answers a new buffer holding whole frames, flipped, ready to write: one
 * allocation per message on the plain path (text is encoded to UTF-8 straight into it). With
 * permessage-deflate, data messages of at least its {@code minSizeToCompress} bytes are
 * compressed and sent with RSV1 set; control frames never are (RFC 7692 section 6.1).
 *
 * <p>Messages go out whole ({@link #text}, {@link #binary}) or in fragments ({@link #frame}); a
 * fragmented message must end before another data message starts, control frames may come in
 * between (section 5.4). Breaking those rules, or a control payload over 125 bytes, throws
 * {@link IllegalStateException} or {@link IllegalArgumentException} before anything is written.
 * One per connection; not thread-safe: a connection writes one frame at a time.
 */
public final class MessageEncoder {
    private static final int MAX_CONTROL_PAYLOAD = 125;
    /** Close reasons are cut to fit a control frame after the 2-byte code (section 5.5.1). */
    private static final int MAX_CLOSE_REASON = MAX_CONTROL_PAYLOAD - 2;

    private final boolean clientSide;
    private final PerMessageDeflate deflate;
    private final IntSupplier maskKeys;
    /** A message's bytes on their way to the compressor, kept between messages when small. */
    private byte[] uncompressed = new byte[0];

    /** Whether a data message's first frame went out without FIN and its last has not. */
    private boolean fragmenting;
    private boolean fragmentsCompressed;
    private int lastMessageSize;

    /**
     * An encoder for one connection.
     *
     * @param clientSide true to mask frames (keys from a shared {@link SecureRandom}), false for a
     *     server's unmasked ones
     * @param deflate the negotiated permessage-deflate, whose compressor it uses; null for none
     */
    public MessageEncoder(boolean clientSide, PerMessageDeflate deflate) {
        this(clientSide, deflate, clientSide ? SecureKeys::next : null);
    }

    /**
     * An encoder taking its masking keys from {@code maskKeys} (one int per frame, its most
     * significant byte the key's first), when {@code clientSide}; a server ignores it.
     *
     * @throws NullPointerException when {@code clientSide} and {@code maskKeys} is null
     */
    public MessageEncoder(boolean clientSide, PerMessageDeflate deflate, IntSupplier maskKeys) {
        this.clientSide = clientSide;
        this.deflate = deflate;
        this.maskKeys = clientSide ? Objects.requireNonNull(maskKeys, "maskKeys") : null;
    }

    /**
     * A text message in one frame. A string holding a lone surrogate (not text) is encoded as
     * the JDK encodes it, the surrogate replaced by {@code ?}.
     */
    public ByteBuffer text(String message) {
        checkNotFragmenting();
        int length = Utf8Encoding.length(message);
        if (length < 0) {
            byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
            lastMessageSize = bytes.length;
            return data(Opcode.TEXT, bytes, 0, bytes.length);
        }
        lastMessageSize = length;
        if (compresses(length)) {
            byte[] bytes = uncompressed(length);
            Utf8Encoding.encode(message, length, bytes, 0);
            return compressedFrame(Opcode.TEXT, true, true, bytes, 0, length);
        }
        ByteBuffer out = allocate(length);
        int key = putHeader(out, Opcode.TEXT, true, false, length);
        int start = out.position();
        Utf8Encoding.encode(message, length, out.array(), out.arrayOffset() + start);
        out.position(start + length);
        return finish(out, start, length, key);
    }

    /** A binary message in one frame: the bytes from {@code payload}'s position to its limit, which it moves to the limit. */
    public ByteBuffer binary(ByteBuffer payload) {
        checkNotFragmenting();
        int length = payload.remaining();
        lastMessageSize = length;
        if (compresses(length)) return compressedFrame(Opcode.BINARY, true, true, payload);
        return frame(Opcode.BINARY, true, false, payload);
    }

    /**
     * The payload bytes of the last message {@link #text} or {@link #binary} encoded, before
     * compression (a text message's UTF-8 bytes), for a caller that counts what it sends: the
     * encoder measured them already.
     */
    public int lastMessageSize() {
        return lastMessageSize;
    }

    /**
     * A ping carrying {@code payload}'s remaining bytes (moving its position to its limit).
     *
     * @throws IllegalArgumentException for more than 125 bytes
     */
    public ByteBuffer ping(ByteBuffer payload) {
        return control(Opcode.PING, payload);
    }

    /**
     * A pong carrying {@code payload}'s remaining bytes (moving its position to its limit): the
     * ping's payload when it answers one.
     *
     * @throws IllegalArgumentException for more than 125 bytes
     */
    public ByteBuffer pong(ByteBuffer payload) {
        return control(Opcode.PONG, payload);
    }

    /**
     * A close frame with {@code code} and {@code reason} (null for none), the reason cut to its
     * first 123 UTF-8 bytes, never inside a character. {@link CloseCodes#NO_STATUS} makes a close
     * frame without a body (and without the reason), as section 5.5.1 allows.
     *
     * @throws IllegalArgumentException for a code neither {@link CloseCodes#validOnWire valid on the wire} nor NO_STATUS
     */
    public ByteBuffer close(int code, String reason) {
        if (code == CloseCodes.NO_STATUS) return control(Opcode.CLOSE, ByteBuffer.allocate(0));
        if (!CloseCodes.validOnWire(code)) throw new IllegalArgumentException("close code not valid on the wire: " + code);
        byte[] text = reason == null ? new byte[0] : reason.getBytes(StandardCharsets.UTF_8);
        int reasonLength = Math.min(text.length, MAX_CLOSE_REASON);
        // back off past continuation bytes (10xxxxxx) so the cut falls before a character's first byte
        while (reasonLength < text.length && reasonLength > 0 && (text[reasonLength] & 0xC0) == 0x80) reasonLength--;
        ByteBuffer body = ByteBuffer.allocate(2 + reasonLength);
        body.put((byte) (code >>> 8)).put((byte) code).put(text, 0, reasonLength).flip();
        return control(Opcode.CLOSE, body);
    }

    /**
     * One frame of a message sent in fragments (section 5.4), or a control frame: {@code opcode}
     * TEXT or BINARY for a message's first frame, CONTINUATION for the others, {@code fin} on its
     * last; the payload is {@code payload}'s remaining bytes (its position moved to its limit).
     * With permessage-deflate, a fragmented message is compressed (each fragment flushed so that
     * it goes out whole), and a message sent in one frame is when it has
     * {@code minSizeToCompress} bytes. Text fragments are sent as given: a character may be cut
     * between two of them, as long as the whole is UTF-8.
     *
     * @throws IllegalStateException for CONTINUATION with no fragmented message started, or TEXT
     *     or BINARY while one has not ended
     * @throws IllegalArgumentException for a control frame without {@code fin} or over 125 bytes
     */
    public ByteBuffer frame(Opcode opcode, boolean fin, ByteBuffer payload) {
        if (opcode.isControl()) {
            if (!fin) throw new IllegalArgumentException("control frames cannot be fragmented");
            return control(opcode, payload);
        }
        if (opcode == Opcode.CONTINUATION) {
            if (!fragmenting) throw new IllegalStateException("CONTINUATION with no fragmented message started");
        } else {
            checkNotFragmenting();
            fragmentsCompressed = deflate != null && (!fin || payload.remaining() >= deflate.minSizeToCompress());
        }
        fragmenting = !fin;
        if (fragmentsCompressed) return compressedFrame(opcode, fin, opcode != Opcode.CONTINUATION, payload);
        return frame(opcode, fin, false, payload);
    }

    /**
     * Writes an unmasked frame header (a server's) into {@code out}, for a caller that writes
     * the {@code length} payload bytes after it from its own buffer; {@code rsv1} marks the first
     * frame of a compressed message. Answers how many bytes it wrote, {@link #headerLength}.
     *
     * @throws IllegalArgumentException for a negative length, or a control frame without
     *     {@code fin} or over 125 bytes
     * @throws BufferOverflowException when {@code out} has not room for the header; nothing is written
     */
    public static int writeHeader(ByteBuffer out, Opcode opcode, boolean fin, boolean rsv1, long length) {
        return putHeader(out, opcode, fin, rsv1, length, false, 0);
    }

    /** The size of a frame header for a payload of {@code length} bytes: 2, 4 or 10 bytes, 4 more when masked. */
    public static int headerLength(long length, boolean masked) {
        return (length < 126 ? 2 : length <= 0xFFFF ? 4 : 10) + (masked ? 4 : 0);
    }

    private ByteBuffer control(Opcode opcode, ByteBuffer payload) {
        if (payload.remaining() > MAX_CONTROL_PAYLOAD) {
            throw new IllegalArgumentException("control frame payload over 125 bytes: " + payload.remaining());
        }
        return frame(opcode, true, false, payload);
    }

    /** An uncompressed data message in one frame from an array. */
    private ByteBuffer data(Opcode opcode, byte[] bytes, int offset, int length) {
        if (compresses(length)) return compressedFrame(opcode, true, true, bytes, offset, length);
        ByteBuffer out = allocate(length);
        int key = putHeader(out, opcode, true, false, length);
        int start = out.position();
        out.put(bytes, offset, length);
        return finish(out, start, length, key);
    }

    /** One frame carrying {@code payload}'s remaining bytes as they are. */
    private ByteBuffer frame(Opcode opcode, boolean fin, boolean rsv1, ByteBuffer payload) {
        int length = payload.remaining();
        ByteBuffer out = allocate(length);
        int key = putHeader(out, opcode, fin, rsv1, length);
        int start = out.position();
        out.put(payload);
        return finish(out, start, length, key);
    }

    private ByteBuffer compressedFrame(Opcode opcode, boolean fin, boolean rsv1, ByteBuffer payload) {
        int length = payload.remaining();
        if (payload.hasArray()) {
            ByteBuffer frame = compressedFrame(opcode, fin, rsv1, payload.array(), payload.arrayOffset() + payload.position(), length);
            payload.position(payload.limit());
            return frame;
        }
        byte[] bytes = uncompressed(length);
        payload.get(bytes, 0, length);
        return compressedFrame(opcode, fin, rsv1, bytes, 0, length);
    }

    /** One frame carrying {@code bytes} compressed; {@code fin} ends the message, and its stream's flush. */
    private ByteBuffer compressedFrame(Opcode opcode, boolean fin, boolean rsv1, byte[] bytes, int offset, int length) {
        MessageCompressor compressor = deflate.compressor();
        int compressedLength = compressor.compress(bytes, offset, length, fin);
        ByteBuffer out = allocate(compressedLength);
        int key = putHeader(out, opcode, fin, rsv1, compressedLength);
        int start = out.position();
        out.put(compressor.output(), 0, compressedLength);
        compressor.trim();
        if (uncompressed.length > MessageBuffer.RETAINED) uncompressed = new byte[0];
        return finish(out, start, compressedLength, key);
    }

    private boolean compresses(int length) {
        return deflate != null && length >= deflate.minSizeToCompress();
    }

    private void checkNotFragmenting() {
        if (fragmenting) throw new IllegalStateException("a fragmented message has not ended");
    }

    private byte[] uncompressed(int length) {
        if (uncompressed.length < length) uncompressed = new byte[length];
        return uncompressed;
    }

    /** A heap buffer for one frame with a payload of {@code length} bytes. */
    private ByteBuffer allocate(int length) {
        return ByteBuffer.allocate(headerLength(length, clientSide) + length);
    }

    /** Writes the header, masked with a new key on the client side; answers the key (0 on a server). */
    private int putHeader(ByteBuffer out, Opcode opcode, boolean fin, boolean rsv1, long length) {
        int key = clientSide ? maskKeys.getAsInt() : 0;
        putHeader(out, opcode, fin, rsv1, length, clientSide, key);
        return key;
    }

    /** Masks the payload just written on the client side, and flips the buffer. */
    private ByteBuffer finish(ByteBuffer out, int payloadStart, int length, int key) {
        if (clientSide) Masking.apply(out.array(), out.arrayOffset() + payloadStart, length, key, 0);
        return out.flip();
    }

    private static int putHeader(ByteBuffer out, Opcode opcode, boolean fin, boolean rsv1, long length, boolean masked, int key) {
        if (length < 0) throw new IllegalArgumentException("negative payload length: " + length);
        if (opcode.isControl() && (!fin || length > MAX_CONTROL_PAYLOAD)) {
            throw new IllegalArgumentException("control frame fragmented or over 125 bytes");
        }
        int size = headerLength(length, masked);
        if (out.remaining() < size) throw new BufferOverflowException();
        out.put((byte) ((fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | opcode.code()));
        int maskBit = masked ? 0x80 : 0;
        if (length < 126) {
            out.put((byte) (maskBit | length));
        } else if (length <= 0xFFFF) {
            out.put((byte) (maskBit | 126)).put((byte) (length >>> 8)).put((byte) length);
        } else {
            out.put((byte) (maskBit | 127));
            for (int shift = 56; shift >= 0; shift -= 8) out.put((byte) (length >>> shift)); // big-endian whatever the buffer's order
        }
        if (masked) out.put((byte) (key >>> 24)).put((byte) (key >>> 16)).put((byte) (key >>> 8)).put((byte) key);
        return size;
    }

    /** The masking keys of client encoders built without a source: one shared generator, created when first needed. */
    private static final class SecureKeys {
        private static final SecureRandom RANDOM = new SecureRandom();

        static int next() {
            return RANDOM.nextInt();
        }
    }
}
