package dev.petrel.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Supplier;

/**
 * Feeds bytes to a {@link MessageDecoder} the way a connection would: whole, split in two at
 * every byte boundary (for inputs over 4 KiB: the first and last 64 and every 509th, or the
 * splits would take minutes), one byte at a time, and from a direct buffer whose content does
 * not start at 0, through one read buffer that is compacted between reads and has its free space scribbled
 * over (a decoder that kept a reference to consumed bytes instead of copying them would be
 * caught). Every way must give the same outcome: the same messages and control frames, the same
 * failure, stopping after the same close frame.
 */
final class DecoderFeeding {
    private static final byte SCRIBBLE = (byte) 0xA5;
    /** Inputs longer than this are split at a sample of positions rather than at every one. */
    private static final int EVERY_SPLIT_UP_TO = 4096;

    private DecoderFeeding() {}

    /** What the sink was told: its method and what it got, bytes in hex. */
    record Event(String kind, String content) {
        static Event text(String s) {
            return new Event("text", s);
        }

        static Event binary(byte[] b) {
            return new Event("binary", HexFormat.of().formatHex(b));
        }

        static Event ping(byte[] b) {
            return new Event("ping", HexFormat.of().formatHex(b));
        }

        static Event pong(byte[] b) {
            return new Event("pong", HexFormat.of().formatHex(b));
        }

        static Event close(int code, String reason) {
            return new Event("close", code + " " + reason);
        }
    }

    /**
     * Everything one way of feeding produced: the events, the close code of the failure (0 for
     * none), whether a close frame ended it, and the bytes consumed (compared only without a
     * failure: a payload is consumed as far as it was given before its content is judged).
     */
    record Outcome(List<Event> events, int failure, boolean closed, int consumed) {
        Outcome comparable() {
            return failure == 0 ? this : new Outcome(events, failure, closed, -1);
        }
    }

    /** A sink recording what it is told. */
    static class Recorder implements MessageSink {
        final List<Event> events = new ArrayList<>();

        @Override
        public void text(String message) {
            events.add(Event.text(message));
        }

        @Override
        public void binary(byte[] message) {
            events.add(Event.binary(message));
        }

        @Override
        public void ping(byte[] payload) {
            events.add(Event.ping(payload));
        }

        @Override
        public void pong(byte[] payload) {
            events.add(Event.pong(payload));
        }

        @Override
        public void close(int code, String reason) {
            events.add(Event.close(code, reason));
        }
    }

    /** A server's decoder (masked frames required) without extensions and with the default limits. */
    static Supplier<MessageDecoder> serverDecoder() {
        return serverDecoder(WebSocketLimits.DEFAULT);
    }

    static Supplier<MessageDecoder> serverDecoder(WebSocketLimits limits) {
        return () -> new MessageDecoder(limits, false, null);
    }

    /** A client's decoder (unmasked frames required). */
    static Supplier<MessageDecoder> clientDecoder() {
        return () -> new MessageDecoder(WebSocketLimits.DEFAULT, true, null);
    }

    /** Decodes {@code input} in every way of feeding, asserts they agree, and answers the outcome of feeding it whole. */
    static Outcome assertSameHoweverFed(byte[] input, Supplier<MessageDecoder> decoders) {
        Outcome whole = feed(decoders.get(), List.of(input));
        for (List<byte[]> pieces : feedings(input)) {
            Outcome other = feed(decoders.get(), pieces);
            assertThat(other.comparable()).as("fed in %d pieces, the first of %d bytes", pieces.size(), pieces.getFirst().length)
                    .isEqualTo(whole.comparable());
        }
        ByteBuffer direct = ByteBuffer.allocateDirect(input.length + 3);
        direct.put(new byte[3]).put(input).flip().position(3);
        assertThat(drainOnce(decoders.get(), direct).comparable()).as("from a direct buffer").isEqualTo(whole.comparable());
        return whole;
    }

    /** Asserts that {@code input}, however fed, fails with {@code closeCode} after the given events. */
    static void assertFails(byte[] input, Supplier<MessageDecoder> decoders, int closeCode, Event... before) {
        Outcome outcome = assertSameHoweverFed(input, decoders);
        assertThat(outcome.failure()).as("close code, after %s", outcome.events()).isEqualTo(closeCode);
        assertThat(outcome.events()).containsExactly(before);
    }

    /** Asserts that {@code input}, however fed, gives exactly {@code events} and consumes all of it. */
    static void assertDecodes(byte[] input, Supplier<MessageDecoder> decoders, Event... events) {
        Outcome outcome = assertSameHoweverFed(input, decoders);
        assertThat(outcome.failure()).as("failure after %s", outcome.events()).isZero();
        assertThat(outcome.events()).containsExactly(events);
        assertThat(outcome.consumed()).isEqualTo(input.length);
    }

    /** Split in two at each boundary (or a sample of them for long inputs), and one byte at a time. */
    static List<List<byte[]>> feedings(byte[] input) {
        List<List<byte[]>> all = new ArrayList<>();
        for (int i = 1; i < input.length; i++) {
            if (input.length > EVERY_SPLIT_UP_TO && i > 64 && i < input.length - 64 && i % 509 != 0) continue;
            all.add(List.of(Arrays.copyOfRange(input, 0, i), Arrays.copyOfRange(input, i, input.length)));
        }
        List<byte[]> singles = new ArrayList<>();
        for (byte b : input) singles.add(new byte[] {b});
        all.add(singles);
        return all;
    }

    /**
     * Feeds {@code pieces} in order through one reused buffer: each piece is put in, the buffer
     * is flipped and decoded, then compacted and scribbled over. Stops at a
     * failure or once the decoder says a close frame ended its input.
     */
    static Outcome feed(MessageDecoder decoder, List<byte[]> pieces) {
        // the decoder consumes all it is given, so the buffer need only hold the largest piece
        int largest = 0;
        for (byte[] piece : pieces) largest = Math.max(largest, piece.length);
        ByteBuffer buffer = ByteBuffer.allocate(largest + 8);
        scribble(buffer);
        Recorder sink = new Recorder();
        int consumed = 0;
        for (byte[] piece : pieces) {
            buffer.put(piece);
            buffer.flip();
            int before = buffer.position();
            boolean more;
            try {
                more = decoder.decode(buffer, sink);
            } catch (WebSocketException e) {
                assertStaysFailed(decoder, e);
                return new Outcome(sink.events, e.closeCode(), false, consumed + buffer.position() - before);
            } catch (IOException | RuntimeException e) {
                throw new AssertionError("decode threw", e);
            }
            assertThat(buffer.position()).isBetween(before, buffer.limit());
            consumed += buffer.position() - before;
            if (!more) {
                assertThat(decoder.closeReceived()).isTrue();
                assertStaysClosed(decoder, buffer);
                return new Outcome(sink.events, 0, true, consumed);
            }
            assertThat(buffer.hasRemaining()).as("true (more needed) only once every byte is consumed").isFalse();
            buffer.compact();
            scribble(buffer);
        }
        return new Outcome(sink.events, 0, false, consumed);
    }

    private static Outcome drainOnce(MessageDecoder decoder, ByteBuffer buffer) {
        Recorder sink = new Recorder();
        int before = buffer.position();
        try {
            boolean more = decoder.decode(buffer, sink);
            return new Outcome(sink.events, 0, !more, buffer.position() - before);
        } catch (WebSocketException e) {
            return new Outcome(sink.events, e.closeCode(), false, buffer.position() - before);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void assertStaysFailed(MessageDecoder decoder, WebSocketException failure) {
        ByteBuffer more = ByteBuffer.wrap(WireFrames.client(WireFrames.FIN | WireFrames.PING, new byte[0]));
        try {
            decoder.decode(more, new Recorder());
            throw new AssertionError("a failed decoder decoded again");
        } catch (WebSocketException e) {
            assertThat(e).isSameAs(failure);
            assertThat(more.position()).isZero();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void assertStaysClosed(MessageDecoder decoder, ByteBuffer buffer) {
        int at = buffer.position();
        Recorder sink = new Recorder();
        try {
            assertThat(decoder.decode(buffer, sink)).isFalse();
        } catch (WebSocketException | IOException e) {
            throw new AssertionError(e);
        }
        assertThat(buffer.position()).isEqualTo(at);
        assertThat(sink.events).isEmpty();
    }

    /** Overwrites the free part of a buffer in write mode, leaving its position alone. */
    static void scribble(ByteBuffer buffer) {
        for (int i = buffer.position(); i < buffer.limit(); i++) buffer.put(i, SCRIBBLE);
    }
}
