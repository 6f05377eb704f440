package dev.petrel.websocket;

import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * The receiving half of permessage-deflate (RFC 7692 section 7.2.2): inflates a compressed
 * message's payload as its frames arrive, then the 4 bytes {@code 00 00 FF FF} the sender
 * stripped, into a {@link MessageBuffer} that refuses to grow past the message limit. A bomb
 * (a small payload inflating to gigabytes) is stopped after at most the limit plus one byte.
 *
 * <p>One raw-DEFLATE stream runs across messages, so a peer that keeps its sliding window
 * ("context takeover") may refer to earlier messages. The stream is restarted after a message
 * holding a final block (BFINAL, section 7.2.3.4), whatever follows that block in the message
 * being ignored, and after every message when the peer promised not to take over context.
 *
 * <p>A payload the inflater cannot decode fails the connection with 1007, invalid payload data:
 * the frames were well formed, and it is their data that is not what the message says it is
 * (compressed). RFC 7692 names no code; Jetty answers the same, and the Autobahn suite sends no
 * corrupt streams. The {@link Inflater}'s native memory is taken on first use and freed by
 * {@link #close}.
 */
final class MessageInflater {
    /** The empty stored block ending every message, stripped by the sender (section 7.2.1). */
    private static final byte[] TAIL = {0x00, 0x00, (byte) 0xFF, (byte) 0xFF};

    private final boolean peerResetsEachMessage;
    private Inflater inflater;

    /** An inflater; {@code peerResetsEachMessage} when the peer compresses without context takeover. */
    MessageInflater(boolean peerResetsEachMessage) {
        this.peerResetsEachMessage = peerResetsEachMessage;
    }

    /**
     * Inflates {@code length} compressed bytes of the current message into {@code out}, feeding
     * what comes out to {@code text} when the message is text (null otherwise).
     *
     * @throws WebSocketException 1009 past the message limit, 1007 for a corrupt stream or text
     *     that is not UTF-8
     */
    void inflate(byte[] bytes, int offset, int length, MessageBuffer out, Utf8Validator text) throws WebSocketException {
        if (length == 0) return;
        Inflater in = inflater();
        // After a final block the stream is over: what follows is ignored, as zlib ignores it. A
        // sender that ends with BFINAL still appends an empty stored block before stripping its
        // last 4 bytes, so its payloads end with a byte past the final block (section 7.2.3.4).
        if (in.finished()) return;
        in.setInput(bytes, offset, length);
        drain(in, out, text);
    }

    /**
     * Ends the current message: inflates the stripped tail unless the stream already ended with
     * a final block, and restarts the stream when the next message cannot refer to this one.
     */
    void finish(MessageBuffer out, Utf8Validator text) throws WebSocketException {
        Inflater in = inflater();
        if (!in.finished()) {
            in.setInput(TAIL);
            drain(in, out, text);
        }
        if (in.finished() || peerResetsEachMessage) in.reset();
    }

    /** Frees the inflater's native memory; it must not be used after. */
    void close() {
        if (inflater != null) inflater.end();
    }

    private Inflater inflater() {
        if (inflater == null) inflater = new Inflater(true); // raw DEFLATE: no zlib header (section 7.2.1)
        return inflater;
    }

    /** Inflates until the inflater wants more input (or its stream ended), room made as output comes. */
    private static void drain(Inflater in, MessageBuffer out, Utf8Validator text) throws WebSocketException {
        while (true) {
            int room = out.room();
            int n;
            try {
                n = in.inflate(out.array(), out.size(), room);
            } catch (DataFormatException e) {
                throw corrupt("corrupt DEFLATE data");
            }
            if (n > 0) {
                // every byte inflated is checked before the limit is: otherwise text both invalid and
                // too long would get 1007 or 1009 depending on how its output happened to be cut
                if (text != null && !text.feed(out.array(), out.size(), n)) {
                    throw new WebSocketException(CloseCodes.INVALID_PAYLOAD, "text message not valid UTF-8");
                }
                out.advance(n);
                continue;
            }
            if (in.needsInput() || in.finished()) break;
            // no output with room to spare and input left: a preset dictionary, which raw
            // DEFLATE cannot ask for; stop rather than spin
            throw corrupt("DEFLATE stream that cannot go on");
        }
    }

    private static WebSocketException corrupt(String reason) {
        return new WebSocketException(CloseCodes.INVALID_PAYLOAD, reason);
    }
}
