package dev.petrel.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.petrel.http.ParseStatus;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * Feeds bytes to a {@link FrameReader} the way a connection would: whole, split in two at every
 * byte boundary, and one byte at a time, through one read buffer that is compacted between reads
 * and has its free space scribbled over (so a reader that kept a reference to consumed bytes
 * instead of copying them would be caught). Every way of feeding must give the same outcome:
 * the same frames, the same errors, stopping at the same byte.
 */
final class FrameFeeding {
    private static final byte SCRIBBLE = (byte) 0xA5;

    private FrameFeeding() {}

    /** What the reader exposed after one COMPLETE (or one stream error), copied out. */
    record Frame(int type, int flags, int streamId, int length, String content, List<Long> settings, long ping,
                 long rawErrorCode, int lastStreamId, int windowIncrement, int promisedStreamId,
                 boolean exclusive, int dependency, int weight, boolean expectingContinuation) {
        static Frame of(FrameReader r) {
            List<Long> settings = new ArrayList<>();
            for (int i = 0; i < r.settingsCount(); i++) {
                settings.add((long) r.settingId(i));
                settings.add(r.settingValue(i));
            }
            String content = HexFormat.of().formatHex(r.payload(), r.payloadOffset(), r.payloadOffset() + r.payloadLength());
            return new Frame(r.type(), r.flags(), r.streamId(), r.length(), content, settings,
                    r.type() == Frames.PING ? r.pingData() : 0, r.rawErrorCode(), r.lastStreamId(),
                    r.windowIncrement(), r.promisedStreamId(), r.exclusive(), r.dependency(), r.weight(),
                    r.expectingContinuation());
        }

        byte[] contentBytes() {
            return HexFormat.of().parseHex(content);
        }
    }

    /** One result of {@code read}: a frame, or a stream error with the frame's stream, or the connection error that ended it all. */
    record Event(Frame frame, Http2Error error) {
        boolean isFrame() {
            return frame != null;
        }
    }

    /** Everything one way of feeding produced, and how many bytes were consumed in all. */
    record Outcome(List<Event> events, int consumed, boolean failed) {
        Http2Error lastError() {
            return events.isEmpty() ? null : events.getLast().error();
        }

        List<Frame> frames() {
            return events.stream().filter(Event::isFrame).map(Event::frame).toList();
        }
    }

    /** Frame bytes: a 9-byte header giving {@code payload.length}, then the payload. */
    static byte[] frame(int type, int flags, int streamId, byte... payload) {
        return concat(header(payload.length, type, flags, streamId), payload);
    }

    /** A frame header alone, claiming any length. */
    static byte[] header(int length, int type, int flags, int streamId) {
        return new byte[] {(byte) (length >>> 16), (byte) (length >>> 8), (byte) length, (byte) type, (byte) flags,
            (byte) (streamId >>> 24), (byte) (streamId >>> 16), (byte) (streamId >>> 8), (byte) streamId};
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

    /**
     * Reads {@code input} in every way of feeding and asserts they agree; returns the outcome of
     * reading it whole.
     */
    static Outcome assertSameHoweverFed(byte[] input) {
        return assertSameHoweverFed(input, Frames.DEFAULT_MAX_FRAME_SIZE);
    }

    static Outcome assertSameHoweverFed(byte[] input, int maxFrameSize) {
        Outcome whole = feed(new FrameReader(maxFrameSize), List.of(input));
        for (List<byte[]> pieces : feedings(input)) {
            Outcome other = feed(new FrameReader(maxFrameSize), pieces);
            assertThat(other).as("fed in %d pieces, first %d bytes", pieces.size(), pieces.getFirst().length).isEqualTo(whole);
        }
        // Also from a direct buffer whose content does not start at index 0.
        ByteBuffer direct = ByteBuffer.allocateDirect(input.length + 3);
        direct.put(new byte[3]).put(input).flip().position(3);
        List<Event> events = new ArrayList<>();
        drain(new FrameReader(maxFrameSize), direct, events);
        assertThat(events).as("direct buffer").isEqualTo(whole.events());
        return whole;
    }

    /** Whole, split in two at each byte boundary, one byte at a time. */
    static List<List<byte[]>> feedings(byte[] input) {
        List<List<byte[]>> all = new ArrayList<>();
        for (int i = 1; i < input.length; i++) {
            all.add(List.of(Arrays.copyOfRange(input, 0, i), Arrays.copyOfRange(input, i, input.length)));
        }
        List<byte[]> singles = new ArrayList<>();
        for (byte b : input) singles.add(new byte[] {b});
        all.add(singles);
        return all;
    }

    /** {@code input} cut at the given offsets (sorted, within 0..length). */
    static List<byte[]> cut(byte[] input, int... at) {
        int[] cuts = at.clone();
        Arrays.sort(cuts);
        List<byte[]> pieces = new ArrayList<>();
        int from = 0;
        for (int to : cuts) {
            pieces.add(Arrays.copyOfRange(input, from, to));
            from = to;
        }
        pieces.add(Arrays.copyOfRange(input, from, input.length));
        return pieces;
    }

    /**
     * Feeds {@code pieces} in order through one reused buffer: each piece is appended after any
     * unread bytes, the buffer is flipped, read until NEED_MORE or a connection error, compacted
     * and scribbled over. After a connection error the reader must stay failed and consume nothing.
     */
    static Outcome feed(FrameReader reader, List<byte[]> pieces) {
        int total = 0;
        for (byte[] piece : pieces) total += piece.length;
        ByteBuffer buffer = ByteBuffer.allocate(total + 8);
        scribble(buffer);
        List<Event> events = new ArrayList<>();
        int consumed = 0;
        for (byte[] piece : pieces) {
            buffer.put(piece);
            buffer.flip();
            int before = buffer.position();
            boolean failed = drain(reader, buffer, events);
            consumed += buffer.position() - before;
            if (failed) return new Outcome(events, consumed, true);
            buffer.compact();
            scribble(buffer);
        }
        return new Outcome(events, consumed, false);
    }

    /** Reads until NEED_MORE (having consumed every byte) or a connection error; returns whether it failed. */
    private static boolean drain(FrameReader reader, ByteBuffer buffer, List<Event> events) {
        while (true) {
            int before = buffer.position();
            ParseStatus status;
            try {
                status = reader.read(buffer);
            } catch (RuntimeException e) {
                throw new AssertionError("read threw", e);
            }
            assertThat(buffer.position()).as("position within the buffer").isBetween(before, buffer.limit());
            switch (status) {
                case NEED_MORE -> {
                    assertThat(buffer.hasRemaining()).as("NEED_MORE consumes every byte given").isFalse();
                    return false;
                }
                case COMPLETE -> {
                    assertThat(reader.error()).isNull();
                    events.add(new Event(Frame.of(reader), null));
                }
                case ERROR -> {
                    Http2Error error = reader.error();
                    assertThat(error).as("error after ERROR").isNotNull();
                    assertThat(error.reason()).isNotBlank();
                    if (!error.isConnectionError()) {
                        assertThat(error.streamId()).as("stream error names the frame's stream").isEqualTo(reader.streamId());
                        events.add(new Event(null, error));
                        continue;
                    }
                    events.add(new Event(null, error));
                    // A failed reader stays failed and consumes nothing.
                    int at = buffer.position();
                    assertThat(reader.read(buffer)).isEqualTo(ParseStatus.ERROR);
                    assertThat(reader.read(ByteBuffer.wrap(frame(Frames.PING, 0, 0, new byte[8])))).isEqualTo(ParseStatus.ERROR);
                    assertThat(buffer.position()).isEqualTo(at);
                    assertThat(reader.error()).isEqualTo(error);
                    return true;
                }
            }
        }
    }

    /** Overwrites the free part of a buffer in write mode, leaving its position alone. */
    static void scribble(ByteBuffer buffer) {
        for (int i = buffer.position(); i < buffer.limit(); i++) buffer.put(i, SCRIBBLE);
    }
}
