package dev.petrel.websocket;

import java.util.Arrays;
import java.util.zip.Deflater;

/**
 * The sending half of permessage-deflate (RFC 7692 section 7.2.1): compresses a message (or a
 * fragment of one) with raw DEFLATE, flushes with SYNC_FLUSH so that everything given comes out
 * ending on a byte boundary, and strips the {@code 00 00 FF FF} that flush ends with from the
 * end of the message.
 *
 * <p>One stream runs across messages (context takeover) unless we agreed not to take over
 * context, in which case it restarts after every message. The output goes to an array kept for
 * the next message when it is small. The {@link Deflater}'s native memory (some 256 KiB at the
 * default level) is taken on first use and freed by {@link #close}.
 */
final class MessageCompressor {
    private static final int FIRST_OUTPUT = 1024;
    private static final int TAIL_LENGTH = 4;

    private final int level;
    private final boolean resetEachMessage;
    private Deflater deflater;
    private byte[] output = new byte[0];

    /**
     * A compressor at {@code level} (0 to 9, or -1 for zlib's default);
     * {@code resetEachMessage} when we agreed not to take over context.
     */
    MessageCompressor(int level, boolean resetEachMessage) {
        this.level = level;
        this.resetEachMessage = resetEachMessage;
    }

    /**
     * Compresses {@code length} bytes; {@code endOfMessage} for the last (or only) piece of a
     * message, whose output loses the tail. Answers how many bytes of {@link #output()} it wrote,
     * valid until the next call.
     */
    int compress(byte[] bytes, int offset, int length, boolean endOfMessage) {
        Deflater d = deflater();
        d.setInput(bytes, offset, length);
        if (output.length == 0) output = new byte[Math.max(FIRST_OUTPUT, length / 2 + 64)];
        int written = 0;
        while (true) {
            int n = d.deflate(output, written, output.length - written, Deflater.SYNC_FLUSH);
            written += n;
            // a flush that filled the array may have more to give (Deflater.deflate's contract)
            if (written < output.length) break;
            output = Arrays.copyOf(output, 2 * output.length);
        }
        if (endOfMessage) {
            if (written >= TAIL_LENGTH && endsWithTail(written)) {
                written -= TAIL_LENGTH;
            } else {
                // zlib writes nothing when flushed again with no new input (an empty message, or
                // an empty last fragment after a flushed one), and a payload of nothing would
                // leave the receiver's appended tail half a block. The stream sits on a byte
                // boundary after any flush, so end it with an empty stored block, less the 4
                // bytes the receiver appends: one 0 byte (section 7.2.1's rule for output not
                // ending with such a block).
                if (written == output.length) output = Arrays.copyOf(output, written + 1);
                output[written++] = 0;
            }
            if (resetEachMessage) d.reset();
        }
        return written;
    }

    /** The array {@link #compress} wrote into. */
    byte[] output() {
        return output;
    }

    /** Lets go of a large output array once its content has been copied out. */
    void trim() {
        if (output.length > MessageBuffer.RETAINED) output = new byte[0];
    }

    /** Frees the deflater's native memory; it must not be used after. */
    void close() {
        if (deflater != null) deflater.end();
    }

    private Deflater deflater() {
        if (deflater == null) deflater = new Deflater(level, true); // raw DEFLATE: no zlib header (section 7.2.1)
        return deflater;
    }

    private boolean endsWithTail(int written) {
        return output[written - 4] == 0 && output[written - 3] == 0
                && output[written - 2] == (byte) 0xFF && output[written - 1] == (byte) 0xFF;
    }
}
