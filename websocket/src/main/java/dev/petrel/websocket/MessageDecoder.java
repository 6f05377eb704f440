package dev.petrel.websocket;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Decodes WebSocket frames (RFC 6455 section 5) from the bytes someone else read into whole
 * messages and control frames, handed to a {@link MessageSink} in the order they came. One per
 * connection and direction; not thread-safe.
 *
 * <p><b>Buffering.</b> {@link #decode} consumes every byte it is given up to the end of a close
 * frame, keeping what it needs: a partial header in 14 bytes of its own, a partial control frame
 * in 125, the message so far in a buffer that grows with the bytes that actually arrive. So the
 * caller's read buffer never has to grow to a frame's size: it may be compacted, cleared or
 * reused after every call, and bytes may arrive split at any position. Payloads are unmasked as
 * they are copied out of the caller's buffer, which is never written to.
 *
 * <p><b>Checks</b>, each failing the connection with a {@link WebSocketException} carrying the
 * close code to send:
 * <table>
 *   <caption>Violations and their close codes</caption>
 *   <tr><th>Violation</th><th>Code</th></tr>
 *   <tr><td>a reserved opcode; RSV2 or RSV3 set; RSV1 set without permessage-deflate, or on a
 *       continuation or control frame</td><td>1002</td></tr>
 *   <tr><td>a client frame not masked, or a server frame masked (section 5.1)</td><td>1002</td></tr>
 *   <tr><td>a 64-bit length with its most significant bit set</td><td>1002</td></tr>
 *   <tr><td>a control frame longer than 125 bytes or without FIN (section 5.5)</td><td>1002</td></tr>
 *   <tr><td>a continuation frame with no message to continue; a new text or binary frame
 *       before the fragmented message ended (section 5.4)</td><td>1002</td></tr>
 *   <tr><td>a close frame with a 1-byte body, or a status code not {@link CloseCodes#validOnWire valid on the wire}</td><td>1002</td></tr>
 *   <tr><td>a text message or close reason that is not UTF-8, found at the first byte that
 *       makes it invalid, however the message is fragmented or its frame cut (section 8.1)</td><td>1007</td></tr>
 *   <tr><td>a compressed message that does not inflate (see {@link PerMessageDeflate})</td><td>1007</td></tr>
 *   <tr><td>a frame payload longer than {@link WebSocketLimits#maxFrameSize()}, on its header</td><td>1009</td></tr>
 *   <tr><td>a message longer than {@link WebSocketLimits#maxMessageSize()}: on the header of
 *       the frame that would take it past, or while it inflates</td><td>1009</td></tr>
 * </table>
 * After one, the decoder stays failed: every call throws the same exception and consumes nothing.
 *
 * <p>Control frames come to the sink as they arrive, between the fragments of a message too;
 * after a close frame the decoder reads nothing more (section 5.5.1: the peer sends no data after
 * it). It does no I/O, holds no threads and reads no clock.
 */
public final class MessageDecoder {
    private enum State { HEADER, DATA, CONTROL, CLOSED }

    /** The most compressed bytes unmasked and inflated at a time. */
    private static final int COMPRESSED_CHUNK = 8 * 1024;
    private static final int MAX_CONTROL_PAYLOAD = 125;

    private final WebSocketLimits limits;
    private final boolean clientSide;
    private final PerMessageDeflate deflate;
    private final FrameHeader header = new FrameHeader();
    private final MessageBuffer message;
    private final Utf8Validator utf8 = new Utf8Validator();
    /** A control frame's payload; allocated by the first one, since an idle session may never see one and each holds a decoder. */
    private byte[] control;
    /** Compressed payload bytes, unmasked before they go to the inflater; only with the extension. */
    private byte[] compressedChunk;

    private State state = State.HEADER;
    private WebSocketException failure;

    // The frame being read.
    private Opcode opcode;
    private long frameRemaining;
    private int keyIndex;
    private int controlFill;

    // The data message being assembled: its type (TEXT or BINARY) while one is open, else null.
    private Opcode messageType;
    private boolean compressed;
    private int lastMessageSize;

    /**
     * A decoder for one connection.
     *
     * @param limits the frame and message sizes accepted
     * @param clientSide false on a server, which receives the client's frames and requires them
     *     masked; true on a client, which requires the server's unmasked
     * @param deflate the negotiated permessage-deflate, whose inflater it uses; null when the
     *     extension is off, and then RSV1 is a protocol error
     */
    public MessageDecoder(WebSocketLimits limits, boolean clientSide, PerMessageDeflate deflate) {
        this.limits = limits;
        this.clientSide = clientSide;
        this.deflate = deflate;
        this.message = new MessageBuffer(limits.maxMessageSize());
    }

    /**
     * Consumes {@code in} from its position to its limit, or up to the end of a close frame,
     * calling {@code sink} for each whole message and each control frame completed on the way.
     *
     * @return true when more bytes are needed: all of {@code in} was consumed, and it ended
     *     between frames or inside one, whose part is kept; false once a close frame has been
     *     decoded: stop reading (bytes after it are left in {@code in}, and every later call
     *     answers false and consumes nothing)
     * @throws WebSocketException for a violation of the protocol, with the close code to fail the
     *     connection with (see the class comment); the decoder stays failed
     * @throws IOException when the sink throws it, the frame that called the sink already consumed
     */
    public boolean decode(ByteBuffer in, MessageSink sink) throws WebSocketException, IOException {
        if (failure != null) throw failure;
        try {
            while (true) {
                switch (state) {
                    case HEADER -> {
                        if (!header.read(in)) return true;
                        startFrame();
                    }
                    case DATA -> {
                        if (frameRemaining > 0) {
                            if (!in.hasRemaining()) return true;
                            readData(in);
                            if (frameRemaining > 0) return true;
                        }
                        state = State.HEADER;
                        if (header.fin) endMessage(sink);
                    }
                    case CONTROL -> {
                        int n = Math.min((int) header.length - controlFill, in.remaining());
                        in.get(control, controlFill, n);
                        if (header.masked) keyIndex = Masking.apply(control, controlFill, n, header.maskKey, keyIndex);
                        controlFill += n;
                        if (controlFill < header.length) return true;
                        state = State.HEADER;
                        endControlFrame(sink);
                    }
                    case CLOSED -> {
                        return false;
                    }
                    default -> throw new AssertionError(state);
                }
            }
        } catch (WebSocketException e) {
            failure = e;
            message.clear();
            throw e;
        }
    }

    /**
     * The payload bytes of the last data message handed to the sink, after inflating (a text
     * message's UTF-8 bytes), for a caller that counts what it receives: read it in the sink's
     * {@link MessageSink#text text} or {@link MessageSink#binary binary}, where it costs nothing,
     * rather than measuring the string again.
     */
    public int lastMessageSize() {
        return lastMessageSize;
    }

    /** Whether a close frame has been decoded: nothing more will be. */
    public boolean closeReceived() {
        return state == State.CLOSED;
    }

    /**
     * Whether the data message being received has begun and not ended: when the connection ends
     * now, a message was cut short.
     */
    public boolean inMessage() {
        return messageType != null;
    }

    /** Checks a whole header against the connection's state and sets up reading its payload. */
    private void startFrame() throws WebSocketException {
        if (header.rsv2 || header.rsv3) throw protocolError("RSV2 or RSV3 set, which no extension in use defines");
        opcode = Opcode.of(header.opcode);
        if (opcode == null) throw protocolError("reserved opcode");
        // section 5.1: a client masks every frame, a server none
        if (header.masked == clientSide) throw protocolError(clientSide ? "masked frame from the server" : "unmasked frame from the client");
        keyIndex = 0;
        if (opcode.isControl()) {
            if (!header.fin) throw protocolError("fragmented control frame");
            if (header.length > MAX_CONTROL_PAYLOAD) throw protocolError("control frame payload longer than 125 bytes");
            if (header.rsv1) throw protocolError("RSV1 set on a control frame");
            controlFill = 0;
            if (control == null) control = new byte[MAX_CONTROL_PAYLOAD];
            state = State.CONTROL;
            return;
        }
        if (header.rsv1 && deflate == null) throw protocolError("RSV1 set without permessage-deflate");
        if (opcode == Opcode.CONTINUATION) {
            if (messageType == null) throw protocolError("continuation frame with no message to continue");
            // RFC 7692 section 6.1: RSV1 marks only the first frame of a compressed message
            if (header.rsv1) throw protocolError("RSV1 set on a continuation frame");
        } else if (messageType != null) {
            throw protocolError("new data message before the fragmented one ended");
        }
        if (header.length > limits.maxFrameSize()) throw tooBig("frame larger than the limit");
        if (opcode != Opcode.CONTINUATION) {
            messageType = opcode;
            compressed = header.rsv1;
            utf8.reset();
        }
        if (compressed) {
            if (compressedChunk == null) compressedChunk = new byte[COMPRESSED_CHUNK];
        } else {
            if (message.size() + header.length > limits.maxMessageSize()) throw tooBig("message larger than the limit");
            message.expect(header.length);
        }
        frameRemaining = header.length;
        state = State.DATA;
    }

    /** Moves the data payload bytes {@code in} holds, up to the frame's end, into the message. */
    private void readData(ByteBuffer in) throws WebSocketException {
        int n = (int) Math.min(frameRemaining, in.remaining());
        frameRemaining -= n;
        if (compressed) {
            Utf8Validator text = messageType == Opcode.TEXT ? utf8 : null;
            for (int left = n; left > 0; ) {
                int k = Math.min(left, compressedChunk.length);
                in.get(compressedChunk, 0, k);
                if (header.masked) keyIndex = Masking.apply(compressedChunk, 0, k, header.maskKey, keyIndex);
                deflate.inflater().inflate(compressedChunk, 0, k, message, text);
                left -= k;
            }
            return;
        }
        int at = message.size();
        message.reserve(n, at + n + frameRemaining);
        byte[] bytes = message.array();
        in.get(bytes, at, n);
        if (header.masked) keyIndex = Masking.apply(bytes, at, n, header.maskKey, keyIndex);
        message.advance(n);
        if (messageType == Opcode.TEXT && !utf8.feed(bytes, at, n)) throw invalidText();
    }

    /** Hands over the message the frame just read ended, the decoder ready for the next. */
    private void endMessage(MessageSink sink) throws WebSocketException, IOException {
        Opcode type = messageType;
        messageType = null;
        if (compressed) deflate.inflater().finish(message, type == Opcode.TEXT ? utf8 : null);
        lastMessageSize = message.size();
        if (type == Opcode.TEXT) {
            if (!utf8.complete()) throw invalidText();
            sink.text(message.takeText());
        } else {
            sink.binary(message.takeBytes());
        }
    }

    /** Hands over the control frame just read; after a close frame the decoder is closed. */
    private void endControlFrame(MessageSink sink) throws WebSocketException, IOException {
        int length = (int) header.length;
        switch (opcode) {
            case PING -> sink.ping(Arrays.copyOf(control, length));
            case PONG -> sink.pong(Arrays.copyOf(control, length));
            case CLOSE -> {
                if (length == 0) {
                    state = State.CLOSED;
                    sink.close(CloseCodes.NO_STATUS, "");
                    return;
                }
                // section 5.5.1: a body starts with a 2-byte status code
                if (length == 1) throw protocolError("close frame with a 1-byte body");
                int code = ((control[0] & 0xFF) << 8) | (control[1] & 0xFF);
                if (!CloseCodes.validOnWire(code)) throw protocolError("close code not valid on the wire");
                if (!Utf8Validator.isValid(control, 2, length - 2)) {
                    throw new WebSocketException(CloseCodes.INVALID_PAYLOAD, "close reason not valid UTF-8");
                }
                state = State.CLOSED;
                sink.close(code, new String(control, 2, length - 2, StandardCharsets.UTF_8));
            }
            default -> throw new AssertionError(opcode);
        }
    }

    private static WebSocketException protocolError(String reason) {
        return new WebSocketException(CloseCodes.PROTOCOL_ERROR, reason);
    }

    private static WebSocketException tooBig(String reason) {
        return new WebSocketException(CloseCodes.MESSAGE_TOO_BIG, reason);
    }

    private static WebSocketException invalidText() {
        return new WebSocketException(CloseCodes.INVALID_PAYLOAD, "text message not valid UTF-8");
    }
}
