package dev.petrel.bench.lab;

import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Reads the frames a WebSocket server sends (RFC 6455 section 5.2), fed in whatever pieces the
 * socket gives, and tells the lab's clients when a whole message has come: its opcode, its length
 * over all its fragments and, when asked to keep them, its bytes. The load tool keeps no payload
 * (it needs only to know that the echo is back, and its length); the endpoint check keeps them to
 * compare. A ping is handed back for the client to answer, a close ends the session.
 *
 * <p>Strict where a server could be wrong in a way that would make its figures meaningless: a
 * masked frame, reserved bits set (no extension was negotiated), an unknown opcode, a continuation
 * without a message, a new message before the last one ended, a fragmented or over-long control
 * frame, or a message longer than the limit all throw {@link ProtocolException}.
 *
 * <p>Not thread-safe: one per connection.
 */
final class ServerFrameDecoder {
    /** What {@link #next} found. */
    enum Event {
        /** the bytes given so far end inside a frame: give more */
        NEED_MORE,
        /** a whole data message: {@link #opcode()}, {@link #length()}, {@link #payload()} */
        MESSAGE,
        /** a ping: {@link #controlPayload()} is what the pong must carry */
        PING,
        /** a close: {@link #closeCode()} is its status, or 1005 when it carried none */
        CLOSE
    }

    private static final int CONTINUATION = 0x0;
    private static final int MAX_CONTROL_PAYLOAD = 125;

    private final long maxMessageBytes;
    private final boolean keepPayload;

    // the frame being read
    private final byte[] header = new byte[10];
    private int headerHave;
    private int headerNeed = 2;
    private boolean inPayload;
    private boolean fin;
    private int frameOpcode;
    private long payloadLeft;
    private final byte[] control = new byte[MAX_CONTROL_PAYLOAD];
    private int controlHave;

    // the message being read, over its fragments
    private int messageOpcode = -1; // -1: between messages
    private long messageLength;
    private byte[] kept = new byte[0];
    private boolean messageDone;

    /**
     * A decoder that allows messages of up to {@code maxMessageBytes} and, with {@code keepPayload},
     * keeps each message's bytes for {@link #payload()}.
     */
    ServerFrameDecoder(long maxMessageBytes, boolean keepPayload) {
        this.maxMessageBytes = maxMessageBytes;
        this.keepPayload = keepPayload;
    }

    /**
     * Reads from {@code in} until a message, a ping or a close is complete, or {@code in} is used
     * up ({@link Event#NEED_MORE}). What it returns describes that event until the next call.
     *
     * @throws ProtocolException when the server broke the protocol as the class comment lists
     */
    Event next(ByteBuffer in) throws ProtocolException {
        if (messageDone) {
            messageDone = false;
            messageOpcode = -1;
            messageLength = 0;
        }
        while (in.hasRemaining() || (inPayload && payloadLeft == 0)) {
            if (!inPayload) {
                int take = Math.min(in.remaining(), headerNeed - headerHave);
                in.get(header, headerHave, take);
                headerHave += take;
                if (headerHave == 2) headerNeed = 2 + extendedLengthBytes(header[1]);
                if (headerHave < headerNeed) continue;
                startFrame();
                continue;
            }
            int take = (int) Math.min(in.remaining(), payloadLeft);
            if (isControl(frameOpcode)) {
                in.get(control, controlHave, take);
                controlHave += take;
            } else if (keepPayload) {
                int at = (int) (messageLength - payloadLeft);
                if (kept.length < at + take) kept = Arrays.copyOf(kept, Math.max(at + take, kept.length * 2));
                in.get(kept, at, take);
            } else {
                in.position(in.position() + take);
            }
            payloadLeft -= take;
            if (payloadLeft > 0) continue;
            Event event = endFrame();
            if (event != null) return event;
        }
        return Event.NEED_MORE;
    }

    /** The opcode of the message just read: {@link ClientFrame#TEXT} or {@link ClientFrame#BINARY}. */
    int opcode() {
        return messageOpcode;
    }

    /** The length of the message just read, over all its fragments. */
    long length() {
        return messageLength;
    }

    /** The bytes of the message just read, when the decoder keeps them; a copy. */
    byte[] payload() {
        if (!keepPayload) throw new IllegalStateException("this decoder keeps no payload");
        return Arrays.copyOf(kept, (int) messageLength);
    }

    /** The payload of the ping or close just read. */
    byte[] controlPayload() {
        return Arrays.copyOf(control, controlHave);
    }

    /** The status code of the close just read, 1005 (none received) when it carried none. */
    int closeCode() {
        return controlHave >= 2 ? ((control[0] & 0xFF) << 8) | (control[1] & 0xFF) : 1005;
    }

    private static int extendedLengthBytes(byte second) {
        int length = second & 0x7F;
        return length == 126 ? 2 : length == 127 ? 8 : 0;
    }

    private static boolean isControl(int opcode) {
        return (opcode & 0x8) != 0;
    }

    /** The header is whole: checks it and starts reading the payload. */
    private void startFrame() throws ProtocolException {
        int first = header[0] & 0xFF;
        int second = header[1] & 0xFF;
        fin = (first & 0x80) != 0;
        frameOpcode = first & 0x0F;
        if ((first & 0x70) != 0) throw new ProtocolException("reserved bits set on a frame, with no extension negotiated");
        if ((second & 0x80) != 0) throw new ProtocolException("a masked frame from the server");
        long length = second & 0x7F;
        if (length == 126) {
            length = ((header[2] & 0xFF) << 8) | (header[3] & 0xFF);
        } else if (length == 127) {
            length = ByteBuffer.wrap(header, 2, 8).getLong();
            if (length < 0) throw new ProtocolException("a frame length with the top bit set");
        }
        if (isControl(frameOpcode)) {
            if (frameOpcode != ClientFrame.CLOSE && frameOpcode != ClientFrame.PING && frameOpcode != ClientFrame.PONG) {
                throw new ProtocolException("unknown control opcode " + frameOpcode);
            }
            if (!fin) throw new ProtocolException("a fragmented control frame");
            if (length > MAX_CONTROL_PAYLOAD) throw new ProtocolException("a control frame of " + length + " bytes");
            controlHave = 0;
        } else if (frameOpcode == CONTINUATION) {
            if (messageOpcode < 0) throw new ProtocolException("a continuation frame outside a message");
        } else if (frameOpcode == ClientFrame.TEXT || frameOpcode == ClientFrame.BINARY) {
            if (messageOpcode >= 0) throw new ProtocolException("a new message before the last one ended");
            messageOpcode = frameOpcode;
        } else {
            throw new ProtocolException("unknown data opcode " + frameOpcode);
        }
        if (!isControl(frameOpcode)) {
            messageLength += length;
            if (messageLength > maxMessageBytes) {
                throw new ProtocolException("a message of more than " + maxMessageBytes + " bytes");
            }
        }
        payloadLeft = length;
        inPayload = true;
    }

    /** The payload is whole: the event it ends, or {@code null} when the message goes on (or a pong). */
    private Event endFrame() {
        inPayload = false;
        headerHave = 0;
        headerNeed = 2;
        if (frameOpcode == ClientFrame.PING) return Event.PING;
        if (frameOpcode == ClientFrame.CLOSE) return Event.CLOSE;
        if (frameOpcode == ClientFrame.PONG || !fin) return null;
        messageDone = true;
        return Event.MESSAGE;
    }
}
