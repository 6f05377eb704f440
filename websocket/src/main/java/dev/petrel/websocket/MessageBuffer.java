package dev.petrel.websocket;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The bytes of the data message being received, bounded by the largest message accepted. It
 * grows with the bytes that actually arrive (or inflate), never with a length a header claims
 * beyond {@link #EAGER}, and never past the limit plus one byte: the byte that proves a message
 * too big is the last one it makes room for.
 *
 * <p>Between messages it keeps its array when that is at most {@link #RETAINED} bytes, so that a
 * connection exchanging small text messages allocates only their strings; a binary message that
 * fills its array exactly is handed over without a copy.
 */
final class MessageBuffer {
    /** The largest array kept from one message to the next: what an idle connection may cost. */
    static final int RETAINED = 16 * 1024;
    /** The most made room for, ahead of the bytes, on a frame header's word. */
    static final int EAGER = 64 * 1024;
    private static final int SMALLEST = 256;
    private static final byte[] NONE = new byte[0];

    private final int maxSize;
    private byte[] array = NONE;
    private int size;

    /** A buffer for messages of up to {@code maxSize} bytes. */
    MessageBuffer(int maxSize) {
        this.maxSize = maxSize;
    }

    byte[] array() {
        return array;
    }

    int size() {
        return size;
    }

    /**
     * Makes room ahead for a frame of {@code frameLength} bytes about to arrive, up to
     * {@link #EAGER} of them: a frame announced small enough lands in an array of its exact size.
     * The caller has checked that the message stays within the limit.
     */
    void expect(long frameLength) {
        long wanted = size + Math.min(frameLength, EAGER);
        if (wanted > array.length) resize((int) wanted);
    }

    /**
     * Makes room for {@code n} more bytes that have arrived, of a frame that ends {@code frameEnd}
     * bytes into the message: the array doubles, but not past the frame's end, so that a message
     * ending with the frame fills its array exactly.
     *
     * @throws WebSocketException 1009 when they would take the message past its limit
     */
    void reserve(int n, long frameEnd) throws WebSocketException {
        if ((long) size + n > maxSize) throw tooBig();
        if (size + n > array.length) resize((int) Math.max(size + n, Math.min(grown(), frameEnd)));
    }

    /**
     * Makes room for at least one more byte of inflated output and says how much there is, up to
     * the limit plus one byte.
     *
     * @throws WebSocketException 1009 when the message is already past its limit
     */
    int room() throws WebSocketException {
        if (size > maxSize) throw tooBig();
        if (size == array.length) resize(grown());
        return array.length - size;
    }

    /** Counts {@code n} bytes written at {@link #size()}. */
    void advance(int n) throws WebSocketException {
        size += n;
        if (size > maxSize) throw tooBig();
    }

    /** The message as a string of valid UTF-8 (already checked), then the buffer is cleared. */
    String takeText() {
        String text = new String(array, 0, size, StandardCharsets.UTF_8);
        clear();
        return text;
    }

    /** The message's bytes, then the buffer is cleared: its own array when that holds them exactly. */
    byte[] takeBytes() {
        byte[] bytes;
        if (size == array.length) {
            bytes = array;
            array = NONE;
        } else {
            bytes = Arrays.copyOf(array, size);
        }
        clear();
        return bytes;
    }

    /** Empties the buffer for the next message, letting go of an array too large to keep. */
    void clear() {
        size = 0;
        if (array.length > RETAINED) array = NONE;
    }

    /** The next capacity when growing by doubling, bounded by the limit plus one byte. */
    private int grown() {
        long doubled = Math.max(SMALLEST, 2L * array.length);
        return (int) Math.min(doubled, maxSize + 1L);
    }

    private void resize(int capacity) {
        byte[] larger = new byte[capacity];
        System.arraycopy(array, 0, larger, 0, size);
        array = larger;
    }

    private static WebSocketException tooBig() {
        return new WebSocketException(CloseCodes.MESSAGE_TOO_BIG, "message larger than the limit");
    }
}
